import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateForPatient } from '../../server/simulator/simulated';
import { analysisOf } from '../../server/analytics/analyse';
import { channelStatsOf } from '../../server/analytics/channelStats';
import { invalidateNight } from '../../server/analytics/corrections';
import { analyticsSettings } from '../../server/analytics/settings';
import { listChannels, type RecordingRow } from '../../server/recordings/store';
import type { Queryable } from '../../server/db/adapter';
import { createUser, DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let physician = '';
let annotator = '';
let other = '';
let patientId = 0;
let recordingId = 0;
let night = 0;
let startMs = 0;
let stopMs = 0;

const HOUR = 3_600_000;

beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  annotator = (await signIn(server, DEMO_ACCOUNTS.annotator)).token;
  const foreign = await createUser(server);
  other = (await signIn(server, foreign.email)).token;
  patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1003'`))[0].id;
  [recordingId] = await simulateForPatient(server.db, { patientId, patientCode: 'NCT1003', deviceId: 'NCT0003', timezone: 'Europe/Zurich', nights: 1, profile: 'moderate_osa', lastEvening: '2026-03-09', seed: 'corrections-test' });
  const [r] = await server.db.query<{ night_key: number; start_ms: string; stop_ms: string }>('select night_key, start_ms, stop_ms from recordings where id = $1', [recordingId]);
  night = Number(r.night_key);
  startMs = Number(r.start_ms);
  stopMs = Number(r.stop_ms);
}, 180_000);
afterAll(() => server.close());

const summary = async (token = physician) => {
  const res = await server.call('POST', '/analytics/patient/all-kpi-summary', { token, body: { patient_id: patientId, night } });
  expect(res.statusCode).toBe(200);
  return res.json().data as { ahi: number; apneas: number; hypopneas: number; total_sleep_time: number; total_bed_time: number; bed_in_time: string; bed_out_time: string; percentiles: Record<string, { min: number }> };
};
const correct = (body: Record<string, unknown>, token = physician) => server.call('POST', '/analytics/patient/corrections', { token, body: { patient_id: patientId, night, ...body } });
const undo = (id: number, token = physician) => server.call('POST', '/analytics/patient/corrections/undo', { token, body: { patient_id: patientId, night, id } });
const list = (token = physician) => server.call('GET', `/analytics/patient/corrections?patient_id=${patientId}&night=${night}`, { token });
const samplesDigest = async () =>
  (await server.db.query<{ d: string }>(`select md5(string_agg(k.data::text, '' order by k.channel_id, k.seq)) as d from recording_chunks k join recording_channels c on c.id = k.channel_id where c.recording_id = $1`, [recordingId]))[0].d;

