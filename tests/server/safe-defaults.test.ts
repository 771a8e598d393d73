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
