import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { ConfigError, readConfig } from '../../server/config';
import { createLogger } from '../../server/log';
import { LIVE_PROTOCOL } from '../../contract/live-protocol';
import { linkSecret, signLink } from '../../server/services/signed-links';
import { captureLog, createUser, lastCode, startTestServer, type TestServer } from './helpers';

/** Issue 33 point 8: the server's log (pino) never carries a credential, a code, a token, a device key or a link signature. */

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

describe('the logger', () => {
  it('redacts every secret field and withholds URL query values', () => {
    const log = captureLog();
    const logger = createLogger('info', log.stream);
    const secrets = {
      authorization: 'Bearer tok-a1',
      cookie: 'session=cookie-b2',
      password: 'pass-c3',
      new_password: 'pass-d4',
      current_password: 'pass-e5',
      otp: '491823',
      token: 'tok-f6',
      reset_token: 'tok-g7',
      key: 'devkey-h8',
      device_key: 'devkey-i9',
      sig: 'sig-j10',
    };
    logger.info({ ...secrets, body: secrets, headers: secrets, req: { id: 'r-1', method: 'GET', url: '/api/v1/x?exp=1&sig=sig-k11', routeOptions: { url: '/api/v1/x' }, headers: secrets } }, 'a request');
    logger.child({ module: 'live' }).warn({ hello: { key: 'devkey-l12' }, url: '/s3/night-file/1?signature=sig-m13' }, 'a device');
    const text = log.raw.join('');
    for (const value of [...Object.values(secrets), 'sig-k11', 'devkey-l12', 'sig-m13', '491823']) expect(text).not.toContain(value);
    const [first, second] = log.lines();
    expect(first!.req).toEqual({ id: 'r-1', method: 'GET', route: '/api/v1/x', url: '/api/v1/x?exp=…&sig=…' });
    expect(second).toMatchObject({ module: 'live', url: '/s3/night-file/1?signature=…', msg: 'a device' });
  });
});

describe('LOG_LEVEL', () => {
  it('is info by default, takes pino level names and refuses others', () => {
    expect(readConfig({}).logLevel).toBe('info');
    expect(readConfig({ LOG_LEVEL: 'DEBUG' }).logLevel).toBe('debug');
    expect(() => readConfig({ LOG_LEVEL: 'verbose' })).toThrow(ConfigError);
  });
});

describe('a server at LOG_LEVEL=debug', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ LOG_LEVEL: 'debug' });
  }, 60_000);
  afterAll(() => server?.close());

  it('logs requests carrying each kind of secret with their route and id, and none of the secrets', async () => {
    const password = 'pw-7f3a9c-secret';
    const user = await createUser(server, { password });
    expect((await server.call('POST', '/login', { body: { email: user.email, password } })).statusCode).toBe(200);
    const otp = await lastCode(server, user.email);
    const verified = await server.call('POST', '/verify-otp', { body: { email: user.email, otp } });
    expect(verified.statusCode).toBe(202);
    const token: string = verified.json().data.token;
    const cookie = 'nocturne_session=cookie-5e1d-secret';
    await server.app.inject({ method: 'GET', url: '/api/v1/user', headers: { authorization: `Bearer ${token}`, cookie } });
    const resetToken = 'reset-9b2c-secret';
    await server.call('PATCH', '/reset-password', { body: { email: user.email, reset_token: resetToken, password: 'pw-new-4d8e-secret' } });
    const link = signLink(await linkSecret(server.db), 'night:999999');
    const sig = new URLSearchParams(link).get('sig')!;
    await server.call('GET', `/s3/analytics/night-file/999999?${link}`);
    const deviceKey = 'devkey-2a6f-secret';
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const ws = new WebSocket(`ws://127.0.0.1:${port}/api/v1/device/live`);
    await new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
    const closed = new Promise<void>((resolve) => ws.once('close', () => resolve()));
    ws.send(JSON.stringify({ type: 'hello', protocol: LIVE_PROTOCOL, deviceId: 'NCT0001', key: deviceKey, sessionStartMs: Date.now(), channels: ['HR'] }));
    await closed;

    const text = server.log.raw.join('');
    for (const secret of [password, otp, token, 'cookie-5e1d-secret', resetToken, 'pw-new-4d8e-secret', sig, deviceKey]) expect(text).not.toContain(secret);

    const lines = server.log.lines();
    const routes = lines.map((l) => (l.req as { route?: string } | undefined)?.route);
    for (const route of ['/api/v1/login', '/api/v1/verify-otp', '/api/v1/user', '/api/v1/reset-password', '/api/v1/s3/analytics/night-file/:id']) expect(routes).toContain(route);
    // (The device socket's upgrade writes no request line; its hello, key included, is never logged.)
    const signed = lines.find((l) => (l.req as { route?: string } | undefined)?.route === '/api/v1/s3/analytics/night-file/:id')!;
    expect((signed.req as { url: string }).url).toBe('/api/v1/s3/analytics/night-file/999999?exp=…&sig=…');
    // One line per request, naming it by an id of ours.
    const incoming = lines.filter((l) => l.msg === 'request completed');
    expect(incoming.every((l) => UUID.test(String(l.reqId)) && (l.req as { id: string }).id === l.reqId)).toBe(true);
    expect(new Set(incoming.map((l) => l.reqId)).size).toBe(incoming.length);
  });

  it('takes no request id from the client', async () => {
    const before = server.log.raw.length;
    await server.app.inject({ method: 'GET', url: '/api/v1/user', headers: { 'request-id': 'forged-id', 'x-request-id': 'forged-id' } });
    const lines = server.log.lines().slice(before);
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line.reqId).toMatch(UUID);
  });
});
