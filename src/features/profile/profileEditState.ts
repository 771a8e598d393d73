// The profile form's state (spec 1 §2, §4, §5) as one reducer, and the body its Save sends.
import type { ProfileErrors, ProfileForm } from '../../../contract/profile-rules';
import type { Profile } from './api';

type ImageChoice = { kind: 'keep' } | { kind: 'new'; file: File; preview: string } | { kind: 'remove' };

export interface Passwords {
  current: string;
  next: string;
  confirm: string;
}

export interface ProfileEditState {
  form: ProfileForm;
  specs: number[];
  image: ImageChoice;
  errors: ProfileErrors;
  passwords: Passwords;
  passwordError: string | null;
  serverError: string | null;
  /** The spec's 1 s wait before the save is sent (spec 1 §4, §9): saving already. */
  waiting: boolean;
}

export type ProfileEditAction =
  | { type: 'field'; key: keyof ProfileForm; value: ProfileForm[keyof ProfileForm] }
  | { type: 'spec'; id: number; on: boolean }
  | { type: 'image'; image: ImageChoice }
  | { type: 'imageError'; error: ProfileErrors['profile_image'] }
  | { type: 'password'; key: keyof Passwords; value: string }
  | { type: 'checked'; errors: ProfileErrors; passwordError: string | null }
  | { type: 'failed'; errors?: ProfileErrors; serverError?: string | null; passwordError?: string | null };

export const formOf = (p: Profile): ProfileForm => ({
  first_name: p.first_name,
  last_name: p.last_name,
  email_id: p.email_id,
  secondary_emails: p.secondary_emails,
  ternary_email: p.ternary_email,
  phone: p.primary_phone_number,
  phone2: p.secondary_phone_number,
  phone3: p.other_phone_number,
  organisation_name: p.organisation_name,
  country: p.country,
  date_of_birth: p.date_of_birth,
  device_start_window: p.device_start_window,
  device_stop_window: p.device_stop_window,
  rii_parameters: p.rii_parameters,
});

export function initialProfileEdit(p: Profile): ProfileEditState {
  return { form: formOf(p), specs: p.specialisation_ids, image: { kind: 'keep' }, errors: {}, passwords: { current: '', next: '', confirm: '' }, passwordError: null, serverError: null, waiting: false };
}

export function profileEditReducer(state: ProfileEditState, action: ProfileEditAction): ProfileEditState {
  switch (action.type) {
    case 'field':
      return { ...state, form: { ...state.form, [action.key]: action.value } };
    case 'spec':
      return { ...state, specs: action.on ? [...state.specs.filter((x) => x !== action.id), action.id] : state.specs.filter((x) => x !== action.id) };
    case 'image':
      return { ...state, image: action.image, errors: action.image.kind === 'new' ? { ...state.errors, profile_image: undefined } : state.errors };
    case 'imageError':
      return { ...state, errors: { ...state.errors, profile_image: action.error } };
    case 'password':
      return { ...state, passwords: { ...state.passwords, [action.key]: action.value } };
    // Save pressed: the errors found; with none the 1-s wait starts.
    case 'checked': {
      const clean = !Object.values(action.errors).some(Boolean) && !action.passwordError;
      return { ...state, errors: action.errors, passwordError: action.passwordError, serverError: null, waiting: clean };
    }
    case 'failed':
      return { ...state, errors: action.errors ?? state.errors, serverError: action.serverError ?? null, passwordError: action.passwordError ?? null, waiting: false };
  }
}

/** What is wrong with the password change: both old and new needed, the new too short, or not confirmed; null when none is asked or all is right. */
export function passwordProblem(p: Passwords): 'both' | 'length' | 'mismatch' | null {
  if (!p.next && !p.current) return null;
  if (!p.current || !p.next) return 'both';
  if (p.next.length < 8) return 'length';
  return p.next !== p.confirm ? 'mismatch' : null;
}

/** The update-user-info body (multipart): the form, the fields the profile keeps as they are, the image choice and a password change. */
export function profileBody(state: ProfileEditState, p: Profile, countryCode: string): FormData {
  const { form, image, passwords } = state;
  const body = new FormData();
  const fields: [string, string][] = [
    ['first_name', form.first_name.trim()],
    ['last_name', form.last_name.trim()],
    ['email_id', p.email_id],
    ['secondary_emails', form.secondary_emails.trim()],
    ['ternary_email', form.ternary_email.trim()],
    ['device_start_window', form.device_start_window.trim()],
    ['device_stop_window', form.device_stop_window.trim()],
    ['phone', form.phone.trim()],
    ['phone2', form.phone2.trim()],
    ['phone3', form.phone3.trim()],
    ['date_of_birth', form.date_of_birth],
    ['gender', p.gender],
    ['height', p.height === null ? '' : String(p.height)],
    ['weight', p.weight === null ? '' : String(p.weight)],
    ['bmi', p.bmi === null ? '' : String(p.bmi)],
    ['organisation_name', form.organisation_name.trim()],
    ['country', countryCode || form.country],
    ['specialisation_ids', state.specs.join(',')],
    ['rii_parameters', JSON.stringify(form.rii_parameters)],
    ['removed_profile_image', image.kind === 'remove' ? '1' : '0'],
  ];
  for (const [k, v] of fields) body.append(k, v);
  if (image.kind === 'new') body.append('uploaded_profile_image', image.file, image.file.name);
  if (passwords.next) {
    body.append('current_password', passwords.current);
    body.append('new_password', passwords.next);
  }
  return body;
}
