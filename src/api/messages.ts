import type { TFunction } from 'i18next';
import { PROFILE_MESSAGES, type ProfileError } from '../../server/auth/profile-rules';
import { ApiError, NETWORK_ERROR_CODE } from './errors';

/** Codes the UI words itself; anything else shows the server's message as sent. */
const TRANSLATED_CODES = new Set(['invalid_login', 'invalid_otp', 'account_pending', 'account_refused', 'account_disabled', 'invalid_credentials', 'invalid_reset_token', 'rate_limited', 'engine_busy', 'password_mismatch', 'repeated_secondary']);

/** A save based on a version someone else changed since (409): said in the user's words. */
const STALE_SAVE_CODES = new Set(['category_changed', 'patient_changed', 'annotation_changed']);

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
  // A field no form labels: the server's sentence names it and its bound
  // ("config/other must be <= 6"); a pattern or negated-schema sentence
  // says nothing a user can act on, so it becomes "<field> is not valid.".
  if (!label) {
    const sentence = error.message.replace(/^(body|querystring|params)\//, '');
    if (!/must (NOT|match)/.test(sentence) && sentence !== '') return sentence;
    return error.field ? t('validation.server.invalid', { field: error.field }) : null;
  }
  // Names: the spec's own sentence (spec 1 §5).
  if (error.rule === 'pattern' && error.field === 'first_name') return t('profile.errors.firstNameChars');
  if (error.rule === 'pattern' && error.field === 'last_name') return t('profile.errors.lastNameChars');
  if (error.field === 'email' || error.field === 'email_id') return t('validation.email');
  if (error.field === 'otp') return t('validation.otp', { length: 6 });
  const kind = RULES[error.rule] ?? 'invalid';
  return t(`validation.server.${kind}`, { field: t(label) });
}

/** The text to show for a failed call, translated where the code is known. */
export function errorText(t: TFunction, error: unknown): string {
  if (error instanceof ApiError) {
    if (error.code === NETWORK_ERROR_CODE) return t('errors.network');
    if (error.code === 'account_refused' && error.reason) return `${t('errors.codes.account_refused')} ${t('errors.refusedReason', { reason: error.reason })}`;
    if (error.status === 409 && STALE_SAVE_CODES.has(error.code)) return t(`staleSave.${error.code as 'category_changed'}`);
    if (TRANSLATED_CODES.has(error.code)) {
      return t(`errors.codes.${error.code as 'invalid_login'}`);
    }
    if (error.status === 400 && (error.field || error.rule)) {
      const text = validationText(t, error);
      if (text) return text;
    }
    // Server faults carry nothing a user can act on; the spec gives their wording.
    if (error.status >= 500) return t('errors.server');
    return error.message || t('errors.generic');
  }
  return t('errors.generic');
}
