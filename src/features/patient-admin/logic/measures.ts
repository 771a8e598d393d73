/** Body measures and numeric inputs (spec 1 §5, §9): pure, framework-free. */

/** Up to 3 integer digits and 2 decimals; the whole text fewer than 7 characters. */
const MEASURE = /^\d{0,3}(\.\d{0,2})?$/;
const MEASURE_MAX_CHARS = 6;

/**
 * Keystroke filter for weight, height and thresholds: returns the new text when it is
 * still a valid partial number, otherwise the previous text (the key is ignored).
 */
export function acceptMeasureInput(previous: string, next: string): string {
  const text = next.replace(',', '.');
  if (text === '') return '';
  if (text.length > MEASURE_MAX_CHARS || !MEASURE.test(text)) return previous;
  return text;
}

/** The number a measure field holds on submit: a trailing point is dropped; empty is null. */
export function measureValue(text: string): number | null {
  const t = text.trim().replace(/\.$/, '');
  if (t === '' || t === '.') return null;
  const n = Number(t);
  return Number.isFinite(n) ? n : null;
}

/** Text sent for a measure: trailing point dropped ("72." → "72"). */
export function measureText(text: string): string {
  return text.trim().replace(/\.$/, '');
}

/** BMI: weight (kg) over height (m) squared, 2 decimals; 0 if either is missing. */
export function bmi(weightKg: number | null, heightCm: number | null): number {
  if (!weightKg || !heightCm) return 0;
  return Math.round((weightKg / (heightCm / 100) ** 2) * 100) / 100;
}

export type BmiClass = 'underweight' | 'normal' | 'preObesity' | 'obesity1' | 'obesity2' | 'obesity3';

/** WHO classes as spec 1 §5 lists them; null for a BMI of 0 (unknown). */
export function bmiClass(value: number): BmiClass | null {
  if (!value) return null;
  if (value < 18.5) return 'underweight';
  if (value < 25) return 'normal';
  if (value < 30) return 'preObesity';
  if (value < 35) return 'obesity1';
  if (value < 40) return 'obesity2';
  return 'obesity3';
}

const MIN_AGE_YEARS = 18;
const YEAR_SPAN = 100;

/** Year-of-birth choices: from 18 years ago back 100 years (18 to 118 years ago), newest first. */
export function birthYearChoices(currentYear: number): number[] {
  const newest = currentYear - MIN_AGE_YEARS;
  return Array.from({ length: YEAR_SPAN + 1 }, (_, i) => newest - i);
}

/** Years matching a typed search (prefix of the digits); empty means 'Year not found.' */
export function searchYears(choices: readonly number[], query: string): number[] {
  const q = query.replace(/\s+/g, '');
  return q ? choices.filter((y) => String(y).startsWith(q)) : [...choices];
}

/** Escapes backslashes and single quotes before a comment is sent (spec 1 §5). */
export function escapeComment(text: string): string {
  return text.replace(/\\/g, '\\\\').replace(/'/g, "\\'");
}

export const COMMENT_MAX_ADD = 1024;
export const COMMENT_MAX_EDIT = 10240;
export const PATIENT_ID_MAX = 20;
