import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createUser, DEMO_ACCOUNTS, DEMO_PASSWORD, lastCode, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

const physician = DEMO_ACCOUNTS.physician;
let ipSeq = 1;
/** Each test its own client address, so per-address limits do not leak between tests. */
const freshIp = () => `10.1.0.${ipSeq++}`;

describe('POST /login', () => {
  it('accepts the right password and mails a six-digit code', async () => {
    const res = await server.call('POST', '/login', { body: { email: physician, password: DEMO_PASSWORD }, ip: freshIp() });
    expect(res.statusCode).toBe(200);
    expect(res.json().code).toBe('user_verified_check_otp');
    expect(await lastCode(server, physician)).toMatch(/^\d{6}$/);
  });

  it('finds the account whatever the case of the e-mail; surrounding spaces are refused by the schema', async () => {
    const res = await server.call('POST', '/login', { body: { email: '  Physician@Demo.Nocturne.TEST ', password: DEMO_PASSWORD }, ip: freshIp() });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    const upper = await server.call('POST', '/login', { body: { email: 'Physician@Demo.Nocturne.TEST', password: DEMO_PASSWORD }, ip: freshIp() });
    expect(upper.statusCode).toBe(200);
  });

  it('answers a wrong password and an unknown e-mail the same way', async () => {
    const wrong = await server.call('POST', '/login', { body: { email: physician, password: 'not-the-password' }, ip: freshIp() });
    const unknown = await server.call('POST', '/login', { body: { email: 'nobody@demo.nocturne.test', password: DEMO_PASSWORD }, ip: freshIp() });
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual({ code: 'invalid_login', message: 'Invalid email or password!' });
    expect(unknown.json()).toEqual(wrong.json());
  });

  it('refuses a body without a password, naming the field', async () => {
    const res = await server.call('POST', '/login', { body: { email: physician }, ip: freshIp() });
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('validation_failed');
    expect(res.json().message).toContain('password');
  });

  it('limits failures per account from one address; the right password from a clean address still gets a code', async () => {
    const email = DEMO_ACCOUNTS.admin;
    const attacker = freshIp();
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) {
      const res = await server.call('POST', '/login', { body: { email, password: 'wrong-password' }, ip: attacker });
      statuses.push(res.statusCode);
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    const blocked = await server.call('POST', '/login', { body: { email, password: DEMO_PASSWORD }, ip: attacker });
    expect(blocked.statusCode).toBe(429);
    expect(blocked.json().code).toBe('rate_limited');
    expect(blocked.json().message).toMatch(/try again in \d+ minute/);
    const owner = await server.call('POST', '/login', { body: { email, password: DEMO_PASSWORD }, ip: freshIp() });
    expect(owner.statusCode).toBe(200);
  });

  it('limits attempts per address, whatever the account', async () => {
    const ip = freshIp();
    let last = 0;
    for (let i = 0; i < 51; i++) {
      const res = await server.call('POST', '/login', { body: { email: `guess${i}@example.org`, password: 'x' }, ip });
      last = res.statusCode;
      if (i < 50) expect(res.statusCode).toBe(401);
    }
    expect(last).toBe(429);
    const other = await server.call('POST', '/login', { body: { email: 'guess0@example.org', password: 'x' }, ip: freshIp() });
    expect(other.statusCode).toBe(401);
  });
});

