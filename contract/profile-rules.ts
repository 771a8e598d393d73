/**
 * The profile popup's validations (spec 1 §5 "Profile edit", §9 limits), shared by the
 * browser (before Save) and the server (POST /update-user-info), so both say the same.
 * Pure: no DOM, no node. Each problem is a code; PROFILE_MESSAGES holds the spec's English
 * wording (the server's answer), the client translates `profile.errors.<code>`.
 */

export const PROFILE_LIMITS = {
  name: 30,
  phone: 25,
  organisation: 80,
  email: 254,
  imageBytes: 5_000_000,
  saveDelayMs: 1000,
  birthYears: 100,
} as const;

/** RII categories and divisors (spec 1 §9); only one divisor at a time. */
export const RII_CATEGORIES = ['APN', 'CAN', 'OBS', 'IRR', 'AHI', 'MOV'] as const;
export const RII_DIVISORS = ['TST', 'TBT', 'TBR', 'GSD'] as const;
/** The initial profile list (spec 1 §9). */
export const DEFAULT_RII = ['APN', 'AHI', 'MOV', 'TST'];

export const PROFILE_MESSAGES = {
  firstNameRequired: 'Please enter First Name',
  firstNameChars: 'First name accepts characters only',
  firstNameLong: 'First name holds at most 30 characters',
  lastNameRequired: 'Please enter Last Name',
  lastNameChars: 'Last Name accepts characters only',
  lastNameLong: 'Last name holds at most 30 characters',
  emailInvalid: 'Please provide a valid email address',
  secondaryInvalid: 'Invalid Characters',
  tertiaryInvalid: 'Invalid Characters',
  primarySecondarySame: 'Primary email and secondary email cannot be same',
  primaryTertiarySame: 'Primary email and Tertiary email cannot be same',
  secondaryTertiarySame: 'Secondary email and Tertiary email cannot be same',
  /** The server's check alone (another account's address): answered 401 'Repeated secondary' (spec 1 §8). */
  secondaryRepeated: 'This e-mail address belongs to another account',
  tertiaryRepeated: 'This e-mail address belongs to another account',
  secondaryEmpty: 'Secondary email cannot be empty',
  tertiaryEmpty: 'Tertiary email cannot be empty',
  phoneRequired: 'Please enter primary phone number',
  phoneInvalid: 'Please provide valid primary phone number',
  phone2Invalid: 'Please provide valid secondary phone number',
  phone3Invalid: 'Please provide valid additional phone number',
  organisationLong: 'Organisation name holds at most 80 characters',
  countryUnknown: 'Country not found',
  birthInvalid: 'Please enter a valid date of birth',
  birthFuture: 'Date of birth cannot be in the future',
  birthTooOld: 'Date of birth cannot be more than 100 years ago',
  windowInvalid: 'Device window times must be given as hh:mm AM or PM',
  riiUnknown: 'Unknown RII parameter',
  riiOneDivisor: 'Only one RII divisor (GSD, TST, TBT or TBR) may be selected',
  imageFormat: 'Please select valid profile image format (jpg or jpeg or png format allowed)',
  imageSize: 'Profile image is too large, please pick a file less that 5 MB',
} as const;

export type ProfileError = keyof typeof PROFILE_MESSAGES;

/** The editable fields as the form holds them (strings, as a multipart form sends them). */
export interface ProfileForm {
  first_name: string;
  last_name: string;
  email_id: string;
  secondary_emails: string;
  ternary_email: string;
  phone: string;
  phone2: string;
  phone3: string;
  organisation_name: string;
  country: string;
  date_of_birth: string;
  device_start_window: string;
  device_stop_window: string;
  rii_parameters: string[];
}

export type ProfileField = keyof ProfileForm | 'profile_image';
export type ProfileErrors = Partial<Record<ProfileField, ProfileError>>;

