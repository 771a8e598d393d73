import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DateTime } from 'luxon';
import { issueToken } from '../../server/auth/tokens';
import { createUser, DEMO_ACCOUNTS, DEMO_PASSWORD, signIn, startTestServer, type TestServer } from './helpers';
import { multipartBody } from './multipart';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

/** A real 1×1 PNG (signature, IHDR, IDAT, IEND). */
const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000 1f15c4890000000d49444154789c6360f8cfc0f01f0005000201a1b4a0b20000000049454e44ae426082'.replace(/ /g, ''), 'hex');
const JPEG_HEAD = Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]);

const tokenOf = (userId: number) => issueToken(server.db, userId, 'session');
const idOf = async (email: string) => (await server.db.query<{ id: number }>('select id from users where email = $1', [email]))[0].id;

function update(token: string, fields: Record<string, string>, file?: { name: string; bytes: Uint8Array; field?: string }) {
  const { payload, contentType } = multipartBody(fields, file ? [{ field: file.field ?? 'uploaded_profile_image', name: file.name, bytes: file.bytes }] : []);
  return server.app.inject({ method: 'POST', url: '/api/v1/update-user-info', payload, headers: { authorization: `Bearer ${token}`, 'content-type': contentType } });
}
const avatar = (token: string, name: string) => server.app.inject({ method: 'GET', url: `/api/v1/get-avatar/${name}`, headers: { authorization: `Bearer ${token}` } });

const FULL = {
  first_name: 'Clara',
  last_name: 'Meier-Huber',
  email_id: 'someone-else@demo.nocturne.test',
  secondary_emails: 'clara.second@demo.nocturne.test',
  ternary_email: '',
  device_start_window: '08:30 PM',
  device_stop_window: '06:15 AM',
  phone: '+41 44 555 01 00',
  phone2: '0791234567',
  phone3: '',
  date_of_birth: '1975-04-02',
  gender: 'F',
  height: '168',
  weight: '60',
  bmi: '21.26',
  organisation_name: 'Klinik am See',
  country: 'Austria',
  specialisation_ids: '1,2',
  removed_profile_image: '0',
  rii_parameters: JSON.stringify(['APN', 'OBS', 'GSD']),
};

