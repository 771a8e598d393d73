import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OTP_MAX_ATTEMPTS } from '../../server/auth/otp';
import { check, LIMITS, record } from '../../server/services/rate-limit';
import { createUser, lastCode, startTestServer, TEST_DB, type TestServer } from './helpers';

/** Issue 13 points 4 and 5: sign-in an attacker cannot jam, a guess cap that holds under concurrency, a sliding window. */

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer();
});
afterAll(() => server.close());

let ipSeq = 1;
const freshIp = () => `10.9.${Math.floor(ipSeq / 250)}.${ipSeq++ % 250}`;

describe('password step', () => {
  it('wrong passwords from many addresses do not lock the owner out', async () => {
    const user = await createUser(server);
    for (let i = 0; i < 30; i++) {
      const res = await server.call('POST', '/login', { body: { email: user.email, password: `guess-${i}` }, ip: freshIp() });
      expect(res.statusCode).toBe(401);
    }
    const owner = await server.call('POST', '/login', { body: { email: user.email, password: user.password }, ip: freshIp() });
    expect(owner.statusCode).toBe(200);
    expect(await lastCode(server, user.email)).toMatch(/^\d{6}$/);
  });

  it('a refused request adds no row, and rows older than any window are pruned as requests come', async () => {
    const user = await createUser(server);
    const ip = freshIp();
    await server.db.query(`insert into rate_limit_hits (bucket, window_start, hits) values ('login:address:old', now() - interval '3 hours', 7)`);
    for (let i = 0; i < LIMITS.loginPair.max; i++) await server.call('POST', '/login', { body: { email: user.email, password: 'wrong' }, ip });
    const sum = async () => (await server.db.query<{ n: number }>(`select coalesce(sum(hits), 0)::int as n from rate_limit_hits where bucket like $1`, [`%${ip}`]))[0].n;
    const before = await sum();
    for (let i = 0; i < 20; i++) expect((await server.call('POST', '/login', { body: { email: user.email, password: 'wrong' }, ip })).statusCode).toBe(429);
    expect(await sum()).toBe(before);
    expect(await server.db.query(`select 1 from rate_limit_hits where bucket = 'login:address:old'`)).toEqual([]);
  });
});

describe(`limits counted before the check, under real concurrency (${TEST_DB})`, () => {
  it('60 wrong passwords sent at once from one address: at most 10 are checked (401), the rest 429', async () => {
    const user = await createUser(server);
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => server.call('POST', '/login', { body: { email: user.email, password: `guess-${i}` }, ip })));
    const codes = answers.map((a) => a.statusCode);
    expect(codes.filter((c) => c === 401).length).toBeLessThanOrEqual(LIMITS.loginPair.max);
    expect(codes.filter((c) => c === 401).length + codes.filter((c) => c === 429).length).toBe(60);
  });

  it('a right password is not counted as a failure: eleven good sign-ins in a row from one address all get their code', async () => {
    const user = await createUser(server);
    const ip = freshIp();
    for (let i = 0; i < LIMITS.loginPair.max + 1; i++) expect((await server.call('POST', '/login', { body: { email: user.email, password: user.password }, ip })).statusCode).toBe(200);
  });

  it('60 wrong codes at once: at most 10 reach the code check', async () => {
    const user = await createUser(server);
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 60 }, () => server.call('POST', '/verify-otp', { body: { email: user.email, otp: '000000' }, ip })));
    expect(answers.filter((a) => a.statusCode === 401).length).toBeLessThanOrEqual(LIMITS.otpPair.max);
    expect(answers.filter((a) => a.statusCode === 429).length).toBeGreaterThanOrEqual(60 - LIMITS.otpPair.max);
  });

  it('30 forgot-password requests at once for one account from one address: at most 5 answered, one reset mail per bound', async () => {
    const user = await createUser(server);
    const ip = freshIp();
    const answers = await Promise.all(Array.from({ length: 30 }, () => server.call('POST', '/forgot-password', { body: { email: user.email }, ip })));
    expect(answers.filter((a) => a.statusCode === 200).length).toBeLessThanOrEqual(LIMITS.forgotPair.max);
    const [{ n }] = await server.db.query<{ n: number }>(`select count(*)::int as n from mail_outbox where to_email = $1`, [user.email]);
    expect(n).toBeLessThanOrEqual(LIMITS.forgotAccountMail.max);
  });
});

describe('sliding window', () => {
  it('counts the last 15 minutes, not the current quarter hour, so bursts at the edge do not double', async () => {
    const quarter = 15 * 60_000;
    const edge = Math.ceil(Date.now() / quarter) * quarter + 10 * quarter;
    const bucket: [string, typeof LIMITS.loginPair] = [`test:edge:${edge}`, LIMITS.loginPair];
    for (let i = 0; i < LIMITS.loginPair.max; i++) await record(server.db, [bucket], edge - 30_000);
    // One minute later a new quarter hour has begun: a fixed window would allow ten more.
    await expect(check(server.db, [bucket], edge + 30_000)).rejects.toMatchObject({ status: 429 });
    await expect(check(server.db, [bucket], edge + 14 * 60_000)).rejects.toMatchObject({ status: 429 });
    await expect(check(server.db, [bucket], edge + 15 * 60_000)).resolves.toBeUndefined();
  });
});

