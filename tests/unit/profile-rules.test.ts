import i18next from 'i18next';
import { beforeAll, describe, expect, it } from 'vitest';
import { actionForError, toApiError } from '../../src/api/errors';
import { errorText } from '../../src/api/messages';
import en from '../../locales/en-US.json';
import de from '../../locales/de-AT.json';
import { checkImageFile, chooseDivisor, formatWindowTime, lockedFields, parseWindowTime, sniffImage, validateProfile, type ProfileForm } from '../../contract/profile-rules';

const FORM: ProfileForm = {
  first_name: 'Clara', last_name: 'Meier', email_id: 'clara@x.test', secondary_emails: '', ternary_email: '', phone: '0441234567', phone2: '', phone3: '',
  organisation_name: '', country: 'Switzerland', date_of_birth: '1980-02-03', device_start_window: '07:00 PM', device_stop_window: '11:00 AM', rii_parameters: ['APN', 'TST'],
};
const PHYSICIAN = { isSecondaryUser: false, isTernaryUser: false };

describe('profile rules (spec 1 §5)', () => {
  it('accepts a complete form and names each problem by field', () => {
    expect(validateProfile(FORM, PHYSICIAN, { today: '2026-11-23' })).toEqual({});
    const errors = validateProfile({ ...FORM, first_name: 'Cl4ra', phone: '', phone2: 'abc', secondary_emails: 'CLARA@x.test', date_of_birth: '2027-01-01' }, PHYSICIAN, { today: '2026-11-23' });
    expect(errors).toEqual({ first_name: 'firstNameChars', phone: 'phoneRequired', phone2: 'phone2Invalid', secondary_emails: 'primarySecondarySame', date_of_birth: 'birthFuture' });
    expect(validateProfile({ ...FORM, date_of_birth: '1925-12-31' }, PHYSICIAN, { today: '2026-11-23' })).toEqual({ date_of_birth: 'birthTooOld' });
    expect(validateProfile({ ...FORM, date_of_birth: '1926-01-01' }, PHYSICIAN, { today: '2026-11-23' })).toEqual({});
    expect(validateProfile({ ...FORM, date_of_birth: '2001-02-29' }, PHYSICIAN, { today: '2026-11-23' })).toEqual({ date_of_birth: 'birthInvalid' });
  });

  it('does not hold a secondary user to fields they cannot change, but to their own e-mail', () => {
    const role = { isSecondaryUser: true, isTernaryUser: false };
    expect([...lockedFields(role)]).toContain('ternary_email');
    expect([...lockedFields({ isSecondaryUser: false, isTernaryUser: true })]).toContain('secondary_emails');
    expect(validateProfile({ ...FORM, phone: '', first_name: '' }, role, { today: '2026-11-23' })).toEqual({ secondary_emails: 'secondaryEmpty' });
  });

  it('keeps one RII divisor, converts hh:mm A, and checks images by name, size and first bytes', () => {
    expect(chooseDivisor(['APN', 'TST', 'MOV'], 'GSD')).toEqual(['APN', 'MOV', 'GSD']);
    expect(parseWindowTime('07:30 PM')).toBe('19:30:00');
    expect(parseWindowTime('12:05 am')).toBe('00:05:00');
    expect(parseWindowTime('13:00 PM')).toBeNull();
    expect(formatWindowTime('00:05:00')).toBe('12:05 AM');
    expect(formatWindowTime('19:00:00')).toBe('07:00 PM');
    expect(checkImageFile('me.gif', 10)).toBe('imageFormat');
    expect(checkImageFile('me.JPEG', 5_000_001)).toBe('imageSize');
    expect(checkImageFile('me.png', 5_000_000)).toBeUndefined();
    expect(sniffImage(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('image/jpeg');
    expect(sniffImage(new TextEncoder().encode('<svg/>...'))).toBeNull();
  });
});

describe('server validation in the user’s words (issue 16 point 4)', () => {
  beforeAll(async () => {
    await i18next.init({ lng: 'en-US', fallbackLng: 'en-US', resources: { 'en-US': { translation: en }, 'de-AT': { translation: de } }, interpolation: { escapeValue: false }, showSupportNotice: false });
  });
  const t = (lng: string) => i18next.getFixedT(lng);
  const schemaError = (field: string, rule: string, message: string) => toApiError(400, { code: 'validation_failed', message, data: { field, rule } }, 'Bad Request');

  it('never shows the raw schema message for a field of the account forms', () => {
    const digit = schemaError('first_name', 'pattern', 'body/first_name must match pattern "^[\\p{L}][\\p{L} .\'-]*$"');
    expect(errorText(t('en-US'), digit)).toBe('First name accepts characters only');
    expect(errorText(t('de-AT'), digit)).toBe('Der Vorname darf nur Buchstaben enthalten');
    const cases: Array<[string, string]> = [
      ['last_name', 'pattern'], ['first_name', 'maxLength'], ['email', 'format'], ['password', 'minLength'], ['otp', 'pattern'], ['country', 'required'],
      ['organisation_name', 'maxLength'], ['reset_token', 'minLength'], ['phone', 'phoneInvalid'], ['profile_image', 'imageSize'], ['something_else', 'type'],
    ];
    for (const [field, rule] of cases) {
      const text = errorText(t('en-US'), schemaError(field, rule, `body/${field} must NOT be whatever`));
      expect(text, `${field} ${rule}`).not.toMatch(/body\/|must NOT|must match/);
      expect(text.length).toBeGreaterThan(5);
    }
    expect(errorText(t('en-US'), schemaError('organisation_name', 'maxLength', 'x'))).toBe('Organisation is too long.');
    expect(errorText(t('en-US'), schemaError('country', 'required', 'x'))).toBe('Please fill in Country.');
    // A field no form labels is named by its path, with its bound, in the user's words: never the server's English sentence.
    const unlabelled = toApiError(400, { code: 'validation_failed', message: 'body/config/other must be <= 6', data: { field: 'config', rule: 'maximum', path: '/config/other', limit: 6 } }, 'Bad Request');
    expect(errorText(t('en-US'), unlabelled)).toBe('config/other must be at most 6.');
    expect(errorText(t('de-AT'), unlabelled)).toBe('config/other darf höchstens 6 sein.');
    expect(errorText(t('en-US'), schemaError('config', 'maximum', 'body/config/radar/range_m must be <= 6'))).toBe('config is not valid.');
    expect(errorText(t('en-US'), schemaError('something_else', 'type', 'body/something_else must NOT be whatever'))).toBe('something_else is not valid.');
  });

  it("names Device Config's nested values by their labels, with the bound in the user's number format", () => {
    const nested = (rule: string, path: string, limit?: number, message = 'body/config/x must be whatever') =>
      toApiError(400, { code: 'validation_failed', message, data: { field: 'config', rule, path, ...(limit === undefined ? {} : { limit }) } }, 'Bad Request');
    expect(errorText(t('en-US'), nested('maximum', '/config/radar/range_m', 6))).toBe('Range (m) must be at most 6.');
    expect(errorText(t('de-AT'), nested('maximum', '/config/radar/range_m', 6))).toBe('Reichweite (m) darf höchstens 6 sein.');
    expect(errorText(t('en-US'), nested('minimum', '/config/radar/range_m', 0.3))).toBe('Range (m) must be at least 0.3.');
    expect(errorText(t('de-AT'), nested('minimum', '/config/radar/range_m', 0.3))).toBe('Reichweite (m) muss mindestens 0,3 sein.');
    expect(errorText(t('en-US'), nested('type', '/config/radar/sensitivity'))).toBe('Sensitivity (1–10) is not valid.');
    expect(errorText(t('en-US'), nested('pattern', '/config/recording_window/start'))).toBe('Start is not valid.');
    // The rules the schema cannot state (an ApiError with the path in data): their own sentences.
    const rule = (r: string, path: string) => toApiError(400, { code: 'invalid_config', message: 'x', data: { field: 'config', rule: r, path } }, 'Bad Request');
    expect(errorText(t('en-US'), rule('timezone', '/config/recording_window/timezone'))).toBe('The time zone is not one we know (e.g. Europe/Zurich).');
    expect(errorText(t('de-AT'), rule('empty_window', '/config/recording_window/stop'))).toMatch(/Aufzeichnungsfenster wäre leer/);
  });

  it('translates the account codes of sign-in', () => {
    expect(errorText(t('de-AT'), toApiError(403, { code: 'account_refused', message: 'x' }, 'Forbidden'))).toMatch(/nicht genehmigt/);
    // The admin's reason, when one was given, follows in the user's language.
    const withReason = toApiError(403, { code: 'account_refused', message: 'x', data: { reason: 'Kein Arztausweis' } }, 'Forbidden');
    expect(errorText(t('de-AT'), withReason)).toMatch(/nicht genehmigt.* Begründung: Kein Arztausweis$/);
    expect(errorText(t('en-US'), withReason)).toMatch(/not approved.* Reason: Kein Arztausweis$/);
  });

  it("words the profile's 401 'Repeated secondary' as a field error, not a sign-out", () => {
    const repeated = toApiError(401, { code: 'repeated_secondary', message: 'Repeated secondary', data: { field: 'secondary_emails', rule: 'secondaryRepeated' } }, 'Unauthorized');
    expect(repeated).toMatchObject({ field: 'secondary_emails', rule: 'secondaryRepeated' });
    expect(errorText(t('en-US'), repeated)).toBe('This e-mail address belongs to another account.');
    expect(actionForError(repeated, { onSignInPage: false })).toBe('pass');
  });
});
