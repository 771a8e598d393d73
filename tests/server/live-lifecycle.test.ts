import { describe, expect, it } from 'vitest';
import { liveSuite } from './live-suite';
import { TEST_DB } from './helpers';
import { Collector, shortSource, tokenOf, until } from './live-helpers';
import { DEMO_ACCOUNTS } from './helpers';
import { DeviceClient } from '../../server/live/device-client';
import { DEFAULT_CONFIG } from '../../server/live/device-config';
import { closeOfflineSessions } from '../../server/live/ingest';
import { OFFLINE_AFTER_MS } from '../../contract/live-protocol';
import { listChannels, loadSamples } from '../../server/recordings/store';
import type { ChannelData } from '../../server/recordings/model';
import { validSampleCount } from '../../engine/valid-count';

/** Issue 15, the rest: live streaming off, channels as configured, offline nights closed and frames pruned, viewer sessions rechecked. */
describe(`live lifecycle on ${TEST_DB}`, () => {
  const live = liveSuite();
  const ws = (path: string) => new Collector(`${live.base.replace('http', 'ws')}/api/v1${path}`);
  const update = (config: unknown) => live.server.call('POST', '/datahub/update_device_config', { token: live.device.token, body: { device_master_id: live.device.deviceMasterId, config } });
  const status = async () => {
    const res = await live.server.call('GET', '/datahub/get_physician_devices_config', { token: live.device.token });
    return res.json().data.devices.find((d: { device_master_id: number }) => d.device_master_id === live.device.deviceMasterId) as { status: string; status_reason: string | null; version: number };
  };
  const committed = async (recordingId: number) => {
    const [r] = await live.server.db.query<{ n: number }>(
      `select ((select count(*) from live_frames where recording_id = $1) + coalesce((select frames from live_frame_totals where recording_id = $1), 0))::int as n`,
      [recordingId],
    );
    return r!.n;
  };
  async function stored(recordingId: number, code: string): Promise<number[]> {
    const channel = (await listChannels(live.server.db, [recordingId])).find((c) => c.code === code);
    return channel ? Array.from(await loadSamples(live.server.db, channel)) : [];
  }
  /** Each channel's stored valid count (read alone: its samples may be growing). */
  const storedValid = async (recordingId: number) => (await listChannels(live.server.db, [recordingId])).map((c) => (c.valid_count === null ? null : Number(c.valid_count)));
  /** Each channel's stored valid count, and what the engine's rule counts in its stored samples (a night not growing). */
  async function validCounts(recordingId: number): Promise<{ stored: (number | null)[]; counted: number[] }> {
    const channels = await listChannels(live.server.db, [recordingId]);
    const counted = await Promise.all(
      channels.map(async (c) => validSampleCount({ code: c.code, samples: await loadSamples(live.server.db, c), scale: c.scale, offset: c.offset_value, missingCodes: c.missing_codes })),
    );
    return { stored: channels.map((c) => (c.valid_count === null ? null : Number(c.valid_count))), counted };
  }
  async function expectStoredExactly(recordingId: number, source: ChannelData[]): Promise<void> {
    for (const c of source) expect(await stored(recordingId, c.code), c.code).toEqual(Array.from(c.samples));
  }

  it('streams the channels of the default configuration, I/Q included, as the Device Config screen shows them', () => {
    const source = shortSource('defaults');
    const client = new DeviceClient({ server: live.base, deviceId: 'NCT0001', key: live.device.key, source });
    expect(Object.keys(DEFAULT_CONFIG.channels)).toEqual(expect.arrayContaining(['I', 'Q', 'Y_DIST', 'BR', 'HR', 'MOV']));
    expect(client.streamingChannels.map((c) => c.code).sort()).toEqual(Object.keys(DEFAULT_CONFIG.channels).sort());
    for (const c of client.streamingChannels) expect(DEFAULT_CONFIG.channels[c.code], c.code).toBe(c.sampleRate);
  });

  it('follows its configuration: a channel turned off stops, live streaming off sends no samples but heartbeats, on again resumes with nothing lost', async () => {
    await live.server.db.query('delete from device_configs');
    const source = shortSource('lifecycle-off');
    const client = new DeviceClient({ server: live.base, deviceId: 'NCT0001', key: live.device.key, source, speed: 20 });
    client.start();
    try {
      await until(() => client.ackMs.length >= 2, 30_000, 'first acks');
      const { SPO2: _off, ...channels } = DEFAULT_CONFIG.channels;
      expect((await update({ ...DEFAULT_CONFIG, channels, live_streaming: false })).statusCode).toBe(200);
      await until(async () => (await status()).status === 'applied', 30_000, 'off applied');
      expect(client.streaming).toBe(false);
      expect(client.streamingChannels.map((c) => c.code)).not.toContain('SPO2');
      // Everything sent before it turned off is acked; then nothing more is sent, but it is heard from.
      await until(() => client.pending.size === 0, 30_000, 'acks drained');
      const frames = await committed(client.recordingId!);
      const heard = Date.now();
      await until(async () => {
        const [d] = await live.server.db.query<{ last_heard_ms: number }>('select last_heard_ms from device_live where device_master_id = $1', [live.device.deviceMasterId]);
        return Number(d!.last_heard_ms) >= heard - 1_000;
      }, 15_000, 'heartbeat');
      // For 1.5 s of its ticks (seven frames' worth) it stays heard from and sends no frame.
      await expect(until(async () => (await committed(client.recordingId!)) !== frames, 1_500, 'a frame while streaming is off')).rejects.toThrow('a frame while streaming is off');
      expect(await committed(client.recordingId!)).toBe(frames);
      expect(client.pending.size).toBe(0);

      // On again, SPO2 too: what it made meanwhile follows, so the night has no hole.
      expect((await update({ ...DEFAULT_CONFIG, live_streaming: true })).statusCode).toBe(200);
      await until(async () => (await status()).status === 'applied', 30_000, 'on applied');
      expect(client.streaming).toBe(true);
      await client.done;
    } finally {
      client.stop();
    }
    expect(client.errors).toEqual([]);
    await expectStoredExactly(client.recordingId!, source);
  }, 120_000);

  it('closes the night of a device gone offline without "end": compacted, frames pruned into totals; back in the same session it goes on', async () => {
    await live.server.db.query('delete from device_configs');
    const source = shortSource('lifecycle-offline');
    const client = new DeviceClient({ server: live.base, deviceId: 'NCT0001', key: live.device.key, source, speed: 20 });
    client.start();
    try {
      await until(() => client.ackMs.length >= 3, 30_000, 'first acks');
      const recordingId = client.recordingId!;
      // As the sweeper sees it 61 s later.
      const closed = await closeOfflineSessions(live.server.db, OFFLINE_AFTER_MS, Date.now() + OFFLINE_AFTER_MS + 1_000);
      expect(closed).toEqual([recordingId]);
      const [rec] = await live.server.db.query<{ meta: { live: boolean; offline_at?: number } }>('select recording_meta as meta from recordings where id = $1', [recordingId]);
      expect(rec!.meta.live).toBe(false);
      expect(rec!.meta.offline_at).toBeGreaterThan(0);
      const wires = await live.server.db.query('select 1 from recording_channel_wire w join recording_channels c on c.id = w.channel_id where c.recording_id = $1', [recordingId]);
      expect(wires.length).toBe(source.length);
      expect(await live.server.db.query('select 1 from live_frames where recording_id = $1', [recordingId])).toEqual([]);
      const [totals] = await live.server.db.query<{ frames: number; first_seq: number }>('select frames, first_seq from live_frame_totals where recording_id = $1', [recordingId]);
      expect(totals!.frames).toBeGreaterThanOrEqual(3);
      // Its channels' valid samples are counted as it closes (the night list reads them; the
      // device may reopen it at any moment, so they are held to its samples at its end below).
      expect((await storedValid(recordingId)).every((v) => v !== null), 'counted at close').toBe(true);
      // A second sweep finds nothing to close.
      expect(await closeOfflineSessions(live.server.db, OFFLINE_AFTER_MS, Date.now() + OFFLINE_AFTER_MS + 1_000)).toEqual([]);

      // The device was not gone after all: its next frame is refused unacked, it says hello again and its night goes on.
      await until(() => client.connects >= 2, 30_000, 'hello again');
      expect(client.recordingId).toBe(recordingId);
      // Live again: not counted while it grows (the night list reads its sample count).
      await until(async () => (await storedValid(recordingId)).every((v) => v === null), 30_000, 'valid counts dropped');
      await client.done;
      // Ended: counted again, over the whole night.
      await until(async () => (await storedValid(recordingId)).every((v) => v !== null), 30_000, 'valid counts made');
      const atEnd = await validCounts(recordingId);
      expect(atEnd.stored).toEqual(atEnd.counted);
      expect(client.errors).toEqual([]);
      await expectStoredExactly(recordingId, source);
      const validation = await live.server.call('GET', '/device/real-time-validation/did=NCT0001', { token: live.device.token });
      const row = validation.json().data.find((r: { recording_id: number }) => r.recording_id === recordingId);
      expect(row).toMatchObject({ frames: client.framesMade, missing_frames: 0 });
    } finally {
      client.stop();
    }
  }, 120_000);

  it('closes a viewer socket when its session expires, and at once when it signs out', async () => {
    const viewer = async (token: string) => {
      const v = ws('/stream');
      await v.opened;
      v.send({ type: 'auth', token });
      await v.next((m) => m.type === 'ready');
      v.send({ type: 'subscribe', deviceId: 'NCT0001' });
      await v.next((m) => m.type === 'subscribed');
      return v;
    };
    const expiring = await tokenOf(live.server, DEMO_ACCOUNTS.physician);
    await live.server.db.query(`update auth_tokens set absolute_expires_at = now() + interval '2 seconds' where id = (select max(id) from auth_tokens)`);
    const v1 = await viewer(expiring);
    const opened = Date.now();
    expect(await v1.closed(15_000)).toBe(4401);
    expect(Date.now() - opened).toBeLessThan(10_000);
    expect(v1.json.some((m) => m.type === 'error' && m.code === 'unauthorized')).toBe(true);

    const token = await tokenOf(live.server, DEMO_ACCOUNTS.physician);
    const v2 = await viewer(token);
    const other = await viewer(live.device.token);
    expect((await live.server.call('GET', '/logout', { token })).statusCode).toBeLessThan(300);
    expect(await v2.closed(5_000)).toBe(4401);
    // Another session of the same user stays open and keeps its subscription.
    await expect(other.closed(500)).rejects.toThrow('socket did not close');
    expect(other.closeCode).toBeNull();
    other.close();
  }, 60_000);
});
