import { describe, expect, it } from 'vitest';
import { initialProfileEdit, passwordProblem, profileBody, profileEditReducer } from '../../src/features/profile/profileEditState';
import type { Profile } from '../../src/features/profile/api';

const profile = {
  first_name: 'Clara',
  last_name: 'Meier',
  email_id: 'clara@example.test',
  secondary_emails: '',
  ternary_email: '',
  primary_phone_number: '+41 44 000 00 00',
  secondary_phone_number: '',
  other_phone_number: '',
  organisation_name: 'Klinik',
  country: 'Switzerland',
  date_of_birth: '1980-05-01',
  device_start_window: '19:00',
  device_stop_window: '07:00',
  rii_parameters: ['APN', 'TBT'],
  specialisation_ids: [1],
  gender: 'F',
  height: 170,
  weight: null,
  bmi: null,
} as unknown as Profile;

describe('the profile form', () => {
  it('asks for both passwords, at least 8 characters, confirmed; nothing when no change is asked', () => {
    expect(passwordProblem({ current: '', next: '', confirm: '' })).toBeNull();
    expect(passwordProblem({ current: 'old-password', next: '', confirm: '' })).toBe('both');
    expect(passwordProblem({ current: 'old-password', next: 'short', confirm: 'short' })).toBe('length');
    expect(passwordProblem({ current: 'old-password', next: 'long-enough', confirm: 'long-enougH' })).toBe('mismatch');
    expect(passwordProblem({ current: 'old-password', next: 'long-enough', confirm: 'long-enough' })).toBeNull();
  });

  it('starts the 1-s wait only when Save found nothing wrong, and a failed save ends it', () => {
    const s = initialProfileEdit(profile);
    expect(profileEditReducer(s, { type: 'checked', errors: { first_name: 'required' } as never, passwordError: null }).waiting).toBe(false);
    expect(profileEditReducer(s, { type: 'checked', errors: {}, passwordError: 'x' }).waiting).toBe(false);
    const waiting = profileEditReducer({ ...s, serverError: 'old' }, { type: 'checked', errors: {}, passwordError: null });
    expect(waiting).toMatchObject({ waiting: true, serverError: null });
    expect(profileEditReducer(waiting, { type: 'failed', passwordError: 'wrong' })).toMatchObject({ waiting: false, passwordError: 'wrong', serverError: null });
  });

  it('toggles a specialisation once, and a newly chosen image clears its error', () => {
    let s = profileEditReducer(initialProfileEdit(profile), { type: 'spec', id: 2, on: true });
    s = profileEditReducer(s, { type: 'spec', id: 2, on: true });
    expect(s.specs).toEqual([1, 2]);
    expect(profileEditReducer(s, { type: 'spec', id: 1, on: false }).specs).toEqual([2]);
    s = profileEditReducer(s, { type: 'imageError', error: 'imageType' as never });
    expect(s.errors.profile_image).toBe('imageType');
    const file = new File(['x'], 'me.png', { type: 'image/png' });
    expect(profileEditReducer(s, { type: 'image', image: { kind: 'new', file, preview: 'blob:x' } }).errors.profile_image).toBeUndefined();
  });

  it('sends the trimmed form, the fields kept as they are, the country code and a password change only when asked', () => {
    let s = profileEditReducer(initialProfileEdit(profile), { type: 'field', key: 'first_name', value: '  Clara ' });
    let body = profileBody(s, profile, 'CH');
    expect(body.get('first_name')).toBe('Clara');
    expect(body.get('country')).toBe('CH');
    expect(body.get('height')).toBe('170');
    expect(body.get('weight')).toBe('');
    expect(body.get('rii_parameters')).toBe('["APN","TBT"]');
    expect(body.get('removed_profile_image')).toBe('0');
    expect(body.has('new_password')).toBe(false);
    s = profileEditReducer(s, { type: 'password', key: 'current', value: 'old-password' });
    s = profileEditReducer(s, { type: 'password', key: 'next', value: 'new-password' });
    s = profileEditReducer(s, { type: 'image', image: { kind: 'remove' } });
    body = profileBody(s, profile, '');
    expect([body.get('current_password'), body.get('new_password'), body.get('removed_profile_image'), body.get('country')]).toEqual(['old-password', 'new-password', '1', 'Switzerland']);
  });
});
