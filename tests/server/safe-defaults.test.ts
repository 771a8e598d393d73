import { afterEach, describe, expect, it, vi } from 'vitest';
import { hashPassword } from '../../server/auth/passwords';
import { readConfig } from '../../server/config';
import { prepare, StartupError } from '../../server/start';
import { DEMO_ACCOUNTS, createUser, freshDb, lastCode, startTestServer, type TestServer } from './helpers';

/** Issue 13 point 1: a default install cannot be taken over from the network; production carries no demo door. */

let servers: TestServer[] = [];
afterEach(async () => {
  for (const s of servers) await s.close();
  servers = [];
});
const start = async (env: Record<string, string> = {}) => {
  const s = await startTestServer(env);
  servers.push(s);
  return s;
};

describe('listening address', () => {
  it('binds loopback unless HOST says otherwise', () => {
    expect(readConfig({}).host).toBe('127.0.0.1');
    expect(readConfig({ HOST: '0.0.0.0' }).host).toBe('0.0.0.0');
  });
});

describe('dev outbox', () => {
  it('answers a request from this machine and 404 to any other address', async () => {
    const s = await start();
    await s.call('POST', '/forgot-password', { body: { email: DEMO_ACCOUNTS.physician } });
    const local = await s.call('GET', `/dev/outbox?email=${DEMO_ACCOUNTS.physician}`, { ip: '127.0.0.1' });
    expect(local.statusCode).toBe(200);
    expect(local.json().data.messages[0].code).toMatch(/^\d+$/);
    const local6 = await s.call('GET', `/dev/outbox?email=${DEMO_ACCOUNTS.physician}`, { ip: '::1' });
    expect(local6.statusCode).toBe(200);
    for (const ip of ['192.168.1.20', '10.0.0.7', '2001:db8::1']) {
      const remote = await s.call('GET', `/dev/outbox?email=${DEMO_ACCOUNTS.physician}`, { ip });
      expect(remote.statusCode).toBe(404);
      expect(remote.body).not.toMatch(/"code":"\d/);
    }
  });

  it('does not exist in production or when mail is configured', async () => {
    for (const env of [{ NODE_ENV: 'production' }, { SMTP_URL: 'smtp://127.0.0.1:1' }] as Record<string, string>[]) {
      const s = await start(env);
      const res = await s.call('GET', `/dev/outbox?email=${DEMO_ACCOUNTS.physician}`);
      expect(res.statusCode).toBe(404);
    }
  });
});

describe('behind a reverse proxy (TRUST_PROXY)', () => {
  const login = (s: TestServer, email: string, password: string, headers: Record<string, string> = {}) =>
    s.app.inject({ method: 'POST', url: '/api/v1/login', payload: { email, password }, headers, remoteAddress: '127.0.0.1' });

  it('reads addresses, CIDRs, range names or a hop count, and refuses "trust everyone"', () => {
    expect(readConfig({}).trustProxy).toBe(false);
    expect(readConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(readConfig({ TRUST_PROXY: '127.0.0.1, 10.0.0.0/8,loopback,::1' }).trustProxy).toEqual(['127.0.0.1', '10.0.0.0/8', 'loopback', '::1']);
    for (const bad of ['true', '*', '10.0.0.0/99', '0', 'proxy.example']) expect(() => readConfig({ TRUST_PROXY: bad }), bad).toThrow(/TRUST_PROXY/);
  });

  it('the dev outbox never answers a request a proxy forwarded, even from a proxy on this machine', async () => {
    const s = await start({ TRUST_PROXY: 'loopback' });
    for (const headers of [{ 'x-forwarded-for': '203.0.113.9' }, { 'x-forwarded-for': '127.0.0.1' }, { forwarded: 'for=203.0.113.9' }]) {
      const res = await s.app.inject({ method: 'GET', url: `/api/v1/dev/outbox?email=${DEMO_ACCOUNTS.physician}`, headers, remoteAddress: '127.0.0.1' });
      expect(res.statusCode, JSON.stringify(headers)).toBe(404);
    }
    expect((await s.call('GET', `/dev/outbox?email=${DEMO_ACCOUNTS.physician}`, { ip: '127.0.0.1' })).statusCode).toBe(200);
  });

  it('with a trusted proxy, 50 failed sign-ins from one client lock out only that client', async () => {
    const s = await start({ TRUST_PROXY: '127.0.0.1' });
    const owner = await createUser(s);
    const attacker = { 'x-forwarded-for': '203.0.113.5' };
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => login(s, `nobody${i}@nowhere.test`, 'wrong-password', attacker)));
    expect(answers.every((a) => a.statusCode === 401)).toBe(true);
    expect((await login(s, owner.email, owner.password, attacker)).statusCode).toBe(429);
    // Everyone else behind the same proxy signs in.
    expect((await login(s, owner.email, owner.password, { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(200);
    // The proxy appends the peer it saw: an address the client wrote before it is not believed.
    expect((await login(s, owner.email, owner.password, { 'x-forwarded-for': '198.51.100.8, 203.0.113.5' })).statusCode).toBe(429);
  });

  it('without TRUST_PROXY, X-Forwarded-For is ignored: a client cannot dodge the limit by naming other addresses', async () => {
    const s = await start();
    const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => login(s, `nobody${i}@nowhere.test`, 'wrong-password', { 'x-forwarded-for': `203.0.113.${i + 1}` })));
    expect(answers.every((a) => a.statusCode === 401)).toBe(true);
    expect((await login(s, 'another@nowhere.test', 'wrong-password', { 'x-forwarded-for': '198.51.100.7' })).statusCode).toBe(429);
  });
});

describe('production', () => {
  it('seeds no demo accounts unless SEED_DEMO=1', async () => {
    expect(readConfig({ NODE_ENV: 'production' }).seedDemo).toBe(false);
    expect(readConfig({ NODE_ENV: 'production', SEED_DEMO: '1' }).seedDemo).toBe(true);
    expect(readConfig({}).seedDemo).toBe(true);
    const s = await start({ NODE_ENV: 'production' });
    // No account anyone can sign in to (the sample patients' system account 2112 owns data, never signs in).
    expect(await s.db.query("select email from users where role <> 'system'")).toEqual([]);
  });

  it('never prints a one-time code', async () => {
    const s = await start({ NODE_ENV: 'production' });
    const user = await createUser(s);
    const printed: string[] = [];
    const spy = vi.spyOn(console, 'log').mockImplementation((...args: unknown[]) => void printed.push(args.join(' ')));
    try {
      expect((await s.call('POST', '/login', { body: { email: user.email, password: user.password } })).statusCode).toBe(200);
    } finally {
      spy.mockRestore();
    }
    const [row] = await s.db.query<{ code: string }>('select code from mail_outbox where to_email = $1', [user.email]);
    expect(row.code).toMatch(/^\d+$/);
    expect(printed.join('\n')).toContain(user.email);
    expect(printed.join('\n')).not.toContain(row.code);
  });

  it('refuses to start while a demo account still has the published password', async () => {
    const { db, drop } = await freshDb();
    try {
      const dev = await prepare({ ...readConfig({ SEED_NIGHTS: '0' }), webRoot: null }, db);
      await dev.app.close();
      const production = { ...readConfig({ NODE_ENV: 'production' }), webRoot: null };
      const err = await prepare(production, db).then(() => null, (e: Error) => e);
      expect(err).toBeInstanceOf(StartupError);
      expect(err!.message).toContain(DEMO_ACCOUNTS.physician);
      expect(err!.message).toContain('published password');

      // Disabling the demo accounts (or changing their passwords) lets production start.
      await db.query(`update users set status = 'disabled' where email like '%@demo.nocturne.test' and email <> $1`, [DEMO_ACCOUNTS.admin]);
      const still = await prepare(production, db).then(() => null, (e: Error) => e);
      expect(still!.message).toContain(DEMO_ACCOUNTS.admin);
      expect(still!.message).not.toContain(DEMO_ACCOUNTS.physician);
      await db.query(`update users set password_hash = $2 where email = $1`, [DEMO_ACCOUNTS.admin, await hashPassword('a changed password')]);
      const ok = await prepare(production, db);
      await ok.app.close();

      // An explicit demo installation (SEED_DEMO=1) is the operator's choice.
      await db.query(`update users set status = 'active'`);
      const demo = await prepare({ ...readConfig({ NODE_ENV: 'production', SEED_DEMO: '1', SEED_NIGHTS: '0' }), webRoot: null }, db);
      await demo.app.close();
    } finally {
      await db.close();
      await drop();
    }
  });

  it('a code mailed outside production is still readable from this machine', async () => {
    const s = await start();
    const user = await createUser(s);
    await s.call('POST', '/login', { body: { email: user.email, password: user.password } });
    expect(await lastCode(s, user.email)).toMatch(/^\d+$/);
  });
});
