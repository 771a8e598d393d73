import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, DEMO_ACCOUNTS, DEMO_PASSWORD, lastCode, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

let ipSeq = 1;
const freshIp = () => `10.2.0.${ipSeq++}`;

describe('forgot password', () => {
  it('resets the password in three steps and ends every session', async () => {
    const user = await createUser(server);
    const { token: oldSession } = await signIn(server, user.email);

    const sent = await server.call('POST', '/forgot-password', { body: { email: user.email }, ip: freshIp() });
    expect(sent.statusCode).toBe(200);
    expect(sent.json().code).toBe('user_reset_password_token_sent');

    const otp = await lastCode(server, user.email);
    const matched = await server.call('POST', '/forgot-password-verify-otp', { body: { email: user.email, otp }, ip: freshIp() });
    expect(matched.statusCode).toBe(200);
    expect(matched.json().code).toBe('otp_matched');
    const resetToken = matched.json().data.reset_token;

    const reset = await server.call('PATCH', '/reset-password', { body: { email: user.email, reset_token: resetToken, password: 'a-new-password-42' } });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().code).toBe('password_reset_success');

    expect((await server.call('GET', '/user', { token: oldSession })).statusCode).toBe(401);
    const oldLogin = await server.call('POST', '/login', { body: { email: user.email, password: DEMO_PASSWORD }, ip: freshIp() });
    expect(oldLogin.statusCode).toBe(401);
    await signIn(server, user.email, 'a-new-password-42');

    const again = await server.call('PATCH', '/reset-password', { body: { email: user.email, reset_token: resetToken, password: 'yet-another-one' } });
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('invalid_reset_token');
  });

  it('answers an unknown e-mail the same way and mails nothing', async () => {
    const email = 'nobody-here@demo.nocturne.test';
    const res = await server.call('POST', '/forgot-password', { body: { email }, ip: freshIp() });
    expect(res.statusCode).toBe(200);
    expect(res.json().code).toBe('user_reset_password_token_sent');
    const outbox = await server.call('GET', `/dev/outbox?email=${email}`);
    expect(outbox.json().data.messages).toEqual([]);
  });

  it('does not take a sign-in code as a reset code, nor a reset code for sign-in', async () => {
    const user = await createUser(server);
    await server.call('POST', '/login', { body: { email: user.email, password: user.password }, ip: freshIp() });
    const loginCode = await lastCode(server, user.email);
    await server.call('POST', '/forgot-password', { body: { email: user.email }, ip: freshIp() });
    const resetCode = await lastCode(server, user.email);
    if (loginCode !== resetCode) {
      const res = await server.call('POST', '/forgot-password-verify-otp', { body: { email: user.email, otp: loginCode }, ip: freshIp() });
      expect(res.statusCode).toBe(401);
      const res2 = await server.call('POST', '/verify-otp', { body: { email: user.email, otp: resetCode }, ip: freshIp() });
      expect(res2.statusCode).toBe(401);
    }
    expect((await server.call('POST', '/verify-otp', { body: { email: user.email, otp: loginCode }, ip: freshIp() })).statusCode).toBe(202);
  });

  it('refuses a reset token with another account and a too short password', async () => {
    const a = await createUser(server);
    const b = await createUser(server);
    await server.call('POST', '/forgot-password', { body: { email: a.email }, ip: freshIp() });
    const otp = await lastCode(server, a.email);
    const token = (await server.call('POST', '/forgot-password-verify-otp', { body: { email: a.email, otp }, ip: freshIp() })).json().data.reset_token;
    const other = await server.call('PATCH', '/reset-password', { body: { email: b.email, reset_token: token, password: 'long-enough-1' } });
    expect(other.statusCode).toBe(401);
    const short = await server.call('PATCH', '/reset-password', { body: { email: a.email, reset_token: token, password: 'short' } });
    expect(short.statusCode).toBe(400);
    expect(short.json().message).toContain('password');
  });

  it('refuses a sixth reset request from one address for one account within the hour', async () => {
    const user = await createUser(server);
    const ip = freshIp();
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await server.call('POST', '/forgot-password', { body: { email: user.email }, ip })).statusCode);
    expect(statuses).toEqual([200, 200, 200, 200, 200, 429]);
    expect((await server.call('POST', '/forgot-password', { body: { email: user.email }, ip: freshIp() })).statusCode).toBe(200);
  });
});

