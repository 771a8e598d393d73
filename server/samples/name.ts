/**
 * The name of a sample patient (spec 2 §2): the only thing its bio header shows, so it must
 * not carry who the night came from.
 */

/** The longest sample name, as a patient's name on the profile (spec 1 §9: name max 30). */
export const SAMPLE_NAME_MAX = 30;

/** What identifies the source patient: a sample's name may contain none of these. */
export interface SourceIdentity {
  first_name: string;
  last_name: string;
  patient_code: string;
}

export type SampleNameRule = 'required' | 'max_length' | 'identifying';

const fold = (s: string) => s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase();

/**
 * The rule a proposed sample name breaks, or null: empty, longer than SAMPLE_NAME_MAX, or
 * holding the source patient's first name, last name or code (accents and case ignored;
 * names of one letter are not checked, an initial alone identifies nobody).
 */
export function sampleNameProblem(name: string, source: SourceIdentity): SampleNameRule | null {
  const trimmed = name.trim();
  if (!trimmed) return 'required';
  if ([...trimmed].length > SAMPLE_NAME_MAX) return 'max_length';
  const folded = fold(trimmed);
  const words = folded.split(/[^\p{L}\p{N}]+/u);
  for (const part of [source.first_name, source.last_name]) {
    for (const word of fold(part).split(/[^\p{L}\p{N}]+/u)) {
      if (word.length > 1 && words.includes(word)) return 'identifying';
    }
  }
  if (source.patient_code && folded.includes(fold(source.patient_code))) return 'identifying';
  return null;
}