describe('manual corrections', () => {
  it('an invalid span changes AHI and TST in the summary, trend and triage; undo restores them; samples never change', async () => {
    const digest = await samplesDigest();
    const before = await summary();
    expect(before.ahi).toBeGreaterThan(0);
    // Invalid: the second and third hour of the night (a second person in the room).
    const res = await correct({ kind: 'invalid_span', start_ms: startMs + HOUR, end_ms: startMs + 3 * HOUR, reason: 'Partner in bed' });
    expect(res.statusCode).toBe(201);
    const body = res.json().data;
    expect(body.corrected).toBe(true);
    expect(body.window.invalid_spans).toEqual([{ start_ms: startMs + HOUR, end_ms: startMs + 3 * HOUR }]);
    expect(body.corrections[0]).toMatchObject({ kind: 'invalid_span', reason: 'Partner in bed', status: 'active', undone_at: null });
    expect(body.corrections[0].created_by_name).toMatch(/\S/);

    const after = await summary();
    expect(after.total_bed_time).toBeCloseTo(before.total_bed_time - 2, 1);
    expect(after.total_sleep_time).toBeLessThan(before.total_sleep_time);
    expect(after.apneas + after.hypopneas).toBeLessThan(before.apneas + before.hypopneas);
    expect(after.ahi).not.toBe(before.ahi);
    // The trend reads the same corrected analysis.
    const trend = (await server.call('GET', `/analytics/patient-trendview/type=AHI?patient_id=${patientId}&device_start_time=${night - 86_400}&device_stop_time=${night + 2 * 86_400}`, { token: physician })).json().data;
    expect(trend.AHI.find((p: { recording_id: number }) => p.recording_id === recordingId).value).toBe(after.ahi);
    // So does the dashboard's triage table (its stored rows were made again).
    const triage = (await server.call('GET', '/physician/triage', { token: physician })).json().data;
    expect(triage.patients.find((p: { patient_id: number }) => p.patient_id === patientId).last.ahi).toBe(after.ahi);

    const id = body.corrections[0].id as number;
    const undone = await undo(id);
    expect(undone.statusCode).toBe(200);
    expect(undone.json().data.corrected).toBe(false);
    expect(undone.json().data.corrections[0]).toMatchObject({ id, status: 'undone' });
    expect(undone.json().data.corrections[0].undone_at).not.toBeNull();
    const restored = await summary();
    expect(restored.ahi).toBe(before.ahi);
    expect(restored.total_sleep_time).toBe(before.total_sleep_time);
    expect(await samplesDigest()).toBe(digest);
    // Undone twice: 409; the audit trail keeps the row.
    expect((await undo(id)).statusCode).toBe(409);
    expect((await list()).json().data.corrections).toHaveLength(1);
  });

  it('moving bed-out shortens the night; a newer bed-times correction wins and undoing it brings back the earlier one', async () => {
    const before = await summary();
    const first = await correct({ kind: 'bed_times', start_ms: startMs, end_ms: stopMs - 2 * HOUR, reason: 'Got up at 5' });
    expect(first.statusCode).toBe(201);
    const a = await summary();
    expect(a.total_bed_time).toBeCloseTo(before.total_bed_time - 2, 1);
    expect(a.bed_out_time).not.toBe(before.bed_out_time);
    const second = await correct({ kind: 'bed_times', start_ms: startMs + HOUR, end_ms: stopMs - HOUR, reason: 'Diary' });
    const b = await summary();
    expect(b.total_bed_time).toBeCloseTo(before.total_bed_time - 2, 1);
    expect(b.bed_in_time).not.toBe(a.bed_in_time);
    const rows = second.json().data.corrections as Array<{ id: number; status: string }>;
    expect(rows.map((r) => r.status)).toEqual(['undone', 'superseded', 'active']);
    expect(second.json().data.window).toMatchObject({ bed_in_time: startMs + HOUR, bed_out_time: stopMs - HOUR, bed_times_corrected: true });
    await undo(rows[2].id);
    expect((await summary()).bed_in_time).toBe(a.bed_in_time);
    await undo(rows[1].id);
    expect((await summary()).total_bed_time).toBe(before.total_bed_time);
  });

  it('annotators see corrections but cannot make or undo one', async () => {
    const seen = await list(annotator);
    expect(seen.statusCode).toBe(200);
    expect(seen.json().data.can_correct).toBe(false);
    expect((await correct({ kind: 'invalid_span', start_ms: startMs + HOUR, end_ms: startMs + 2 * HOUR, reason: 'x' }, annotator)).statusCode).toBe(403);
    const made = (await correct({ kind: 'invalid_span', start_ms: startMs + HOUR, end_ms: startMs + 2 * HOUR, reason: 'To undo' })).json().data.corrections.at(-1).id;
    expect((await undo(made, annotator)).statusCode).toBe(403);
    expect((await list(annotator)).json().data.corrected).toBe(true);
    expect((await undo(made)).statusCode).toBe(200);
  });

  it("another practice's physician gets 404 for the night and its corrections", async () => {
    expect((await list(other)).statusCode).toBe(404);
    expect((await correct({ kind: 'invalid_span', start_ms: startMs + HOUR, end_ms: startMs + 2 * HOUR, reason: 'x' }, other)).statusCode).toBe(404);
    const id = (await list()).json().data.corrections[0].id;
    expect((await undo(id, other)).statusCode).toBe(404);
  });

  it('bad spans are 400 with the field named, and store nothing', async () => {
    const count = async () => (await server.db.query<{ n: number }>('select count(*)::int as n from night_corrections'))[0].n;
    const n = await count();
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ kind: 'invalid_span', start_ms: startMs + 2 * HOUR, end_ms: startMs + HOUR, reason: 'backwards' }, 'end_ms'],
      [{ kind: 'invalid_span', start_ms: startMs - HOUR, end_ms: startMs + HOUR, reason: 'before the night' }, 'start_ms'],
      [{ kind: 'bed_times', start_ms: startMs, end_ms: stopMs + HOUR, reason: 'after the night' }, 'end_ms'],
      [{ kind: 'invalid_span', start_ms: startMs + HOUR, end_ms: startMs + HOUR + 5000, reason: 'too short' }, 'end_ms'],
      [{ kind: 'invalid_span', start_ms: startMs + HOUR, end_ms: startMs + 2 * HOUR, reason: '   ' }, 'reason'],
      [{ kind: 'invalid_span', start_ms: startMs + HOUR, end_ms: startMs + 2 * HOUR }, 'reason'],
      [{ kind: 'nap', start_ms: startMs + HOUR, end_ms: startMs + 2 * HOUR, reason: 'x' }, 'kind'],
      [{ kind: 'invalid_span', start_ms: 'soon', end_ms: startMs + 2 * HOUR, reason: 'x' }, 'start_ms'],
    ];
    for (const [body, field] of cases) {
      const res = await correct(body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.body).toContain(field);
    }
    expect((await undo(999_999)).statusCode).toBe(404);
    expect((await server.call('POST', '/analytics/patient/corrections', { token: physician, body: { patient_id: patientId, kind: 'invalid_span', start_ms: startMs + HOUR, end_ms: startMs + 2 * HOUR, reason: 'no night' } })).statusCode).toBe(400);
    expect(await count()).toBe(n);
  });

  it('an analysis that raced with a correction is not stored (the figures never go stale)', async () => {
    const [recording] = await server.db.query<RecordingRow>('select * from recordings where id = $1', [recordingId]);
    const settings = await analyticsSettings(server.db, (await server.db.query<{ physician_id: number }>('select physician_id from patients where id = $1', [patientId]))[0].physician_id);
    await server.db.transaction((tx) => invalidateNight(tx, recordingId));
    // A correction commits while the night is being analysed: just before its result is stored.
    const racing: Queryable = {
      exec: (sql) => server.db.exec(sql),
      async query(sql, params, name) {
        if (/^\s*insert into night_(analyses|channel_stats)/.test(sql)) await server.db.transaction((tx) => invalidateNight(tx, recordingId));
        return server.db.query(sql, params, name);
      },
    };
    await analysisOf(racing, recording!, settings);
    await channelStatsOf(racing, recording!, (await listChannels(server.db, [recordingId])).filter((c) => c.code === 'SPO2'));
    expect((await server.db.query('select 1 from night_analyses where recording_id = $1', [recordingId])).length).toBe(0);
    expect((await server.db.query('select 1 from night_channel_stats where recording_id = $1', [recordingId])).length).toBe(0);
    // Without a race it is stored.
    await analysisOf(server.db, recording!, settings);
    expect((await server.db.query('select 1 from night_analyses where recording_id = $1', [recordingId])).length).toBe(1);
  });
});