describe(`one-time code guess cap under concurrency (${TEST_DB})`, () => {
  it('nine simultaneous wrong guesses: five are counted, then the code is dead', async () => {
    for (let round = 0; round < 5; round++) {
      const user = await createUser(server);
      expect((await server.call('POST', '/login', { body: { email: user.email, password: user.password }, ip: freshIp() })).statusCode).toBe(200);
      const code = await lastCode(server, user.email);
      const wrong = code === '000000' ? '111111' : '000000';
      const answers = await Promise.all(Array.from({ length: 9 }, () => server.call('POST', '/verify-otp', { body: { email: user.email, otp: wrong }, ip: freshIp() })));
      expect(answers.map((a) => a.statusCode)).toEqual(Array(9).fill(401));
      const [row] = await server.db.query<{ attempts: number; consumed_at: Date | null }>('select attempts, consumed_at from one_time_codes where user_id = $1 order by id desc limit 1', [user.id]);
      expect(row.attempts).toBe(OTP_MAX_ATTEMPTS);
      expect(row.consumed_at).not.toBeNull();
      expect((await server.call('POST', '/verify-otp', { body: { email: user.email, otp: code }, ip: freshIp() })).statusCode).toBe(401);
    }
  });

  it('a right code among simultaneous wrong ones is accepted only while tries are left', async () => {
    const user = await createUser(server);
    await server.call('POST', '/login', { body: { email: user.email, password: user.password }, ip: freshIp() });
    const code = await lastCode(server, user.email);
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all([
      ...Array.from({ length: 3 }, () => server.call('POST', '/verify-otp', { body: { email: user.email, otp: wrong }, ip: freshIp() })),
      server.call('POST', '/verify-otp', { body: { email: user.email, otp: code }, ip: freshIp() }),
    ]);
    expect(answers.filter((a) => a.statusCode === 202)).toHaveLength(1);
  });
});

describe(`forgot-password cannot be jammed from elsewhere (${TEST_DB})`, () => {
  const forgot = (email: string, ip: string) => server.call('POST', '/forgot-password', { body: { email }, ip });
  const resetMails = async (email: string) =>
    (await server.call('GET', `/dev/outbox?email=${encodeURIComponent(email)}`)).json().data.messages.filter((m: { subject: string }) => m.subject.includes('Reset')).length;
  const verify = (email: string, otp: string) => server.call('POST', '/forgot-password-verify-otp', { body: { email, otp }, ip: freshIp() });

  it('thirty requests from thirty addresses: mail stays bounded, the owner from a clean address still resets', async () => {
    const user = await createUser(server);
    for (let i = 0; i < 30; i++) expect((await forgot(user.email, freshIp())).statusCode).toBe(200);
    expect(await resetMails(user.email)).toBe(LIMITS.forgotAccountMail.max);
    const owner = await forgot(user.email, freshIp());
    expect(owner.statusCode).toBe(200);
    const matched = await verify(user.email, await lastCode(server, user.email));
    expect(matched.statusCode).toBe(200);
    expect(matched.json().code).toBe('otp_matched');
  });

  it('a code killed by wrong guesses does not keep the owner waiting: the next request mails a new one', async () => {
    const user = await createUser(server);
    for (let i = 0; i < 10; i++) await forgot(user.email, freshIp());
    const burnt = await lastCode(server, user.email);
    const wrong = burnt === '000000' ? '111111' : '000000';
    for (let i = 0; i < OTP_MAX_ATTEMPTS; i++) expect((await verify(user.email, wrong)).statusCode).toBe(401);
    expect((await verify(user.email, burnt)).statusCode).toBe(401);
    const before = await resetMails(user.email);
    expect((await forgot(user.email, freshIp())).statusCode).toBe(200);
    expect(await resetMails(user.email)).toBe(before + 1);
    expect((await verify(user.email, await lastCode(server, user.email))).statusCode).toBe(200);
  });

  it('the attacker\'s own address is refused after five requests for the account; the owner is not', async () => {
    const user = await createUser(server);
    const attacker = freshIp();
    const statuses = [];
    for (let i = 0; i < 8; i++) statuses.push((await forgot(user.email, attacker)).statusCode);
    expect(statuses.filter((s) => s === 429)).toHaveLength(8 - LIMITS.forgotPair.max);
    expect((await forgot(user.email, freshIp())).statusCode).toBe(200);
    expect((await verify(user.email, await lastCode(server, user.email))).statusCode).toBe(200);
  });
});

describe('answers that do not tell whether an account exists', () => {
  it('forgot-password and signup answer the same for a known and an unknown address', async () => {
    const user = await createUser(server);
    const known = await server.call('POST', '/forgot-password', { body: { email: user.email }, ip: freshIp() });
    const unknown = await server.call('POST', '/forgot-password', { body: { email: 'nobody.at.all@nowhere.test' }, ip: freshIp() });
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.body).toBe(unknown.body);
    const signup = (email: string) => server.call('POST', '/signup', { body: { first_name: 'Ann', last_name: 'Other', email, password: 'good-password-1', country: 'Switzerland', organisation_name: '' }, ip: freshIp() });
    const taken = await signup(user.email);
    const free = await signup('someone.new@nowhere.test');
    expect(taken.statusCode).toBe(free.statusCode);
    expect(taken.body).toBe(free.body);
  });
});
