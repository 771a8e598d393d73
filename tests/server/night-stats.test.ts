// Per-night statistics kept as rows (issue 18 point 4): written when a night is imported, made
// again when a file joins it, a correction is made or the practice's settings change; the trend
// and the dashboard's triage table then read rows, never samples.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { analysisParams, ANALYSIS_VERSION } from '../../server/analytics/analyse';
import { DEMO_ACCOUNTS, queriesOf, signIn, startTestServer, type TestServer } from './helpers';
import { uploadFiles } from './multipart';

let server: TestServer;
let physician = '';
let patientId = 0;
let recordingId = 0;
let night = 0;
const START = Date.UTC(2025, 8, 14, 22, 0, 0);
const HOUR = 3_600_000;

/** A Timestamp,Value CSV at 1 Hz from `fromMs` for `seconds`; SpO2 with a 5-point dip every 5 minutes. */
function csv(fromMs: number, seconds: number, value: (s: number) => number): Uint8Array {
  const lines = ['Timestamp,Value'];
  for (let s = 0; s < seconds; s++) lines.push(`${new Date(fromMs + s * 1000).toISOString()},${value(s)}`);
  return new TextEncoder().encode(lines.join('\n'));
}

const rows = async () => ({
  analyses: await server.db.query<{ params: string; kpis: { apneas: number } | null; indices: Record<string, unknown> | null; computed_at: string }>(
    'select params, kpis, indices, computed_at::text from night_analyses where recording_id = $1 order by params',
    [recordingId],
  ),
  stats: (await server.db.query<{ code: string }>('select code from night_channel_stats where recording_id = $1 order by code', [recordingId])).map((r) => r.code),
});

const trendUrl = (codes: string) => `/analytics/patient-trendview/type=${codes}?patient_id=${patientId}&device_start_time=${night - 86_400}&device_stop_time=${night + 86_400}`;

beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1004'`))[0].id;
});
afterAll(() => server.close());

describe('per-night statistics rows', () => {
  it('are written when a night is imported, and again with the new channel when a file joins the night', async () => {
    const spo2 = csv(START, 3 * 3600, (s) => (s % 300 < 40 ? 90 : 96));
    const res = await uploadFiles(server, physician, { patient_id: String(patientId), timezone: 'UTC', channel: 'SPO2' }, [{ name: 'night_spo2.csv', bytes: spo2 }]);
    expect(res.statusCode).toBe(201);
    recordingId = res.json().data.recording_id;
    night = res.json().data.night;
    await server.app.nightStats.idle();
    const first = await rows();
    expect(first.analyses).toHaveLength(1);
    expect(first.analyses[0].params).toBe(analysisParams({ desaturationRule: 3, riiDivisor: 'TBT' }));
    expect(first.analyses[0].kpis!.apneas).toBeTypeOf('number');
    expect(first.analyses[0].indices).toMatchObject({ index_basis: 'monitoring' });
    expect(first.stats).toEqual(['SPO2']);

    const hr = csv(START + HOUR, 3600, (s) => 60 + (s % 7));
    const merged = await uploadFiles(server, physician, { patient_id: String(patientId), timezone: 'UTC', channel: 'HR' }, [{ name: 'night_hr.csv', bytes: hr }]);
    expect(merged.statusCode).toBe(201);
    expect(merged.json().data).toMatchObject({ merged: true, recording_id: recordingId });
    await server.app.nightStats.idle();
    const second = await rows();
    expect(second.stats).toEqual(['HR', 'SPO2']);
    expect(second.analyses).toHaveLength(1);
    expect(second.analyses[0].computed_at > first.analyses[0].computed_at).toBe(true);
  });

  it('the trend and the triage table then read rows: no sample is read, and the query count does not grow with the nights', async () => {
    let trend: Record<string, Array<Record<string, unknown>>> = {};
    const trendSql = await queriesOf(server, async () => {
      const res = await server.call('GET', trendUrl('SPO2,HR,AHI,ODI,RII,SQ'), { token: physician });
      expect(res.statusCode).toBe(200);
      trend = res.json().data;
    });
    expect(trend.SPO2.map((p) => p.recording_id)).toEqual([recordingId]);
    expect(trend.HR).toHaveLength(1);
    expect(trend.ODI[0].value).toBeTypeOf('number');
    expect(trendSql.filter((q) => /recording_chunks/.test(q))).toEqual([]);
    expect(trendSql.filter((q) => /insert into night_(analyses|channel_stats)/.test(q))).toEqual([]);
    // Session, patient, nights, channels, settings, indices, statistics: a fixed number, not per night.
    expect(trendSql.length).toBeLessThanOrEqual(10);

    const triageSql = await queriesOf(server, async () => expect((await server.call('GET', '/physician/triage', { token: physician })).statusCode).toBe(200));
    expect(triageSql.filter((q) => /recording_chunks|insert into night_/.test(q))).toEqual([]);
  });

  it('are made again after a correction, before any screen asks, and the trend shows the corrected figures', async () => {
    const before = (await rows()).analyses[0];
    const res = await server.call('POST', '/analytics/patient/corrections', {
      token: physician,
      body: { patient_id: patientId, night, kind: 'invalid_span', start_ms: START + HOUR, end_ms: START + 2 * HOUR, reason: 'Sensor off' },
    });
    expect(res.statusCode).toBe(201);
    await server.app.nightStats.idle();
    const after = await rows();
    expect(after.stats).toEqual(['HR', 'SPO2']);
    expect(after.analyses).toHaveLength(1);
    expect(after.analyses[0].computed_at > before.computed_at).toBe(true);
    expect(after.analyses[0].indices).not.toEqual(before.indices);
    const summary = (await server.call('POST', '/analytics/patient/all-kpi-summary', { token: physician, body: { patient_id: patientId, night } })).json().data;
    const sql = await queriesOf(server, async () => {
      const trend = (await server.call('GET', trendUrl('ODI'), { token: physician })).json().data;
      expect(trend.ODI[0].value).toBe(summary.odi);
    });
    expect(sql.filter((q) => /recording_chunks/.test(q))).toEqual([]);
  });

  it('are made for the new settings when the practice changes them', async () => {
    const res = await server.call('POST', '/physician/update-analytics-settings', { token: physician, body: { desaturation_rule: 4 } });
    expect(res.statusCode).toBe(200);
    await server.app.nightStats.idle();
    const params = (await server.db.query<{ params: string }>('select params from night_analyses where recording_id = $1 and engine_version = $2 order by params', [recordingId, ANALYSIS_VERSION])).map(
      (r) => r.params,
    );
    expect(params).toEqual([analysisParams({ desaturationRule: 3, riiDivisor: 'TBT' }), analysisParams({ desaturationRule: 4, riiDivisor: 'TBT' })]);
    const sql = await queriesOf(server, async () => expect((await server.call('GET', trendUrl('ODI,AHI'), { token: physician })).statusCode).toBe(200));
    expect(sql.filter((q) => /recording_chunks|insert into night_/.test(q))).toEqual([]);
    await server.call('POST', '/physician/update-analytics-settings', { token: physician, body: { desaturation_rule: 3 } });
    await server.app.nightStats.idle();
  });
});