/** Fields a secondary or tertiary user cannot change (spec 1 §6). */
export function lockedFields(role: { isSecondaryUser: boolean; isTernaryUser: boolean }): ReadonlySet<keyof ProfileForm> {
  if (!role.isSecondaryUser && !role.isTernaryUser) return new Set();
  const common: (keyof ProfileForm)[] = ['first_name', 'last_name', 'organisation_name', 'country', 'phone', 'phone2', 'phone3', 'date_of_birth', 'rii_parameters'];
  return new Set([...common, role.isSecondaryUser ? 'ternary_email' : 'secondary_emails']);
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const NAME = /^[\p{L}][\p{L} .'-]*$/u;
/** Digits, with an optional leading + and spaces, dashes or brackets between; none of $&,;=?@#|'<>.^*%! or letters. */
const PHONE = /^\+?[0-9][0-9 ()-]*$/;
const HHMM_A = /^(0?[1-9]|1[0-2]):([0-5][0-9])\s?([AaPp][Mm])$/;

const isProfileEmail = (v: string) => v.length <= PROFILE_LIMITS.email && EMAIL.test(v);

/** "07:30 PM" → "19:30:00"; null when not hh:mm A. */
export function parseWindowTime(v: string): string | null {
  const m = HHMM_A.exec(v.trim());
  if (!m) return null;
  let h = Number(m[1]) % 12;
  if (m[3].toUpperCase() === 'PM') h += 12;
  return `${String(h).padStart(2, '0')}:${m[2]}:00`;
}

/** "19:30:00" → "07:30 PM" (the form's hh:mm A). */
export function formatWindowTime(v: string): string {
  const m = /^(\d{1,2}):(\d{2})/.exec(v);
  if (!m) return v;
  const h = Number(m[1]);
  return `${String(h % 12 === 0 ? 12 : h % 12).padStart(2, '0')}:${m[2]} ${h < 12 ? 'AM' : 'PM'}`;
}

/** One divisor at a time: choosing one drops the earlier (spec 1 §5). */
export function chooseDivisor(list: string[], divisor: string): string[] {
  return [...list.filter((c) => !(RII_DIVISORS as readonly string[]).includes(c)), divisor];
}

function checkName(v: string, required: ProfileError, chars: ProfileError, long: ProfileError): ProfileError | undefined {
  const s = v.trim();
  if (!s) return required;
  if (s.length > PROFILE_LIMITS.name) return long;
  if (!NAME.test(s)) return chars;
  return undefined;
}

function checkPhone(v: string, invalid: ProfileError): ProfileError | undefined {
  const s = v.trim();
  if (!s) return undefined;
  return s.length <= PROFILE_LIMITS.phone && PHONE.test(s) ? undefined : invalid;
}

/**
 * Every problem of a profile form, by field; empty when it may be saved. Fields a
 * secondary or tertiary user cannot change are not checked (they are not theirs to fix).
 */
export function validateProfile(
  form: ProfileForm,
  role: { isSecondaryUser: boolean; isTernaryUser: boolean },
  opts: { today?: string; knownCountry?: (c: string) => boolean } = {},
): ProfileErrors {
  const locked = lockedFields(role);
  const errors: ProfileErrors = {};
  const put = (field: ProfileField, e: ProfileError | undefined) => {
    if (e && !errors[field] && !locked.has(field as keyof ProfileForm)) errors[field] = e;
  };
  put('first_name', checkName(form.first_name, 'firstNameRequired', 'firstNameChars', 'firstNameLong'));
  put('last_name', checkName(form.last_name, 'lastNameRequired', 'lastNameChars', 'lastNameLong'));
  if (!isProfileEmail(form.email_id.trim())) errors.email_id = 'emailInvalid';

  const primary = form.email_id.trim().toLowerCase();
  const secondary = form.secondary_emails.trim().toLowerCase();
  const tertiary = form.ternary_email.trim().toLowerCase();
  if (role.isSecondaryUser && !secondary) put('secondary_emails', 'secondaryEmpty');
  if (secondary && !isProfileEmail(secondary)) put('secondary_emails', 'secondaryInvalid');
  if (secondary && secondary === primary) put('secondary_emails', 'primarySecondarySame');
  if (role.isTernaryUser && !tertiary) put('ternary_email', 'tertiaryEmpty');
  if (tertiary && !isProfileEmail(tertiary)) put('ternary_email', 'tertiaryInvalid');
  if (tertiary && tertiary === primary) put('ternary_email', 'primaryTertiarySame');
  if (tertiary && tertiary === secondary) put('ternary_email', 'secondaryTertiarySame');

  if (!form.phone.trim()) put('phone', 'phoneRequired');
  put('phone', checkPhone(form.phone, 'phoneInvalid'));
  put('phone2', checkPhone(form.phone2, 'phone2Invalid'));
  put('phone3', checkPhone(form.phone3, 'phone3Invalid'));

  if (form.organisation_name.trim().length > PROFILE_LIMITS.organisation) put('organisation_name', 'organisationLong');
  if (form.country && opts.knownCountry && !opts.knownCountry(form.country)) put('country', 'countryUnknown');

  if (form.date_of_birth) {
    const today = opts.today ?? new Date().toISOString().slice(0, 10);
    const parsed = /^\d{4}-\d{2}-\d{2}$/.test(form.date_of_birth) ? new Date(`${form.date_of_birth}T00:00:00Z`) : null;
    // A real calendar day (no 31 February): it reads back the same.
    const ok = parsed !== null && !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === form.date_of_birth;
    if (!ok) put('date_of_birth', 'birthInvalid');
    else if (form.date_of_birth > today) put('date_of_birth', 'birthFuture');
    else if (Number(form.date_of_birth.slice(0, 4)) < Number(today.slice(0, 4)) - PROFILE_LIMITS.birthYears) put('date_of_birth', 'birthTooOld');
  }

  if (parseWindowTime(form.device_start_window) === null) put('device_start_window', 'windowInvalid');
  if (parseWindowTime(form.device_stop_window) === null) put('device_stop_window', 'windowInvalid');

  const known = new Set<string>([...RII_CATEGORIES, ...RII_DIVISORS]);
  if (form.rii_parameters.some((c) => !known.has(c))) put('rii_parameters', 'riiUnknown');
  else if (form.rii_parameters.filter((c) => (RII_DIVISORS as readonly string[]).includes(c)).length > 1) put('rii_parameters', 'riiOneDivisor');
  return errors;
}

/** Client-side check of a chosen image (name and size); the server also reads its first bytes. */
export function checkImageFile(name: string, size: number): ProfileError | undefined {
  if (!/\.(jpe?g|png)$/i.test(name)) return 'imageFormat';
  if (size > PROFILE_LIMITS.imageBytes) return 'imageSize';
  return undefined;
}

/** The image type its first bytes say (JPEG FF D8 FF, PNG's 8-byte signature), or null. */
export function sniffImage(bytes: Uint8Array): 'image/jpeg' | 'image/png' | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return 'image/jpeg';
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return 'image/png';
  return null;
}