describe('profile', () => {
  it('saves every field of the multipart update, keeps the primary e-mail, and serves the image practice-scoped', async () => {
    const physician = await idOf(DEMO_ACCOUNTS.physician);
    const token = await tokenOf(physician);
    const res = await update(token, FULL, { name: 'me.png', bytes: PNG });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe('No password update but User Details updated successfully');
    const p = (await server.call('GET', '/user/profile', { token })).json().data.profile;
    expect(p).toMatchObject({
      first_name: 'Clara', last_name: 'Meier-Huber', email_id: DEMO_ACCOUNTS.physician, secondary_emails: 'clara.second@demo.nocturne.test',
      primary_phone_number: '+41 44 555 01 00', secondary_phone_number: '0791234567', organisation_name: 'Klinik am See', country: 'Austria',
      date_of_birth: '1975-04-02', specialisation_ids: [1, 2], window_start_time: '20:30:00', window_end_time: '06:15:00',
      device_start_window: '08:30 PM', device_stop_window: '06:15 AM', rii_parameters: ['APN', 'OBS', 'GSD'], gender: 'F', height: 168, weight: 60, bmi: 21.26,
    });
    expect(p.profile_image).toMatch(/^[0-9a-f]{32}\.png$/);

    const own = await avatar(token, p.profile_image);
    expect(own.statusCode).toBe(200);
    expect(own.headers['content-type']).toBe('image/png');
    expect(Buffer.compare(own.rawPayload, PNG)).toBe(0);
    // A member of the practice sees it; another practice's physician does not (404, as if it did not exist).
    const annotator = await tokenOf(await idOf(DEMO_ACCOUNTS.annotator));
    expect((await avatar(annotator, p.profile_image)).statusCode).toBe(200);
    const outsider = await tokenOf((await createUser(server)).id);
    expect((await avatar(outsider, p.profile_image)).statusCode).toBe(404);
    // No path traversal: anything but a served name is refused before any lookup.
    for (const bad of ['..%2F..%2Fpackage.json', '..%2Fassets%2Fprofile_image.jpg', 'x.svg', '%2Fetc%2Fpasswd']) {
      expect([400, 404]).toContain((await avatar(token, bad)).statusCode);
    }
    const fallback = await avatar(outsider, 'profile_image.jpg');
    expect(fallback.statusCode).toBe(200);
    expect(fallback.headers['content-type']).toBe('image/jpeg');
    expect([...fallback.rawPayload.subarray(0, 3)]).toEqual([0xff, 0xd8, 0xff]);

    // Removed: back to the default avatar, and the old image is gone.
    const removed = await update(token, { ...FULL, removed_profile_image: '1' });
    expect(removed.statusCode).toBe(200);
    expect(removed.json().data.profile.profile_image).toBe('profile_image.jpg');
    expect((await avatar(token, p.profile_image)).statusCode).toBe(404);
  });

  it('refuses an image by its bytes, not its name, and one over 5,000,000 bytes, with the spec words', async () => {
    const token = await tokenOf((await createUser(server)).id);
    const base = { ...FULL, secondary_emails: '' };
    const fake = await update(token, base, { name: 'photo.png', bytes: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>') });
    expect(fake.statusCode).toBe(400);
    expect(fake.json()).toMatchObject({ message: 'Please select valid profile image format (jpg or jpeg or png format allowed)', data: { field: 'profile_image', rule: 'imageFormat' } });
    const gif = await update(token, base, { name: 'photo.gif', bytes: PNG });
    expect(gif.json().data.rule).toBe('imageFormat');
    const big = Buffer.concat([JPEG_HEAD, Buffer.alloc(5_000_001 - JPEG_HEAD.length)]);
    const tooBig = await update(token, base, { name: 'big.jpg', bytes: big });
    expect(tooBig.statusCode).toBe(400);
    expect(tooBig.json().message).toBe('Profile image is too large, please pick a file less that 5 MB');
    const exact = await update(token, base, { name: 'ok.jpeg', bytes: big.subarray(0, 5_000_000) });
    expect(exact.statusCode, exact.body).toBe(200);
    expect(exact.json().data.profile.profile_image).toMatch(/\.jpg$/);
  });

  it('answers each validation with the spec message and the field', async () => {
    const token = await tokenOf((await createUser(server)).id);
    const cases: Array<[Record<string, string>, string, string]> = [
      [{ first_name: 'Cl4ra' }, 'first_name', 'First name accepts characters only'],
      [{ first_name: '' }, 'first_name', 'Please enter First Name'],
      [{ last_name: 'M$' }, 'last_name', 'Last Name accepts characters only'],
      [{ first_name: 'A'.repeat(31) }, 'first_name', 'First name holds at most 30 characters'],
      [{ phone: '' }, 'phone', 'Please enter primary phone number'],
      [{ phone: '044-55a' }, 'phone', 'Please provide valid primary phone number'],
      [{ phone2: '12;34' }, 'phone2', 'Please provide valid secondary phone number'],
      [{ phone3: '5.5' }, 'phone3', 'Please provide valid additional phone number'],
      [{ secondary_emails: 'not-an-email' }, 'secondary_emails', 'Invalid Characters'],
      [{ ternary_email: 'x@y.test', secondary_emails: 'x@y.test' }, 'ternary_email', 'Secondary email and Tertiary email cannot be same'],
      [{ date_of_birth: DateTime.utc().plus({ days: 2 }).toISODate()! }, 'date_of_birth', 'Date of birth cannot be in the future'],
      [{ date_of_birth: `${DateTime.utc().year - 101}-06-01` }, 'date_of_birth', 'Date of birth cannot be more than 100 years ago'],
      [{ device_start_window: '25:00' }, 'device_start_window', 'Device window times must be given as hh:mm AM or PM'],
      [{ rii_parameters: JSON.stringify(['APN', 'TST', 'TBT']) }, 'rii_parameters', 'Only one RII divisor (GSD, TST, TBT or TBR) may be selected'],
      [{ organisation_name: 'O'.repeat(81) }, 'organisation_name', 'Organisation name holds at most 80 characters'],
      [{ country: 'Atlantis' }, 'country', 'Country not found'],
    ];
    for (const [change, field, message] of cases) {
      const res = await update(token, { ...FULL, secondary_emails: '', ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(res.json().message, JSON.stringify(change)).toBe(message);
      expect(res.json().data.field).toBe(field);
    }
    const self = await update(token, { ...FULL, secondary_emails: 'USER1@x.test' });
    expect(self.statusCode).toBe(200);
  });

  it("keeps a secondary user's and a tertiary user's locked fields whatever they send", async () => {
    const physician = await idOf(DEMO_ACCOUNTS.physician);
    const secondaryId = await idOf(DEMO_ACCOUNTS.secondary);
    const secondary = await tokenOf(secondaryId);
    const before = (await server.call('GET', '/user/profile', { token: secondary })).json().data.profile;
    const empty = await update(secondary, { ...FULL, secondary_emails: '' });
    expect(empty.statusCode).toBe(400);
    expect(empty.json().message).toBe('Secondary email cannot be empty');
    const res = await update(secondary, { ...FULL, first_name: 'Mallory', phone: '999', organisation_name: 'Elsewhere', country: 'France', ternary_email: 'third@x.test', secondary_emails: 'sofia.b@x.test', rii_parameters: '["TBR"]', date_of_birth: '1990-01-01' });
    expect(res.statusCode, res.body).toBe(200);
    const after = res.json().data.profile;
    for (const k of ['first_name', 'last_name', 'primary_phone_number', 'organisation_name', 'country', 'ternary_email', 'rii_parameters', 'date_of_birth'] as const) {
      expect(after[k], k).toEqual(before[k]);
    }
    expect(after.secondary_emails).toBe('sofia.b@x.test');

    const tertiaryUser = await createUser(server, { physician_id: physician });
    await server.db.query('update users set is_ternary_user = true where id = $1', [tertiaryUser.id]);
    const tertiary = await tokenOf(tertiaryUser.id);
    expect((await update(tertiary, { ...FULL, ternary_email: '' })).json().message).toBe('Tertiary email cannot be empty');
    const t = await update(tertiary, { ...FULL, ternary_email: 'tt@x.test', secondary_emails: 'forbidden@x.test', last_name: 'Changed' });
    expect(t.statusCode, t.body).toBe(200);
    expect(t.json().data.profile).toMatchObject({ ternary_email: 'tt@x.test', secondary_emails: '', last_name: 'User' });
  });

  it('changes the password only with the right current one (401 with the spec words otherwise)', async () => {
    const user = await createUser(server);
    const { token } = await signIn(server, user.email);
    const wrong = await update(token, { ...FULL, secondary_emails: '', current_password: 'not-it', new_password: 'a-brand-new-pass' });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().message).toBe('User details updated but password not updated due to mismatched Current Password');
    const ok = await update(token, { ...FULL, secondary_emails: '', current_password: DEMO_PASSWORD, new_password: 'a-brand-new-pass' });
    expect(ok.statusCode).toBe(200);
    expect(ok.json().message).toBe('User details and Password updated successfully');
    await signIn(server, user.email, 'a-brand-new-pass');
  });

  it('counts a current-password guess before checking it: 30 wrong ones sent at once get at most 10 answered 401, the rest 429', async () => {
    const user = await createUser(server);
    const { token } = await signIn(server, user.email);
    const answers = await Promise.all(Array.from({ length: 30 }, (_, i) => update(token, { ...FULL, secondary_emails: '', current_password: `guess-${i}`, new_password: 'a-brand-new-pass' })));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(10);
    expect(codes.filter((c) => c === 401).length + codes.filter((c) => c === 429).length).toBe(30);
    expect((await update(token, { ...FULL, secondary_emails: '', current_password: DEMO_PASSWORD, new_password: 'a-brand-new-pass' })).statusCode).toBe(429);
  });

  it("answers 401 'Repeated secondary' for another account's address as secondary or tertiary e-mail, and changes nothing", async () => {
    const user = await createUser(server);
    const other = await createUser(server);
    const { token } = await signIn(server, user.email);
    const repeated = await update(token, { ...FULL, first_name: 'Changed', secondary_emails: other.email.toUpperCase() });
    expect(repeated.statusCode).toBe(401);
    expect(repeated.json()).toMatchObject({ code: 'repeated_secondary', message: 'Repeated secondary', data: { field: 'secondary_emails', rule: 'secondaryRepeated' } });
    const [row] = await server.db.query<{ first_name: string; secondary_emails: string }>('select first_name, secondary_emails from users where id = $1', [user.id]);
    expect(row.first_name).not.toBe('Changed');
    expect(row.secondary_emails).not.toBe(other.email);
    // The session goes on: this 401 is about the form, not the token.
    const tertiary = await update(token, { ...FULL, secondary_emails: 'fine.second@demo.nocturne.test', ternary_email: DEMO_ACCOUNTS.annotator });
    expect(tertiary.json()).toMatchObject({ code: 'repeated_secondary', data: { field: 'ternary_email', rule: 'tertiaryRepeated' } });
    const ok = await update(token, { ...FULL, secondary_emails: 'fine.second@demo.nocturne.test' });
    expect(ok.statusCode, ok.body).toBe(200);
  });
});

describe('signup approval', () => {
  const signup = (email: string, first = 'Nora') =>
    server.call('POST', '/signup', { body: { first_name: first, last_name: 'Applicant', email, password: 'applicant-pass-1', country: 'Switzerland' }, ip: '10.9.0.1' });
  const outbox = async (email: string) => (await server.call('GET', `/dev/outbox?email=${encodeURIComponent(email)}`)).json().data.messages as Array<{ subject: string; body?: string; text?: string }>;
  const login = (email: string) => server.call('POST', '/login', { body: { email, password: 'applicant-pass-1' }, ip: '10.9.0.2' });

  it('approves: the applicant is mailed and can sign in; the decision is audited', async () => {
    const email = 'approve.me@signup.test';
    expect((await signup(email)).statusCode).toBe(201);
    const pending = await login(email);
    expect(pending.statusCode).toBe(403);
    expect(pending.json().code).toBe('account_pending');

    const adminId = await idOf(DEMO_ACCOUNTS.admin);
    const admin = await tokenOf(adminId);
    const list = (await server.call('GET', '/admin/signups', { token: admin })).json().data.signups;
    const row = list.find((s: { email: string }) => s.email === email);
    expect(row).toMatchObject({ status: 'pending', first_name: 'Nora', country: 'Switzerland' });
    const physician = await tokenOf(await idOf(DEMO_ACCOUNTS.physician));
    expect((await server.call('POST', `/admin/signups/${row.user_id}/approve`, { token: physician, body: {} })).statusCode).toBe(403);

    const ok = await server.call('POST', `/admin/signups/${row.user_id}/approve`, { token: admin, body: {} });
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await outbox(email)).map((m) => m.subject)).toContain('Your Nocturne account is active');
    expect((await server.call('POST', `/admin/signups/${row.user_id}/refuse`, { token: admin, body: {} })).statusCode).toBe(409);
    const [audit] = await server.db.query<{ status: string; reviewed_by: number; reviewed_at: Date | null }>('select status, reviewed_by, reviewed_at from users where id = $1', [row.user_id]);
    expect(audit.status).toBe('active');
    expect(audit.reviewed_by).toBe(adminId);
    expect(audit.reviewed_at).not.toBeNull();
    await signIn(server, email, 'applicant-pass-1');
    const decided = (await server.call('GET', '/admin/signups', { token: admin })).json().data.signups.find((s: { email: string }) => s.email === email);
    expect(decided).toMatchObject({ status: 'active', reviewed_by: DEMO_ACCOUNTS.admin });
  });

  it('refuses with a reason: mailed, and sign-in says so', async () => {
    const email = 'refuse.me@signup.test';
    await signup(email);
    const admin = await tokenOf(await idOf(DEMO_ACCOUNTS.admin));
    const [u] = await server.db.query<{ id: number }>('select id from users where email = $1', [email]);
    const res = await server.call('POST', `/admin/signups/${u.id}/refuse`, { token: admin, body: { reason: 'Not a clinician' } });
    expect(res.statusCode).toBe(200);
    const mails = await outbox(email);
    expect(mails.map((m) => m.subject)).toContain('Your Nocturne account request');
    expect(JSON.stringify(mails)).toContain('Not a clinician');
    const refused = await login(email);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().code).toBe('account_refused');
    // The reason reaches the applicant who proved the password, and nobody else.
    expect(refused.json().data).toEqual({ reason: 'Not a clinician' });
    const guess = await server.call('POST', '/login', { body: { email, password: 'not-the-password' }, ip: '10.9.0.3' });
    expect(guess.statusCode).toBe(401);
    expect(guess.body).not.toContain('Not a clinician');
  });

  it('names the field and the rule when signup input breaks the schema', async () => {
    const res = await signup('digits@signup.test', 'N0ra');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'validation_failed', data: { field: 'first_name', rule: 'pattern' } });
    const missing = await server.call('POST', '/signup', { body: { first_name: 'Nora', last_name: 'A', email: 'm@signup.test', password: 'applicant-pass-1' } });
    expect(missing.json().data).toEqual({ field: 'country', rule: 'required' });
  });
});

