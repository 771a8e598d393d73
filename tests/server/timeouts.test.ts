import { once } from 'node:events';
import { readdirSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';
import { until } from './live-helpers';

/** Issue 33 point 5: stalled bodies are closed within the idle timeout; slow but steady ones are answered. */

const IDLE_MS = 1_000;
let server: TestServer;
let port = 0;
beforeAll(async () => {
  server = await startTestServer({ UPLOAD_IDLE_MS: String(IDLE_MS) });
  await server.app.listen({ port: 0, host: '127.0.0.1' });
  port = (server.app.server.address() as { port: number }).port;
});
afterAll(() => server.close());

const openFiles = () => readdirSync('/proc/self/fd').length;
const open = () =>
  new Promise<Socket>((resolve, reject) => {
    const s = connect(port, '127.0.0.1', () => resolve(s));
    s.on('error', reject);
  });
const closed = (s: Socket) => new Promise<void>((resolve) => (s.destroyed ? resolve() : s.once('close', () => resolve())));
/**
 * Waits ms with the socket open: rejects at once if the server closes it meanwhile (the pace
 * of a slow client is what the idle limit is measured against, so this wait is real time).
 */
const staysOpen = (s: Socket, ms: number) =>
  new Promise<void>((resolve, reject) => {
    const early = () => {
      clearTimeout(timer);
      reject(new Error(`the server closed the socket within ${ms} ms`));
    };
    const timer = setTimeout(() => {
      s.off('close', early);
      resolve();
    }, ms);
    s.once('close', early);
  });
const answer = (s: Socket) => {
  let text = '';
  s.on('data', (d) => (text += d.toString()));
  return () => text;
};

describe('timeouts', () => {
  it('200 requests that send their headers and stall in the body are all closed within the idle timeout; file handles come back', async () => {
    const before = openFiles();
    const sockets = await Promise.all(Array.from({ length: 200 }, open));
    const started = Date.now();
    for (const s of sockets) {
      s.on('error', () => undefined); // a reset by the server is the expected end
      s.write('POST /api/v1/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100000\r\n\r\n{"email":"');
    }
    await Promise.all(sockets.map(closed));
    expect(Date.now() - started).toBeLessThan(IDLE_MS * 4);
    await until(() => openFiles() <= before + 2, 10_000, 'file handles back to normal');
  });

  it('a slow body that keeps sending (a chunk every 300 ms, 2.4 s in all, idle limit 1 s) is answered', async () => {
    const s = await open();
    const text = answer(s);
    const body = JSON.stringify({ email: 'slow@nowhere.test', password: 'x'.repeat(70) });
    const chunks = body.match(/.{1,12}/g)!;
    s.write(`POST /api/v1/login HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`);
    for (const c of chunks.slice(0, 8)) {
      s.write(c);
      await staysOpen(s, 300);
    }
    s.write(chunks.slice(8).join(''));
    await until(() => /\r\n\r\n\{.*\}/s.test(text()), 10_000, 'the answer');
    expect(text()).toMatch(/^HTTP\/1\.1 401/);
    s.destroy();
  });

  it('an upload refused before its body is read closes its connection, so nothing waits behind the unread body', async () => {
    const s = await open();
    s.on('error', () => undefined);
    const text = answer(s);
    s.write('POST /api/v1/patient/upload-recording HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 50000000\r\n\r\n--b\r\n');
    await closed(s);
    expect(text()).toMatch(/^HTTP\/1\.1 401/);
    expect(text().toLowerCase()).toContain('connection: close');
    // The next request (on a new connection, as a client does after a close) is answered at once.
    const next = await fetch(`http://127.0.0.1:${port}/api/v1/user`);
    expect(next.status).toBe(401);
  });

  it('a client that aborts its upload mid-body is logged as an abort, not as a lost database', async () => {
    const { token } = await signIn(server, DEMO_ACCOUNTS.physician);
    const before = server.log.raw.length;
    const lines = () => server.log.messages().slice(before);
    const arrived = once(server.app.server, 'request') as Promise<[IncomingMessage]>;
    const s = await open();
    s.on('error', () => undefined);
    const head =
      `POST /api/v1/patient/upload-recording HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${token}\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: 5000000\r\n\r\n` +
      '--b\r\nContent-Disposition: form-data; name="files"; filename="night.edf"\r\n\r\n';
    s.write(head);
    s.write(Buffer.alloc(200_000, 0x20));
    // Mid-body: the server has read everything sent so far, and more is announced.
    const [request] = await arrived;
    await until(() => request.socket.bytesRead >= Buffer.byteLength(head) + 200_000, 10_000, 'the server to read the body sent so far');
    s.destroy();
    await until(() => lines().length > 0, 10_000, 'a log line');
    expect(lines().join('\n')).toMatch(/aborted/);
    expect(lines().join('\n')).not.toMatch(/Database unavailable/i);
  });
});
