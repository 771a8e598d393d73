import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, TEST_DB } from './helpers';
import { Collector, shortSource, until } from './live-helpers';
import { freePort, issueKeyHttp, killHard, sharedDb, signInHttp, startServerProcess, stopGracefully, type ServerProcess } from './live-processes';
import { DeviceClient } from '../../server/live/device-client';
import { decodeFrame } from '../../contract/live-protocol';
import { listChannels, loadSamples } from '../../server/recordings/store';

/** Real server processes (server/main.ts): a crash mid-stream, and two processes on one PostgreSQL. */
describe(`live devices across server processes (${TEST_DB})`, () => {
  const running: ServerProcess[] = [];
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const p of running) await killHard(p);
    for (const c of cleanups) await c();
  });

  async function setup() {
    const dir = await mkdtemp(path.join(tmpdir(), 'nocturne-live-'));
    const db = await sharedDb(TEST_DB, dir, undefined, inject('pgliteClusterDir'));
    cleanups.push(async () => {
      await db.drop();
      await rm(dir, { recursive: true, force: true });
    });
    return db;
  }

  it('kill -9 mid-stream, restart: the stored night has every sequence number exactly once', async () => {
    const db = await setup();
    const port = await freePort();
    let server = await startServerProcess(db.env, port);
    running.push(server);
    const token = await signInHttp(server.url, DEMO_ACCOUNTS.physician, DEMO_PASSWORD);
    const key = await issueKeyHttp(server.url, token, 'NCT0001');
    const source = shortSource('fault');
    const client = new DeviceClient({ server: server.url, deviceId: 'NCT0001', key, source, speed: 60 });
    client.start();
    await until(() => client.ackMs.length >= 5, 30_000, 'acks before the crash');
    await killHard(server);
    server = await startServerProcess(db.env, port);
    running.push(server);
    await client.done;
    expect(client.connects).toBeGreaterThanOrEqual(2);
    expect(client.errors).toEqual([]);
    await stopGracefully(server);

    const check = await db.open();
    try {
      // The ended night's frames were pruned into its totals: rows unique on (device, seq), as many as seqs 0 … last.
      expect(await check.query('select 1 from live_frames')).toEqual([]);
      const [totals] = await check.query<{ frames: number; first_seq: number; last_seq: number }>('select frames, first_seq, last_seq from live_frame_totals');
      expect(totals!.frames).toBeGreaterThan(10);
      expect(totals).toEqual({ frames: totals!.last_seq + 1, first_seq: 0, last_seq: client.framesMade - 1 });
      const [rec] = await check.query<{ id: number }>("select id from recordings where source = 'device'");
      const channels = await listChannels(check, [rec.id]);
      for (const c of source) {
        const stored = channels.find((s) => s.code === c.code)!;
        expect(Array.from(await loadSamples(check, stored)), c.code).toEqual(Array.from(c.samples));
      }
    } finally {
      await check.close();
    }
  }, 180_000);

  if (TEST_DB === 'postgres') {
    it('a viewer on process B sees a device streaming to process A (LISTEN/NOTIFY)', async () => {
      const db = await setup();
      const a = await startServerProcess(db.env, await freePort());
      running.push(a);
      const b = await startServerProcess(db.env, await freePort());
      running.push(b);
      const token = await signInHttp(b.url, DEMO_ACCOUNTS.physician, DEMO_PASSWORD);
      const key = await issueKeyHttp(a.url, token, 'NCT0001');
      const viewer = new Collector(`${b.url.replace('http', 'ws')}/api/v1/stream`);
      await viewer.opened;
      viewer.send({ type: 'auth', token });
      await viewer.next((m) => m.type === 'ready');
      viewer.send({ type: 'subscribe', deviceId: 'NCT0001' });
      await viewer.next((m) => m.type === 'subscribed');

      const source = shortSource('two-processes');
      const client = new DeviceClient({ server: a.url, deviceId: 'NCT0001', key, source, speed: 60 });
      client.start();
      await until(() => viewer.binary.length >= 5, 30_000, 'frames at the viewer on B');
      client.stop();
      const seqs = viewer.binary.map((b) => (decodeFrame(new Uint8Array(b)).header as { seq: number }).seq);
      expect(seqs).toEqual(seqs.map((_, i) => seqs[0]! + i));
      const first = decodeFrame(new Uint8Array(viewer.binary[0]!));
      const header = first.header as { channels: { code: string; n: number; at: number }[] };
      const hr = source.find((c) => c.code === 'HR')!;
      let offset = 0;
      for (const ch of header.channels) {
        if (ch.code === 'HR' && ch.n > 0) expect(first.samples[offset]).toBeCloseTo(hr.samples[ch.at]!, 4);
        offset += ch.n;
      }

      // A second viewer on B resuming from seq 0 gets the frames it missed first.
      const resumed = new Collector(`${b.url.replace('http', 'ws')}/api/v1/stream`);
      await resumed.opened;
      resumed.send({ type: 'auth', token });
      await resumed.next((m) => m.type === 'ready');
      resumed.send({ type: 'subscribe', deviceId: 'NCT0001', fromSeq: 0 });
      await until(() => resumed.binary.length >= 3, 10_000, 'catch-up frames');
      expect((decodeFrame(new Uint8Array(resumed.binary[0]!)).header as { seq: number }).seq).toBe(1);
      viewer.close();
      resumed.close();
    }, 180_000);
  }
});
