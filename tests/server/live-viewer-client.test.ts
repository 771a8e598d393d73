import { describe, expect, it } from 'vitest';
import { liveSuite } from './live-suite';
import WebSocket from 'ws';
import { TEST_DB } from './helpers';
import { shortSource, until } from './live-helpers';
import { DeviceClient } from '../../server/live/device-client';
import { LiveStream } from '../../src/features/live/stream';
import { LiveSeries } from '../../src/features/live/series';

/**
 * The web client of /api/v1/stream (src/features/live/stream.ts) against the real server:
 * it authenticates in its first message, and after the server drops every socket it
 * reconnects by itself and resubscribes from the last seq it saw, so every frame arrives
 * once or is named in a "skipped" range (read from storage by the screens).
 */
describe(`live viewer client on ${TEST_DB}`, () => {
  const live = liveSuite();

  it('resumes after the server drops it: no frame lost, none twice, samples placed by index', async () => {
    const stream = new LiveStream(() => live.device.token, `${live.base.replace('http', 'ws')}/api/v1/stream`, WebSocket);
    const seqs: number[] = [];
    const skipped: [number, number][] = [];
    let br: LiveSeries | null = null;
    const states: string[] = [];
    stream.onConnection((s) => states.push(s));
    const off = stream.watch('NCT0001', {
      subscribed: (msg) => {
        const c = msg.channels.find((ch) => ch.code === 'BR');
        if (c && (!br || br.t0Ms !== c.t0Ms)) br = new LiveSeries('BR', c.rate, c.t0Ms, true);
      },
      frame: (f) => {
        seqs.push(f.header.seq);
        if (!br) return stream.resubscribe('NCT0001');
        for (const c of f.channels) if (c.code === 'BR') br.put(c.at, c.samples);
      },
      skipped: (m) => skipped.push([m.fromSeq, m.toSeq]),
    });
    await until(() => stream.connection === 'open', 10_000, 'viewer ready');

    const source = shortSource('viewer-client');
    const client = new DeviceClient({ server: live.base, deviceId: 'NCT0001', key: live.device.key, source, speed: 100 });
    client.start();
    try {
      await until(() => seqs.length >= 5, 20_000, 'first frames');
      // Every socket of the server goes, as in a restart: device and viewer both come back by themselves.
      for (const socket of live.server.app.websocketServer.clients) socket.terminate();
      await until(() => states.includes('closed'), 5_000, 'viewer saw the drop');
      await client.done;
      await until(() => seqs.length + skipped.reduce((n, [a, b]) => n + b - a + 1, 0) >= client.ackMs.length, 20_000, 'every frame seen or skipped');
    } finally {
      client.stop();
      off();
      stream.close();
    }
    expect(states.filter((s) => s === 'open').length).toBeGreaterThanOrEqual(2);
    const [{ last }] = await live.server.db.query<{ last: number }>('select max(seq)::int as last from live_frames where device_master_id = $1', [live.device.deviceMasterId]);
    const covered = new Set(seqs);
    for (const [a, b] of skipped) for (let s = a; s <= b; s++) covered.add(s);
    // Frames before the viewer subscribed are not sent (it asked for the newest only); from its first frame on, none is missing.
    const first = Math.min(...seqs);
    const missing = [];
    for (let s = first; s <= last; s++) if (!covered.has(s)) missing.push(s);
    expect(missing).toEqual([]);
    expect(new Set(seqs).size).toBe(seqs.length);
    // The BR samples that arrived sit where the device put them.
    const sourceBr = source.find((c) => c.code === 'BR')!;
    const series = br as LiveSeries | null;
    expect(series).not.toBeNull();
    let compared = 0;
    for (let i = 0; i < series!.length; i++) {
      const v = series!.view(i, i + 1)[0]!;
      if (Number.isNaN(v)) continue;
      expect(v).toBeCloseTo(sourceBr.samples[i]! * sourceBr.scale + sourceBr.offset, 3);
      compared++;
    }
    expect(compared).toBeGreaterThan(100);
  }, 90_000);
});
