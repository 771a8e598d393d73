// The add-patient wizard's state (spec 1 §2, §4, §5) as one reducer: the page, the patient's
// form and its errors, the device dates and choice, and which dialog is open.
import { dayStartMs, type DateRange } from './dates';
import { bmi, escapeComment, measureText, measureValue } from './measures';
import { emptyPatientForm, hasErrors, type PatientErrors, type PatientForm } from './patientForm';
import { screeningAnswers, type ScreeningState } from './screening';
import { NEW_PATIENT_DEFAULTS } from './vitals';
import type { AvailableDevice, NewPatientPayload } from '../types';

/** What the "device deployed" dialog says. */
interface Deployed {
  device: string;
  code: string;
  from: string;
  to: string;
}

export interface WizardState {
  page: 1 | 2;
  form: PatientForm;
  errors: PatientErrors;
  range: DateRange;
  device: AvailableDevice | null;
  deployed: Deployed | null;
  /** The dialog asking to go on without a device, or to discard the form (then where to). */
  ask: 'none' | 'noDevice' | 'discard';
  leaveTo: string | null;
  serverError: string | null;
  /** The patient ID the server generated (an untouched generated ID is no change). */
  generated: string;
}

export type WizardAction =
  | { type: 'field'; key: keyof PatientForm; value: PatientForm[keyof PatientForm] }
  | { type: 'defaultCountry'; country: string }
  | { type: 'generated'; code: string }
  | { type: 'clearCode' }
  | { type: 'validated'; errors: PatientErrors }
  | { type: 'page'; page: 1 | 2 }
  | { type: 'range'; range: DateRange }
  | { type: 'device'; device: AvailableDevice | null }
  | { type: 'idTaken' }
  | { type: 'deployed'; deployed: Deployed }
  | { type: 'ask'; ask: WizardState['ask']; leaveTo?: string | null }
  | { type: 'serverError'; text: string | null };

export function initialWizard(range: DateRange): WizardState {
  return { page: 1, form: emptyPatientForm, errors: {}, range, device: null, deployed: null, ask: 'none', leaveTo: null, serverError: null, generated: '' };
}

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'field':
      return { ...state, form: { ...state.form, [action.key]: action.value } };
    // The user's country, arriving after the first render, fills an empty field only.
    case 'defaultCountry':
      return state.form.country ? state : { ...state, form: { ...state.form, country: action.country } };
    // A generated ID fills an empty field and makes it read-only until cleared.
    case 'generated':
      return { ...state, generated: action.code, form: state.form.patientCode ? state.form : { ...state.form, patientCode: action.code, generated: true } };
    case 'clearCode':
      return { ...state, form: { ...state.form, patientCode: '', generated: false } };
    case 'validated':
      return { ...state, errors: action.errors, page: hasErrors(action.errors) ? state.page : 2 };
    case 'page':
      return { ...state, page: action.page };
    // New dates (or a new country's days): the free devices change, the chosen one is forgotten.
    case 'range':
      return { ...state, range: action.range, device: null };
    case 'device':
      return { ...state, device: action.device };
    // A taken patient ID returns to page 1 with its error (spec 1 §4), editable.
    case 'idTaken':
      return { ...state, page: 1, errors: { patientCode: 'idExists' }, form: { ...state.form, generated: false } };
    case 'deployed':
      return { ...state, deployed: action.deployed };
    case 'ask':
      return { ...state, ask: action.ask, leaveTo: action.ask === 'discard' ? (action.leaveTo ?? null) : null };
    case 'serverError':
      return { ...state, serverError: action.text };
  }
}

/** Whether leaving would lose anything: the form differs from an empty one (a generated ID and the default country aside), or a device is chosen. */
export function wizardDirty(state: WizardState, defaultCountry: string): boolean {
  const f = state.form;
  const compared = { ...f, patientCode: f.patientCode === state.generated ? '' : f.patientCode, generated: false, country: f.country === defaultCountry ? '' : f.country };
  return JSON.stringify(compared) !== JSON.stringify(emptyPatientForm) || state.device !== null;
}

/** The clinic's part of a new patient: who adds them and the recording window. */
export interface ClinicContext {
  physicianId: number | null;
  windowStart: string;
  windowEnd: string;
}

/** The new-patient call's body: the form, and the device over the chosen days in the patient's zone when `withDevice`. */
export function newPatientPayload(
  state: Pick<WizardState, 'form' | 'device' | 'range'>,
  context: { zone: string; clinic: ClinicContext; diseaseNames: ReadonlyMap<number, string>; screening: ScreeningState },
  withDevice: boolean,
  force = false,
): NewPatientPayload {
  const { form, range } = state;
  const device = withDevice ? state.device : null;
  const answers = device ? screeningAnswers(context.screening) : null;
  return {
    patient_code: form.patientCode.trim(),
    first_name: '',
    last_name: '',
    email_id: '',
    gender: form.gender as 'M' | 'F' | 'O',
    date_of_birth: `${form.yearOfBirth}-01-01`,
    at_risk: form.atRisk === '' ? null : Number(form.atRisk),
    diseaseIds: form.diseaseIds.join(','),
    height: measureText(form.height),
    weight: measureText(form.weight),
    bmi: bmi(measureValue(form.weight), measureValue(form.height)),
    vital_parameters: JSON.stringify(NEW_PATIENT_DEFAULTS),
    comment: escapeComment(form.comment),
    diseases: form.diseaseIds.map((id) => context.diseaseNames.get(id) ?? '').join(','),
    country: form.country,
    address: '',
    tags: '',
    device_allocation_date: device ? dayStartMs(range.allocation, context.zone) : null,
    device_deallocation_date: device ? dayStartMs(range.deallocation, context.zone) : null,
    device_master_id: device ? device.device_master_id : null,
    device_id: device ? device.device_id : null,
    // Left out when unknown: the server's schema takes a physician id or nothing (a null was refused).
    ...(context.clinic.physicianId !== null ? { docter_id: context.clinic.physicianId } : {}),
    window_start_time: context.clinic.windowStart,
    window_end_time: context.clinic.windowEnd,
    ...(force ? { force_deploy: true } : {}),
    ...(answers ? { screening_answers: answers } : {}),
  };
}
