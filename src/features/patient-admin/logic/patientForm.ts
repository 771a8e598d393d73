import { COMMENT_MAX_ADD, COMMENT_MAX_EDIT, PATIENT_ID_MAX, measureValue } from './measures';

/** Every message of the add-patient page 1 (spec 1 §5), keyed for the catalogue. */
export type PatientFieldError =
  | 'idRequired'
  | 'idChars'
  | 'idExists'
  | 'yearRequired'
  | 'yearNotFound'
  | 'genderRequired'
  | 'conditionRequired'
  | 'weightRequired'
  | 'weightInvalid'
  | 'heightRequired'
  | 'heightInvalid'
  | 'commentTooLong'
  | 'countryRequired';

export interface PatientForm {
  patientCode: string;
  /** The code came from /patient/generate-code: read-only until cleared. */
  generated: boolean;
  yearOfBirth: string;
  gender: '' | 'M' | 'F' | 'O';
  diseaseIds: number[];
  weight: string;
  height: string;
  atRisk: '' | '0' | '1' | '2';
  comment: string;
  country: string;
}

export type PatientErrors = Partial<Record<'patientCode' | 'yearOfBirth' | 'gender' | 'diseaseIds' | 'weight' | 'height' | 'comment' | 'country', PatientFieldError>>;

export const emptyPatientForm: PatientForm = {
  patientCode: '',
  generated: false,
  yearOfBirth: '',
  gender: '',
  diseaseIds: [],
  weight: '',
  height: '',
  atRisk: '',
  comment: '',
  country: '',
};

/** Patient ID: required; at most 20 word characters. */
export function patientCodeError(code: string): PatientFieldError | null {
  const c = code.trim();
  if (!c) return 'idRequired';
  if (c.length > PATIENT_ID_MAX || !/^\w+$/.test(c)) return 'idChars';
  return null;
}

function measureError(text: string, empty: PatientFieldError, invalid: PatientFieldError): PatientFieldError | null {
  const v = measureValue(text);
  if (v === null) return text.trim() && text.trim() !== '.' ? invalid : empty;
  return v === 0 ? invalid : null;
}

/** Page-1 errors on Next; the page may advance only when this is empty. */
export function validatePage1(form: PatientForm, yearChoices: readonly number[], mode: 'add' | 'edit' = 'add'): PatientErrors {
  const errors: PatientErrors = {};
  const id = patientCodeError(form.patientCode);
  if (id) errors.patientCode = id;
  if (!form.yearOfBirth) errors.yearOfBirth = 'yearRequired';
  else if (!yearChoices.includes(Number(form.yearOfBirth))) errors.yearOfBirth = 'yearNotFound';
  if (!form.gender) errors.gender = 'genderRequired';
  if (form.diseaseIds.length === 0) errors.diseaseIds = 'conditionRequired';
  const w = measureError(form.weight, 'weightRequired', 'weightInvalid');
  if (w) errors.weight = w;
  const h = measureError(form.height, 'heightRequired', 'heightInvalid');
  if (h) errors.height = h;
  if (form.comment.length > (mode === 'add' ? COMMENT_MAX_ADD : COMMENT_MAX_EDIT)) errors.comment = 'commentTooLong';
  if (!form.country) errors.country = 'countryRequired';
  return errors;
}

export const hasErrors = (errors: PatientErrors): boolean => Object.values(errors).some(Boolean);

/** Conditions (spec 1 §4): choosing None (id 1) removes the others; choosing another removes None. */
const NONE_DISEASE_ID = 1;

export function toggleCondition(ids: readonly number[], id: number): number[] {
  if (ids.includes(id)) return ids.filter((d) => d !== id);
  if (id === NONE_DISEASE_ID) return [NONE_DISEASE_ID];
  return [...ids.filter((d) => d !== NONE_DISEASE_ID), id];
}

/** The last remaining condition cannot be removed via its chip. */
export const canRemoveChip = (ids: readonly number[], id: number): boolean => ids.includes(id) && ids.length > 1;

/** Fuzzy condition search: every typed character appears in order (case-insensitive). */
export function fuzzyMatch(text: string, query: string): boolean {
  const q = query.toLowerCase().replace(/\s+/g, '');
  const t = text.toLowerCase();
  let i = 0;
  for (const ch of t) if (ch === q[i]) i++;
  return i === q.length;
}

/** A comment edit sends nothing when unchanged; otherwise the escaped text. */
export function commentToSend(original: string, edited: string, escape: (s: string) => string): string | undefined {
  return edited === original ? undefined : escape(edited);
}

/** Patient password reset by a physician: both required, and the same. */
export type PasswordResetError = 'empty' | 'notSame';
export function passwordResetError(password: string, confirm: string): PasswordResetError | null {
  if (!password || !confirm) return 'empty';
  if (password !== confirm) return 'notSame';
  return null;
}