describe('signup', () => {
  const body = (email: string) => ({ first_name: 'Maya', last_name: "O'Neill", email, password: 'good-password-1', country: 'Switzerland', organisation_name: 'Lakeside Sleep Lab' });

  it('creates an account that waits for approval', async () => {
    const email = 'maya.oneill@lakeside.test';
    const res = await server.call('POST', '/signup', { body: body(email), ip: freshIp() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ code: 'account_created', message: 'Account successfully created' });
    const login = await server.call('POST', '/login', { body: { email, password: 'good-password-1' }, ip: freshIp() });
    expect(login.statusCode).toBe(403);
    expect(login.json().code).toBe('account_pending');
    const wrong = await server.call('POST', '/login', { body: { email, password: 'bad-password-1' }, ip: freshIp() });
    expect(wrong.statusCode).toBe(401);
  });

  it('answers a taken e-mail exactly like a new one, and mails the owner instead', async () => {
    const [before] = await server.db.query<{ password_hash: string; status: string }>('select password_hash, status from users where email = $1', [DEMO_ACCOUNTS.physician]);
    const fresh = await server.call('POST', '/signup', { body: body('brand.new@lakeside.test'), ip: freshIp() });
    const dup = await server.call('POST', '/signup', { body: body(DEMO_ACCOUNTS.physician.toUpperCase()), ip: freshIp() });
    expect(dup.statusCode).toBe(fresh.statusCode);
    expect(dup.body).toBe(fresh.body);
    expect(dup.body).not.toContain('exists');
    const [mail] = await server.db.query<{ subject: string; body: string }>('select subject, body from mail_outbox where to_email = $1 order by id desc limit 1', [DEMO_ACCOUNTS.physician]);
    expect(mail.subject).toBe('Someone tried to register with your e-mail address');
    expect(mail.body).toContain('Forgot password');
    const [after] = await server.db.query('select password_hash, status from users where email = $1', [DEMO_ACCOUNTS.physician]);
    expect(after).toEqual(before);
  });

  it('refuses an unknown country, a short password and a name with digits', async () => {
    const country = await server.call('POST', '/signup', { body: { ...body('c@x.test'), country: 'Atlantis' }, ip: freshIp() });
    expect(country.statusCode).toBe(400);
    expect(country.json().message).toContain('Atlantis');
    const short = await server.call('POST', '/signup', { body: { ...body('s@x.test'), password: 'abc' }, ip: freshIp() });
    expect(short.statusCode).toBe(400);
    const digits = await server.call('POST', '/signup', { body: { ...body('d@x.test'), first_name: 'R2D2' }, ip: freshIp() });
    expect(digits.statusCode).toBe(400);
    expect(digits.json().message).toContain('first_name');
    const count = await server.db.query<{ n: number }>(`select count(*)::int as n from users where email like '%@x.test'`);
    expect(count[0].n).toBe(0);
  });
});

describe('reference data and scope', () => {
  it('GET /countries lists countries with their main time zone', async () => {
    const res = await server.call('GET', '/countries');
    const countries = res.json().data.countries as Array<{ name: string; timezone: string }>;
    expect(countries.length).toBeGreaterThan(150);
    expect(countries.find((c) => c.name === 'Switzerland')?.timezone).toBe('Europe/Zurich');
    expect(countries.find((c) => c.name === 'India')?.timezone).toBe('Asia/Kolkata');
  });

  it('the secondary user carries the flag and works on the physician\'s patients', async () => {
    const { token } = await signIn(server, DEMO_ACCOUNTS.secondary);
    const details = (await server.call('GET', '/user', { token })).json().data.user_details;
    expect(details.isSecondaryUser).toBe(true);
    const patients = (await server.call('GET', '/physician/patients', { token })).json().data.patients;
    expect(patients.length).toBe(5);
  });

  it('patients are scoped to the physician the caller works for', async () => {
    const { token: physician } = await signIn(server, DEMO_ACCOUNTS.physician);
    const { token: annotator } = await signIn(server, DEMO_ACCOUNTS.annotator);
    const mine = (await server.call('GET', '/physician/patients', { token: physician })).json().data.patients;
    expect(mine.map((p: { patient_code: string }) => p.patient_code)).toEqual(['NCT1001', 'NCT1002', 'NCT1003', 'NCT1004', 'NCT1005']);
    expect((await server.call('GET', '/physician/patients', { token: annotator })).json().data.patients).toEqual(mine);
    const stranger = await createUser(server);
    const { token: other } = await signIn(server, stranger.email);
    expect((await server.call('GET', '/physician/patients', { token: other })).json().data.patients).toEqual([]);
    expect((await server.call('GET', '/physician/patients')).statusCode).toBe(401);
  });

  it('answers unknown API paths with a JSON 404 and server errors without a stack', async () => {
    const res = await server.call('GET', '/no/such/thing');
    expect(res.statusCode).toBe(404);
    expect(res.json().code).toBe('not_found');
  });
});

describe('signup country', () => {
  it('takes the country by ISO code as well as by name, and stores the name', async () => {
    const res = await server.call('POST', '/signup', {
      body: { first_name: 'Ines', last_name: 'Moreau', email: 'ines.moreau@clinic.test', password: 'good-password-2', country: 'fr' },
      ip: '10.3.0.1',
    });
    expect(res.statusCode).toBe(201);
    const [row] = await server.db.query<{ country: string; status: string }>(`select country, status from users where email = 'ines.moreau@clinic.test'`);
    expect(row).toEqual({ country: 'France', status: 'pending' });
  });
});
