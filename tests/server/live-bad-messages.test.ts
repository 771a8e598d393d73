import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { LIVE_PROTOCOL } from '../../contract/live-protocol';
import { MAX_VIEWER_SOCKETS_PER_USER } from '../../server/live/viewer-socket';
import { liveSuite } from './live-suite';
import { until } from './live-helpers';

/** Issue 33 point 7: bad live messages cost the sender (an error frame, closed after a few), not the server's log. */

const live = liveSuite();

const wsUrl = (path: string) => `${live.base.replace('http', 'ws')}/api/v1${path}`;
const opened = (ws: WebSocket) => new Promise<void>((resolve, reject) => ws.once('open', () => resolve()).once('error', reject));
const closedWith = (ws: WebSocket) => new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));

async function viewer(): Promise<WebSocket> {
  const ws = new WebSocket(wsUrl('/stream'));
  await opened(ws);
  const ready = new Promise<void>((resolve) => ws.on('message', (m) => JSON.parse(m.toString()).type === 'ready' && resolve()));
  ws.send(JSON.stringify({ type: 'auth', token: live.device.token }));
  await ready;
  return ws;
}

/** Lines the server logs while fn runs. */
async function logLines(fn: () => Promise<void>): Promise<number> {
  const before = live.server.log.raw.length;
  await fn();
  return live.server.log.raw.length - before;
}

describe('bad live messages', () => {
  it('1,000 bad viewer messages (fromSeq 1e308, junk, unknown types) write at most 10 log lines and close the socket', async () => {
    const lines = await logLines(async () => {
      const ws = await viewer();
      const errors: string[] = [];
      ws.on('message', (m) => errors.push(JSON.parse(m.toString()).code));
      const closed = closedWith(ws);
      const bad = [JSON.stringify({ type: 'subscribe', deviceId: 'NCT0001', fromSeq: 1e308 }), 'not json', JSON.stringify({ type: 'nonsense' })];
      for (let i = 0; i < 1000 && ws.readyState === ws.OPEN; i++) ws.send(bad[i % bad.length]!);
      expect(await closed).toBe(1008);
      expect(errors.length).toBeGreaterThan(0);
      expect(errors.every((c) => c === 'bad_message')).toBe(true);
    });
    expect(lines).toBeLessThanOrEqual(10);
  });

  it(`at most ${MAX_VIEWER_SOCKETS_PER_USER} viewer connections per user: the next is refused and closed`, async () => {
    const sockets = await Promise.all(Array.from({ length: MAX_VIEWER_SOCKETS_PER_USER }, viewer));
    const extra = new WebSocket(wsUrl('/stream'));
    await opened(extra);
    const closed = closedWith(extra);
    extra.send(JSON.stringify({ type: 'auth', token: live.device.token }));
    expect(await closed).toBe(1008);
    for (const s of sockets) s.close();
    await until(() => sockets.every((s) => s.readyState === s.CLOSED), 10_000, 'viewers closed');
    // Their places are free again.
    const again = await viewer();
    again.close();
  });

  it('a device hello with sessionStartMs 1e20 is refused in one frame and closed, without a stack in the log', async () => {
    const lines = await logLines(async () => {
      const ws = new WebSocket(wsUrl('/device/live'));
      await opened(ws);
      const frames: string[] = [];
      ws.on('message', (m) => frames.push(m.toString()));
      const closed = closedWith(ws);
      ws.send(JSON.stringify({ type: 'hello', protocol: LIVE_PROTOCOL, deviceId: 'NCT0001', key: live.device.key, sessionStartMs: 1e20, channels: ['HR'] }));
      expect(await closed).toBe(4400);
      expect(frames.join('')).toContain('sessionStartMs');
    });
    expect(lines).toBeLessThanOrEqual(1);
  });
});