describe('POST /verify-otp', () => {
  let email = '';
  beforeEach(async () => {
    email = (await createUser(server)).email;
  });
  const login = async () => {
    const res = await server.call('POST', '/login', { body: { email, password: DEMO_PASSWORD }, ip: freshIp() });
    expect(res.statusCode).toBe(200);
    return lastCode(server, email);
  };
  const verify = (otp: string) => server.call('POST', '/verify-otp', { body: { email, otp }, ip: freshIp() });

  it('answers 202 with the user id and a token that opens GET /user', async () => {
    const otp = await login();
    const res = await verify(otp);
    expect(res.statusCode).toBe(202);
    expect(res.json().code).toBe('otp_verified');
    const { user_id, token } = res.json().data;
    expect(typeof token).toBe('string');
    expect(token.length).toBeGreaterThanOrEqual(40);
    const user = await server.call('GET', '/user', { token });
    expect(user.statusCode).toBe(200);
    expect(user.json().data.user_details).toMatchObject({ user_id, email, is_annotator: false, membership_type: 'non-paid' });
  });

  it('refuses a wrong code', async () => {
    const otp = await login();
    const wrong = otp === '000000' ? '111111' : '000000';
    const res = await verify(wrong);
    expect(res.statusCode).toBe(401);
    expect(res.json().code).toBe('invalid_otp');
    expect((await verify(otp)).statusCode).toBe(202);
  });

  it('refuses a code used once already', async () => {
    const otp = await login();
    expect((await verify(otp)).statusCode).toBe(202);
    const again = await verify(otp);
    expect(again.statusCode).toBe(401);
    expect(again.json().code).toBe('invalid_otp');
  });

  it('refuses an expired code', async () => {
    const otp = await login();
    await server.db.query(`update one_time_codes set expires_at = now() - interval '1 second' where consumed_at is null`);
    expect((await verify(otp)).statusCode).toBe(401);
  });

  it('kills the code after five wrong tries', async () => {
    const otp = await login();
    const wrong = otp === '000000' ? '111111' : '000000';
    for (let i = 0; i < 5; i++) expect((await verify(wrong)).statusCode).toBe(401);
    expect((await verify(otp)).statusCode).toBe(401);
  });

  it('kills the earlier code when a new one is sent', async () => {
    const first = await login();
    const second = await login();
    if (first !== second) expect((await verify(first)).statusCode).toBe(401);
    expect((await verify(second)).statusCode).toBe(202);
  });

  it('stores codes and tokens only as digests', async () => {
    const otp = await login();
    const token = (await verify(otp)).json().data.token as string;
    const codes = await server.db.query<{ code_hash: string }>('select code_hash from one_time_codes');
    expect(codes.some((c) => c.code_hash.includes(otp))).toBe(false);
    const tokens = await server.db.query<{ token_hash: string }>('select token_hash from auth_tokens');
    expect(tokens.some((t) => t.token_hash === token)).toBe(false);
    // Accounts that sign in (the sample patients' system account 2112 has no password at all).
    const users = await server.db.query<{ password_hash: string }>("select password_hash from users where role <> 'system'");
    expect(users.every((u) => u.password_hash.startsWith('scrypt$') && !u.password_hash.includes(DEMO_PASSWORD))).toBe(true);
  });
});

describe('tokens', () => {
  it('GET /logout revokes the token', async () => {
    const { token } = await signIn(server, (await createUser(server)).email);
    expect((await server.call('GET', '/user', { token })).statusCode).toBe(200);
    expect((await server.call('GET', '/logout', { token })).statusCode).toBe(200);
    const after = await server.call('GET', '/user', { token });
    expect(after.statusCode).toBe(401);
    expect(after.json()).toEqual({ code: 'invalid_credentials', message: 'Invalid credentials' });
  });

  it('refuses an expired token', async () => {
    const { token, userId } = await signIn(server, (await createUser(server)).email);
    await server.db.query(`update auth_tokens set expires_at = now() - interval '1 second' where user_id = $1`, [userId]);
    const res = await server.call('GET', '/user', { token });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe('Invalid credentials');
  });

  it('refuses a missing, malformed or made-up token', async () => {
    expect((await server.call('GET', '/user')).statusCode).toBe(401);
    expect((await server.call('GET', '/user', { token: 'not a token' })).statusCode).toBe(401);
    expect((await server.call('GET', '/user', { token: 'A'.repeat(43) })).statusCode).toBe(401);
  });

  it('GET /user gives the spec fields of the annotator', async () => {
    const { token, userId } = await signIn(server, DEMO_ACCOUNTS.annotator);
    const details = (await server.call('GET', '/user', { token })).json().data.user_details;
    expect(details).toMatchObject({
      user_id: userId,
      email: DEMO_ACCOUNTS.annotator,
      first_name: 'Arun',
      country: 'Switzerland',
      window_start_time: '19:00:00',
      window_end_time: '11:00:00',
      is_annotator: true,
      membership_type: 'non-paid',
    });
  });
});