describe("a PSG night's lights markers (decision 1023)", () => {
  it("its files' Lights off and Lights on are its bed times until a physician corrects them", async () => {
    // HMC's sleep staging: 854 epochs from 2001-01-01 23:59:30 (UTC), "Lights off" at +33.43 s, "Lights on" at +25,618.74 s.
    const name = 'hmc_SN001_hypnogram_test_edfann.edf';
    const { uploadFiles } = await import('./multipart');
    const { readFileSync } = await import('node:fs');
    const pid = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1005'`))[0].id;
    const bytes = new Uint8Array(readFileSync(new URL(`../fixtures/real/${name}`, import.meta.url)));
    const up = await uploadFiles(server, physician, { patient_id: String(pid), timezone: 'UTC' }, [{ name, bytes }]);
    expect(up.statusCode, up.body).toBe(201);
    const { night: key, recording_start_time: start } = up.json().data as { night: number; recording_start_time: number };
    expect(start).toBe(Date.UTC(2001, 0, 1, 23, 59, 30));
    const lightsOff = start + 33_430;
    const lightsOn = start + 25_618_740;
    const read = async () =>
      (await server.call('POST', '/analytics/patient/all-kpi-summary', { token: physician, body: { patient_id: pid, night: key } })).json().data as { bed_in_time: string; bed_out_time: string; total_bed_time: number; corrected: boolean; bed_times_from_lights: boolean; bed_times_from_recording: boolean };
    const window = async () => (await server.call('GET', `/analytics/patient/corrections?patient_id=${pid}&night=${key}`, { token: physician })).json().data;
    // Bed times: the markers (00:00, not the recording's 23:59), the bed time between them.
    const s = await read();
    expect([s.bed_in_time, s.bed_out_time]).toEqual(['00:00', '07:06']);
    expect(s.total_bed_time).toBeCloseTo((lightsOn - lightsOff) / HOUR, 2);
    // The night's own markers, not a correction.
    expect([s.corrected, s.bed_times_from_lights, s.bed_times_from_recording]).toEqual([false, true, false]);
    const w = await window();
    expect(w).toMatchObject({ corrected: false, window: { bed_in_time: lightsOff, bed_out_time: lightsOn, bed_times_corrected: false, bed_times_from: 'lights' } });
    // A physician's bed times replace them; undone, the markers are back.
    const made = await server.call('POST', '/analytics/patient/corrections', { token: physician, body: { patient_id: pid, night: key, kind: 'bed_times', start_ms: start + HOUR, end_ms: start + 6 * HOUR, reason: 'Lights off noted late' } });
    expect(made.statusCode, made.body).toBe(201);
    expect(made.json().data.window).toMatchObject({ bed_in_time: start + HOUR, bed_out_time: start + 6 * HOUR, bed_times_corrected: true, bed_times_from: 'correction' });
    expect(await read()).toMatchObject({ corrected: true, bed_times_from_lights: false, bed_times_from_recording: false });
    expect((await read()).total_bed_time).toBeCloseTo(5, 2);
    const id = (made.json().data.corrections as { id: number }[]).at(-1)!.id;
    expect((await server.call('POST', '/analytics/patient/corrections/undo', { token: physician, body: { patient_id: pid, night: key, id } })).statusCode).toBe(200);
    expect((await window()).window).toMatchObject({ bed_in_time: lightsOff, bed_times_from: 'lights' });
    expect((await read()).total_bed_time).toBeCloseTo((lightsOn - lightsOff) / HOUR, 2);
  }, 120_000);

  it("a night whose files say nothing of bed times (Sleep-EDF's hypnogram) says its bed times are the recording's; a radar night's in-bed signal does not", async () => {
    const names = ['sleepedf_SC4001E0_short_psg.edf', 'sleepedf_SC4001EC_hypnogram.edf'];
    const { uploadFiles } = await import('./multipart');
    const { readFileSync } = await import('node:fs');
    const pid = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1004'`))[0].id;
    const files = names.map((name) => ({ name, bytes: new Uint8Array(readFileSync(new URL(`../fixtures/real/${name}`, import.meta.url))) }));
    const up = await uploadFiles(server, physician, { patient_id: String(pid), timezone: 'Europe/Amsterdam' }, files);
    expect(up.statusCode, up.body).toBe(201);
    const psg = (await server.call('POST', '/analytics/patient/all-kpi-summary', { token: physician, body: { patient_id: pid, night: up.json().data.night } })).json().data;
    expect(psg).toMatchObject({ corrected: false, bed_times_from_lights: false, bed_times_from_recording: true });
    expect(await summary()).toMatchObject({ bed_times_from_recording: false });
  }, 120_000);
});
