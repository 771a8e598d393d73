import i18next, { type TFunction } from 'i18next';
import { PROFILE_MESSAGES, type ProfileError } from '../../contract/profile-rules';
import { isErrorCode, type ErrorCode } from '../../contract/errors';
import { browserZone, formatDateTime, formatIsoDay } from '../format';
import { ApiError, NETWORK_ERROR_CODE } from './errors';

/** Fields the account forms (signup, sign-in, forgot password, profile) send, with their label keys. */
const FIELD_LABELS = {
  first_name: 'fields.firstName',
  last_name: 'fields.lastName',
  email: 'fields.email',
  email_id: 'fields.email',
  password: 'fields.password',
  new_password: 'fields.newPassword',
  current_password: 'fields.currentPassword',
  otp: 'fields.otp',
  country: 'fields.country',
  organisation_name: 'fields.organisation',
  reset_token: 'fields.resetToken',
  secondary_emails: 'fields.secondaryEmail',
  ternary_email: 'fields.tertiaryEmail',
  phone: 'fields.phone',
  phone2: 'fields.phone2',
  phone3: 'fields.phone3',
  date_of_birth: 'fields.birthDate',
  profile_image: 'fields.image',
  rii_parameters: 'fields.rii',
  device_start_window: 'fields.windowStart',
  device_stop_window: 'fields.windowStop',
  specialisation_ids: 'fields.specialisations',
  reason: 'fields.reason',
} as const;

/** Nested values a form sends (Device Config's configuration), by their path in the body, with their label keys. */
const PATH_LABELS = {
  '/config/radar/range_m': 'live.config.range',
  '/config/radar/sensitivity': 'live.config.sensitivity',
  '/config/recording_window/start': 'live.config.start',
  '/config/recording_window/stop': 'live.config.stop',
  '/config/recording_window/timezone': 'live.config.timezone',
} as const;

/** Bounds a schema states, as the side of the bound the value broke. */
const BOUNDS: Record<string, 'max' | 'min'> = { maximum: 'max', exclusiveMaximum: 'max', minimum: 'min', exclusiveMinimum: 'min' };

/** Schema keywords the server's validation names, as a kind of problem the user can fix. */
const RULES: Record<string, 'required' | 'pattern' | 'tooLong' | 'tooShort' | 'format' | 'invalid'> = {
  required: 'required',
  pattern: 'pattern',
  maxLength: 'tooLong',
  minLength: 'tooShort',
  format: 'format',
};

/**
 * The friendly words for a refused field (issue 16 point 4): a profile rule in the spec's
 * wording, a schema rule ("body/first_name must match pattern …") as "<field> …" in the
 * user's language. Null when the field is unknown (then the generic text applies).
 */
function validationText(t: TFunction, error: ApiError): string | null {
  if (error.rule && error.rule in PROFILE_MESSAGES) return t(`profile.errors.${error.rule as ProfileError}`);
  const nested = PATH_LABELS[error.path as keyof typeof PATH_LABELS];
  if (nested) {
    const bound = BOUNDS[error.rule];
    if (bound && error.limit !== null) return t(`validation.server.${bound}`, { field: t(nested), limit: error.limit });
    if (error.rule === 'timezone') return t('live.config.errors.timezone');
    if (error.rule === 'empty_window') return t('live.config.errors.emptyWindow');
    return t('validation.server.invalid', { field: t(nested) });
  }
  const label = FIELD_LABELS[error.field as keyof typeof FIELD_LABELS];
  // A field no form labels: named by its path, with the bound it broke, in the user's words
  // (never the server's English sentence).
  if (!label) {
    if (!error.field) return null;
    const name = error.path ? error.path.replace(/^\//, '') : error.field;
    const bound = BOUNDS[error.rule];
    if (bound && error.limit !== null) return t(`validation.server.${bound}`, { field: name, limit: error.limit });
    return t('validation.server.invalid', { field: name });
  }
  // Names: the spec's own sentence (spec 1 §5).
  if (error.rule === 'pattern' && error.field === 'first_name') return t('profile.errors.firstNameChars');
  if (error.rule === 'pattern' && error.field === 'last_name') return t('profile.errors.lastNameChars');
  if (error.field === 'email' || error.field === 'email_id') return t('validation.email');
  if (error.field === 'otp') return t('validation.otp', { length: 6 });
  const kind = RULES[error.rule] ?? 'invalid';
  return t(`validation.server.${kind}`, { field: t(label) });
}

const ISO_DAY = /^\d{4}-\d{2}-\d{2}$/;
const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/;

/**
 * An answer's params as the user reads them: days and instants in their language and zone,
 * `thing` (what was not found) as a word, a nameless `who` as "someone else".
 */
function localParams(t: TFunction, params: Readonly<Record<string, string | number>>): Record<string, string | number> {
  // A fixed t (getFixedT) carries its own language; the app's t speaks the current one.
  const language = (t as { lng?: string }).lng || i18next.language || 'en-US';
  const zone = browserZone();
  const out: Record<string, string | number> = {};
  for (const [name, value] of Object.entries(params)) {
    if (name === 'thing') out[name] = t(`errors.things.${value as 'patient'}`);
    else if (name === 'who' && value === '') out[name] = t('errors.someoneElse');
    else if (typeof value === 'string' && ISO_DAY.test(value)) out[name] = formatIsoDay(value, language);
    // A list of days ("2025-01-10, 2025-10-25"): each in the user's language.
    else if (typeof value === 'string' && value.includes(', ') && value.split(', ').every((d) => ISO_DAY.test(d))) out[name] = value.split(', ').map((d) => formatIsoDay(d, language)).join(', ');
    else if (typeof value === 'string' && ISO_INSTANT.test(value) && !Number.isNaN(Date.parse(value))) out[name] = formatDateTime(Date.parse(value), zone, language);
    else out[name] = value;
  }
  return out;
}

/** The catalogue's words for an error code, with the answer's params (contract/errors.ts lists both). */
function codeText(t: TFunction, code: ErrorCode, params: Readonly<Record<string, string | number>> = {}): string {
  return t(`errors.codes.${code as 'invalid_login'}`, localParams(t, params));
}

/**
 * The text to show for a failed call: a refused field in the form's words, else the code's
 * catalogue message in the user's language. The server's English message shows only for a
 * code the catalogue does not know (an older or newer server).
 */
export function errorText(t: TFunction, error: unknown): string {
  if (!(error instanceof ApiError)) return t('errors.generic');
  if (error.code === NETWORK_ERROR_CODE) return t('errors.network');
  if (error.code === 'account_refused' && error.reason) return `${t('errors.codes.account_refused')} ${t('errors.refusedReason', { reason: error.reason })}`;
  if (error.status === 400 && (error.field || error.rule)) {
    const text = validationText(t, error);
    if (text) return text;
  }
  if (isErrorCode(error.code)) return codeText(t, error.code, error.params);
  // Server faults carry nothing a user can act on; the spec gives their wording.
  if (error.status >= 500) return t('errors.server');
  return error.message || t('errors.generic');
}
