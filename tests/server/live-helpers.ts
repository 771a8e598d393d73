import WebSocket from 'ws';
import type { TestServer } from './helpers';
import { issueToken } from '../../server/auth/tokens';
import { DEMO_ACCOUNTS } from './helpers';
import { simulateNight } from '../../server/simulator';
import { liveSource } from '../../server/live/device-client';
import type { ChannelData } from '../../server/recordings/model';

/** A session token of a demo account, without the sign-in flow. */
export async function tokenOf(server: TestServer, email: string): Promise<string> {
  const [u] = await server.db.query<{ id: number }>('select id from users where email = $1', [email]);
  return issueToken(server.db, u.id, 'session');
}

/** The demo physician's device NCT0001 with a fresh key issued through the route. */
export async function demoDeviceWithKey(server: TestServer, deviceId = 'NCT0001'): Promise<{ deviceMasterId: number; key: string; token: string }> {
  const token = await tokenOf(server, DEMO_ACCOUNTS.physician);
  const [d] = await server.db.query<{ device_master_id: number }>('select device_master_id from devices where device_id = $1', [deviceId]);
  const res = await server.call('POST', '/device/keys/issue', { token, body: { device_master_id: d.device_master_id } });
  if (res.statusCode !== 201) throw new Error(`issue key: ${res.statusCode} ${res.body}`);
  return { deviceMasterId: d.device_master_id, key: res.json().data.key, token };
}

/** Ten minutes of a simulated night's live channels, starting now. */
export function shortSource(seed = 'live-test'): ChannelData[] {
  return liveSource(simulateNight({ seed, startMs: Math.floor(Date.now() / 1000) * 1000, durationMs: 10 * 60_000 }).channels);
}

/** A WebSocket that collects every message it receives, JSON and binary apart. */
export class Collector {
  readonly json: Record<string, unknown>[] = [];
  readonly binary: Buffer[] = [];
  closeCode: number | null = null;
  readonly socket: WebSocket;
  readonly opened: Promise<void>;
  constructor(url: string) {
    this.socket = new WebSocket(url);
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.on('message', (data, isBinary) => {
      if (isBinary) this.binary.push(data as Buffer);
      else this.json.push(JSON.parse(data.toString()));
    });
    this.socket.on('close', (code) => (this.closeCode = code));
  }

  send(msg: unknown): void {
    this.socket.send(typeof msg === 'string' || msg instanceof Uint8Array ? msg : JSON.stringify(msg));
  }

  /** Waits until a JSON message matches (already received or arriving within timeoutMs). */
  async next(match: (m: Record<string, unknown>) => boolean, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = this.json.find(match);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no matching message in ${timeoutMs} ms; got ${JSON.stringify(this.json.slice(-5))}`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }

  async closed(timeoutMs = 10_000): Promise<number> {
    const until = Date.now() + timeoutMs;
    while (this.closeCode === null) {
      if (Date.now() > until) throw new Error('socket did not close');
      await new Promise((r) => setTimeout(r, 20));
    }
    return this.closeCode;
  }

  close(): void {
    this.socket.close();
  }
}

/** Polls until fn is true. */
export async function until(fn: () => boolean | Promise<boolean>, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (!(await fn())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}