describe('demo accounts and past-date requests', () => {
  it('seeds a paid-membership physician working for the demo practice', async () => {
    const [paid] = await server.db.query<{ membership_type: string; physician_id: number; role: string }>('select membership_type, physician_id, role from users where email = $1', [DEMO_ACCOUNTS.paid]);
    expect(paid).toMatchObject({ membership_type: 'paid', role: 'physician', physician_id: await idOf(DEMO_ACCOUNTS.physician) });
    const { token } = await signIn(server, DEMO_ACCOUNTS.paid);
    expect((await server.call('GET', '/user', { token })).json().data.user_details.membership_type).toBe('paid');
  });

  it("gives a past-date request's dates as the patient's calendar days, and shows it pending to the practice", async () => {
    const token = await tokenOf(await idOf(DEMO_ACCOUNTS.physician));
    const [patient] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1003'`);
    const [device] = await server.db.query<{ device_master_id: number }>(`select device_master_id from devices where device_id = 'NCT0006'`);
    const zone = 'Europe/Zurich';
    const from = DateTime.fromISO('2026-01-10', { zone }).toMillis();
    const to = DateTime.fromISO('2026-01-14', { zone }).toMillis();
    const sent = await server.call('POST', '/device/deploy-device-in-past-date', { token, body: { patient_id: patient.id, device_master_id: device.device_master_id, allocation_date: from, deallocation_date: to } });
    expect(sent.statusCode, sent.body).toBe(201);
    const admin = await tokenOf(await idOf(DEMO_ACCOUNTS.admin));
    const listed = (await server.call('GET', '/admin/deploy-requests', { token: admin })).json().data.requests.find((r: { id: number }) => r.id === sent.json().data.request_id);
    // Midnight in Zurich is 23:00 the day before in UTC: as an instant read in UTC it would show 9 January.
    expect(listed).toMatchObject({ allocation_day: '2026-01-10', deallocation_day: '2026-01-14' });
    const mine = (await server.call('GET', `/device/deploy-requests?patient_id=${patient.id}`, { token })).json().data.requests;
    expect(mine[0]).toMatchObject({ status: 'pending', allocation_day: '2026-01-10', device_id: 'NCT0006' });
  });
});
