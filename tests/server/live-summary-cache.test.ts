// A live night's figures (issue 34 point 2, decision 0980): its summary is computed once and
// kept by (recording, committed samples) for LIVE_ANALYSIS_SECONDS (30 here), shared by
// concurrent readers; notifications and triage store nothing of a night still recording and
// the full night's count once it has ended.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeviceClient, liveSource } from '../../server/live/device-client';
import { simulateNight } from '../../server/simulator';
import { liveProgress } from '../../server/analytics/liveCache';
import { queriesOf, TEST_DB, type TestServer } from './helpers';
import { demoDeviceWithKey, until } from './live-helpers';
import { liveSuite } from './live-suite';

/** Queries that read a channel's samples: one or more for each computation of the night's figures. */
const sampleReads = (sql: string[]) => sql.filter((q) => q.includes('from recording_chunks')).length;

/** An hour of a simulated night, 12 s of data a frame (five frames a second). */
function streamingDevice(base: string, key: string, seed: string, deviceId = 'NCT0001'): DeviceClient {
  const source = liveSource(simulateNight({ seed, startMs: Math.floor(Date.now() / 1000) * 1000, durationMs: 3_600_000 }).channels);
  return new DeviceClient({ server: base, deviceId, key, source, speed: 60 });
}

async function nightOf(server: TestServer, recordingId: number) {
  const [r] = await server.db.query<{ patient_id: number; night_key: number }>('select patient_id, night_key from recordings where id = $1', [recordingId]);
  return r;
}

describe(`a live night's summary on ${TEST_DB}`, () => {
  const live = liveSuite();
  afterEach(() => vi.useRealTimers());

  it('is computed once within the interval, again after it with the new frames, once for concurrent readers', async () => {
    const { server, base, device } = live;
    const client = streamingDevice(base, device.key, 'live-summary-cache');
    client.start();
    await until(() => client.ackMs.length >= 3, 20_000, 'first acks');
    const { patient_id, night_key } = await nightOf(server, client.recordingId!);
    const summary = async () => {
      const res = await server.call('POST', '/analytics/patient/all-kpi-summary', { token: device.token, body: { patient_id, night: night_key } });
      expect(res.statusCode).toBe(200);
      return res.json().data as { total_bed_time: number; good_signal_duration: number };
    };
    let first: Awaited<ReturnType<typeof summary>> | null = null;
    expect(sampleReads(await queriesOf(server, async () => (first = await summary())))).toBeGreaterThan(0);
    const acks = client.ackMs.length;
    await until(() => client.ackMs.length >= acks + 10, 20_000, 'ten more frames (two minutes of data)');

    // New frames committed, but within the interval: the kept figures, no sample read.
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    let second: Awaited<ReturnType<typeof summary>> | null = null;
    expect(sampleReads(await queriesOf(server, async () => (second = await summary())))).toBe(0);
    expect(second!.total_bed_time).toBe(first!.total_bed_time);

    // The interval past: computed again, with the new frames.
    vi.setSystemTime(Date.now() + 31_000);
    let third: Awaited<ReturnType<typeof summary>> | null = null;
    const once = sampleReads(await queriesOf(server, async () => (third = await summary())));
    expect(once).toBeGreaterThan(0);
    expect(third!.total_bed_time).toBeGreaterThan(first!.total_bed_time);

    // Two readers at once after the next interval share one computation. Both figures are kept
    // by the night's committed samples, which an ack alone does not prove grew (a loaded machine
    // commits in groups): wait until the stored count itself has moved on.
    const grown = (await liveProgress(server.db, client.recordingId!)).samples;
    await until(async () => (await liveProgress(server.db, client.recordingId!)).samples > grown, 20_000, 'more committed samples');
    vi.setSystemTime(Date.now() + 31_000);
    let pair: Array<Awaited<ReturnType<typeof summary>>> = [];
    const both = sampleReads(await queriesOf(server, async () => (pair = await Promise.all([summary(), summary()]))));
    expect(both).toBe(once);
    // The same figures; the recording's stop is read from its row for each answer, and a frame
    // committed between the two reads moves it on (seen in CI: 12 s apart).
    const figures = (s: (typeof pair)[number]) => ({ ...s, recording_stop_time: 0 });
    expect(figures(pair[0]!)).toEqual(figures(pair[1]!));
    vi.useRealTimers();
    client.finish();
    await client.done;
    await server.app.nightStats.idle();
  }, 120_000);

  it('notifications and triage store nothing while the night records, the full night once it has ended', async () => {
    const { server, base, device } = live;
    // Another patient's device: the first test's ended night would be "the night" of this one's key.
    const other = await demoDeviceWithKey(server, 'NCT0002');
    const client = streamingDevice(base, other.key, 'live-summary-notify', 'NCT0002');
    client.start();
    await until(() => client.ackMs.length >= 3, 20_000, 'first acks');
    const recordingId = client.recordingId!;
    const stored = async () => ({
      notifications: await server.db.query<{ apnea_events: number }>('select apnea_events from physician_notifications where recording_id = $1', [recordingId]),
      analyses: await server.db.query<{ kpis: { apneas: number; hypopneas: number } }>('select kpis from night_analyses where recording_id = $1', [recordingId]),
    });
    const pass = async () => {
      expect((await server.call('POST', '/physician/generate-notifications', { token: device.token })).statusCode).toBe(200);
      expect((await server.call('POST', '/physician/triage/prepare', { token: device.token, body: {} })).statusCode).toBe(200);
      const triage = (await server.call('GET', '/physician/triage', { token: device.token })).json().data as { patients: Array<{ nights: Array<{ recording_id?: number }> }> };
      return triage.patients.flatMap((p) => p.nights).some((n) => n.recording_id === recordingId);
    };

    expect(await pass()).toBe(false);
    expect(await stored()).toEqual({ notifications: [], analyses: [] });

    client.finish();
    await client.done;
    await server.app.nightStats.idle();
    await pass();
    const after = await stored();
    expect(after.analyses).toHaveLength(1);
    const { apneas, hypopneas } = after.analyses[0].kpis;
    expect(after.notifications).toEqual([{ apnea_events: apneas + hypopneas }]);
  }, 120_000);
});
