import { DateTime } from 'luxon';
import type { PatientFields } from '../../contract/patients';
import { findCountry } from '../countries';
import { invalid } from '../annotations/shared';

/** The spec's messages (spec 1 §5). */
export const PATIENT_MESSAGES = {
  idRequired: 'Please enter Patient ID.',
  idChars: 'Patient ID accepts characters only',
  idExists: 'Patient ID already exist',
  year: 'Please select year of birth.',
  yearRange: 'Year not found.',
  gender: 'Please select gender.',
  condition: 'Please select condition.',
  weight: 'Please enter weight.',
  weightValid: 'Please enter valid weight.',
  height: 'Please enter height.',
  heightValid: 'Please enter valid height.',
  vitalsEmpty: 'None of the below inputs should be empty',
  spo2Max: 'Spo2 Range cannot be more than 100',
  minMax: 'Min. Range should not be greater than Max. Range',
  country: 'Please select country.',
} as const;

const COMMENT_MAX_ADD = 1024;
const COMMENT_MAX_EDIT = 10240;
const NUMBER = /^\d{1,3}(\.\d{0,2})?$/;

/** A weight, height or threshold: up to 3 integer digits and 2 decimals, fewer than 7 characters; a trailing point is dropped. */
function parseMeasure(value: unknown): number | null | 'invalid' {
  if (value === null || value === undefined || value === '') return null;
  const text = String(value).trim();
  if (text.length >= 7 || !NUMBER.test(text)) return 'invalid';
  return Number(text.replace(/\.$/, ''));
}

/** BMI (spec 1 §5): weight over height in metres squared, 2 decimals, 0 if either is missing. */
export function bmiOf(weightKg: number | null, heightCm: number | null): number {
  if (!weightKg || !heightCm) return 0;
  return Math.round((weightKg / (heightCm / 100) ** 2) * 100) / 100;
}

/** Year-of-birth choices: 18 to 118 years ago. */
function yearInRange(year: number, now = DateTime.now()): boolean {
  return Number.isInteger(year) && year <= now.year - 18 && year >= now.year - 118;
}

/** Checks vital thresholds (spec 1 §5 "Vital ranges"); returns the messages, empty when valid. */
function vitalErrors(input: unknown): string[] {
  let v: Record<string, Record<string, unknown>>;
  try {
    v = typeof input === 'string' ? JSON.parse(input) : (input as Record<string, Record<string, unknown>>);
  } catch {
    return [PATIENT_MESSAGES.vitalsEmpty];
  }
  if (!v || typeof v !== 'object') return [PATIENT_MESSAGES.vitalsEmpty];
  const groups: Array<[string, Array<[string, string]>]> = [
    ['spo2', [['modFrom', 'modTo'], ['sevFrom', 'sevTo']]],
    ['pr', [['modFromF', 'modToF'], ['modFromS', 'modToS'], ['sevFromF', 'sevToF'], ['sevFromS', 'sevToS']]],
    ['br', [['modFromF', 'modToF'], ['modFromS', 'modToS'], ['sevFromF', 'sevToF'], ['sevFromS', 'sevToS']]],
  ];
  const errors = new Set<string>();
  for (const [group, pairs] of groups) {
    for (const [from, to] of pairs) {
      const a = parseMeasure(v[group]?.[from]);
      const b = parseMeasure(v[group]?.[to]);
      if (a === null || b === null || a === 'invalid' || b === 'invalid') {
        errors.add(PATIENT_MESSAGES.vitalsEmpty);
        continue;
      }
      if (group === 'spo2' && (a > 100 || b > 100)) errors.add(PATIENT_MESSAGES.spo2Max);
      if (a > b) errors.add(PATIENT_MESSAGES.minMax);
    }
  }
  return [...errors];
}

/** Normalised, checked patient fields; only the ones given (edits send a subset). */
export function checkPatient(body: PatientFields, mode: 'add' | 'edit'): Record<string, unknown> {
  const errors: string[] = [];
  const out: Record<string, unknown> = {};
  const has = (k: keyof PatientFields) => mode === 'add' || body[k] !== undefined;

  if (has('patient_code')) {
    const code = (body.patient_code ?? '').trim();
    if (!code) errors.push(PATIENT_MESSAGES.idRequired);
    else if (code.length > 20 || !/^\w+$/.test(code)) errors.push(PATIENT_MESSAGES.idChars);
    out.patient_code = code;
  }
  if (has('date_of_birth')) {
    const m = /^(\d{4})(-\d{2}-\d{2})?$/.exec((body.date_of_birth ?? '').trim());
    if (!m) errors.push(PATIENT_MESSAGES.year);
    else if (!yearInRange(Number(m[1]))) errors.push(PATIENT_MESSAGES.yearRange);
    else out.date_of_birth = `${m[1]}-01-01`;
  }
  if (has('gender')) {
    if (!['M', 'F', 'O'].includes(body.gender ?? '')) errors.push(PATIENT_MESSAGES.gender);
    else out.gender = body.gender;
  }
  if (has('diseaseIds')) {
    const ids = String(body.diseaseIds ?? '').split(',').map((s) => Number(s.trim())).filter((n) => Number.isInteger(n) && n > 0);
    if (ids.length === 0) errors.push(PATIENT_MESSAGES.condition);
    // Spec 1 §4: None (1) excludes every other condition.
    out.diseaseIds = ids.includes(1) && ids.length > 1 ? ids.filter((i) => i !== 1) : [...new Set(ids)];
  }
  for (const [key, empty, bad] of [
    ['weight', PATIENT_MESSAGES.weight, PATIENT_MESSAGES.weightValid],
    ['height', PATIENT_MESSAGES.height, PATIENT_MESSAGES.heightValid],
  ] as const) {
    if (!has(key)) continue;
    const v = parseMeasure(body[key]);
    if (v === null) errors.push(empty);
    else if (v === 'invalid' || v === 0) errors.push(bad);
    else out[key] = v;
  }
  if (has('vital_parameters')) {
    const vErr = vitalErrors(body.vital_parameters ?? null);
    errors.push(...vErr);
    if (!vErr.length) out.vital_parameters = typeof body.vital_parameters === 'string' ? JSON.parse(body.vital_parameters) : body.vital_parameters;
  }
  if (body.comment !== undefined) {
    const comment = body.comment.replace(/\\(\\|')/g, '$1');
    const max = mode === 'add' ? COMMENT_MAX_ADD : COMMENT_MAX_EDIT;
    if (comment.length > max) errors.push(`Comment can have at most ${max} characters.`);
    out.comment = comment;
  }
  if (has('country')) {
    const c = body.country ? findCountry(body.country) : undefined;
    if (!c) errors.push(PATIENT_MESSAGES.country);
    else out.country = c.name;
  }
  if (body.at_risk !== undefined) {
    if (body.at_risk !== null && ![0, 1, 2].includes(Number(body.at_risk))) errors.push('Patient status must be Not Known, Stable, At Risk or Control.');
    else out.at_risk = body.at_risk === null ? null : Number(body.at_risk);
  }
  for (const key of ['first_name', 'last_name', 'email_id', 'address', 'tags'] as const) {
    if (body[key] !== undefined) {
      const v = String(body[key]).trim();
      if (v.length > 200) errors.push(`${key} is too long.`);
      out[key] = v;
    }
  }
  if (errors.length) throw invalid(errors);
  return out;
}
