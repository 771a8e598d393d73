import { EventEmitter } from 'node:events';
import { vi } from 'vitest';
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

/** `minutes` (ten unless told) of a simulated night's live channels, starting now. */
export function shortSource(seed = 'live-test', minutes = 10): ChannelData[] {
  return liveSource(simulateNight({ seed, startMs: Math.floor(Date.now() / 1000) * 1000, durationMs: minutes * 60_000 }).channels);
}

/**
 * Waits until `find` returns something, checking after each `event` of `emitter`; rejects
 * after timeoutMs with `what()`. The timer is a bound on the wait, never a pause.
 */
function whenFound<T>(emitter: EventEmitter, event: string, find: () => T | undefined, timeoutMs: number, what: () => string): Promise<T> {
  const now = find();
  if (now !== undefined) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const check = () => {
      const found = find();
      if (found === undefined) return;
      stop();
      resolve(found);
    };
    const timer = setTimeout(() => {
      stop();
      reject(new Error(what()));
    }, timeoutMs);
    const stop = () => {
      clearTimeout(timer);
      emitter.off(event, check);
    };
    emitter.on(event, check);
  });
}

/** A WebSocket that collects every message it receives, JSON and binary apart. */
export class Collector {
  readonly json: Record<string, unknown>[] = [];
  readonly binary: Buffer[] = [];
  closeCode: number | null = null;
  readonly socket: WebSocket;
  readonly opened: Promise<void>;
  /** Emits 'change' after each message and on close. */
  private readonly changes = new EventEmitter();
  constructor(url: string) {
    this.socket = new WebSocket(url);
    this.opened = new Promise((resolve, reject) => {
      this.socket.once('open', () => resolve());
      this.socket.once('error', reject);
    });
    this.socket.on('message', (data, isBinary) => {
      if (isBinary) this.binary.push(data as Buffer);
      else this.json.push(JSON.parse(data.toString()));
      this.changes.emit('change');
    });
    this.socket.on('close', (code) => {
      this.closeCode = code;
      this.changes.emit('change');
    });
  }

  send(msg: unknown): void {
    this.socket.send(typeof msg === 'string' || msg instanceof Uint8Array ? msg : JSON.stringify(msg));
  }

  /** Waits until a JSON message matches (already received or arriving within timeoutMs). */
  next(match: (m: Record<string, unknown>) => boolean, timeoutMs = 10_000): Promise<Record<string, unknown>> {
    return whenFound(this.changes, 'change', () => this.json.find(match), timeoutMs, () => `no matching message in ${timeoutMs} ms; got ${JSON.stringify(this.json.slice(-5))}`);
  }

  /** Waits until a binary message matches (already received or arriving within timeoutMs). */
  nextBinary(match: (b: Buffer) => boolean, timeoutMs = 10_000): Promise<Buffer> {
    return whenFound(this.changes, 'change', () => this.binary.find(match), timeoutMs, () => `no matching binary message in ${timeoutMs} ms (${this.binary.length} received)`);
  }

  /** Waits for the close (within timeoutMs) and answers its code. */
  closed(timeoutMs = 10_000): Promise<number> {
    return whenFound(this.changes, 'change', () => this.closeCode ?? undefined, timeoutMs, () => 'socket did not close');
  }

  close(): void {
    this.socket.close();
  }
}

/** Polls fn every 25 ms until it is true; fails with `what` after timeoutMs. */
export async function until(fn: () => boolean | Promise<boolean>, timeoutMs = 20_000, what = 'condition'): Promise<void> {
  await vi.waitFor(
    async () => {
      if (!(await fn())) throw new Error(`timed out waiting for ${what}`);
    },
    { timeout: timeoutMs, interval: 25 },
  );
}
