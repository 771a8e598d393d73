import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateForPatient } from '../../server/simulator/simulated';
import { createUser, DEMO_ACCOUNTS, queriesOf, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let physician = '';
let annotator = '';
let patientId = 0;
let night = 0;

beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  annotator = (await signIn(server, DEMO_ACCOUNTS.annotator)).token;
  patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1002'`))[0].id;
  const [id] = await simulateForPatient(server.db, { patientId, patientCode: 'NCT1002', deviceId: 'NCT0002', timezone: 'Europe/Zurich', nights: 1, profile: 'moderate_osa', lastEvening: '2026-03-09', seed: 'analytics-test' });
  night = (await server.db.query<{ night_key: number }>('select night_key from recordings where id = $1', [id]))[0].night_key;
}, 120_000);
afterAll(() => server.close());

const post = (token: string, url: string, body: object) => server.call('POST', url, { token, body });

describe('system annotations from the detectors', () => {
  it('generates apneas and hypopneas as AP_timing, and desaturations as DSAT in #EE814C', async () => {
    const sys = await post(annotator, '/analytics/patient/generate-system-annotations', { patient_id: patientId, night, type: 'system' });
    expect(sys.statusCode).toBe(200);
    const dsat = await post(physician, '/analytics/patient/generate-system-annotations', { patient_id: patientId, night, type: 'desaturation' });
    const list = (await post(physician, '/analytics/patient/get-annotations', { patient_id: patientId, night })).json().data.annotations as Array<{ type: string; kpi: string; color_code: string; label: number }>;
    const system = list.filter((a) => a.type === 'system');
    const desats = list.filter((a) => a.type === 'desaturation');
    expect(system.length).toBe(sys.json().data.created);
    expect(desats.length).toBe(dsat.json().data.created);
    expect(system.length).toBeGreaterThan(50);
    expect(system.every((a) => a.kpi === 'AP_timing' && [1, 3].includes(a.label))).toBe(true);
    expect(desats.every((a) => a.kpi === 'DSAT' && a.color_code === '#EE814C' && a.label === 2)).toBe(true);
  });

  it('regenerating replaces the earlier output but keeps edited ones', async () => {
    const list = (await post(physician, '/analytics/patient/get-annotations', { patient_id: patientId, night })).json().data.annotations as Array<{ annotation_map_id: number; type: string; version: number }>;
    const first = list.find((a) => a.type === 'system')!;
    await post(physician, '/analytics/patient/update-annotations', { annotation_map_id: first.annotation_map_id, version: first.version, comment: 'checked by hand' });
    const again = await post(physician, '/analytics/patient/generate-system-annotations', { patient_id: patientId, night, type: 'system' });
    const after = (await post(physician, '/analytics/patient/get-annotations', { patient_id: patientId, night })).json().data.annotations as Array<{ type: string; comment: string }>;
    expect(after.filter((a) => a.type === 'system').length).toBe(again.json().data.created);
    expect(after.filter((a) => a.type === 'system-edit').map((a) => a.comment)).toEqual(['checked by hand']);
  });
});

describe('KPI summaries', () => {
  it('AHI and ODI per hour of sleep, consistent across the calls', async () => {
    const all = (await post(physician, '/analytics/patient/all-kpi-summary', { patient_id: patientId, night })).json().data;
    // Per hour of the sleep each signal was recorded in (decision 1033): the radar's bad-quality
    // stretches score no event, so they are not counted; never more than the sleep time.
    expect(all.ahi_hours).toBeGreaterThan(0.8 * all.total_sleep_time);
    expect(all.ahi_hours).toBeLessThanOrEqual(all.total_sleep_time);
    expect(all.odi_hours).toBeLessThanOrEqual(all.total_sleep_time);
    expect(all.ahi).toBeCloseTo((all.apneas + all.hypopneas) / all.ahi_hours, 1);
    expect(all.odi).toBeCloseTo(all.desaturations / all.odi_hours, 1);
    // moderate_osa draws 22 events/h, about half of them below the AASM criteria on purpose
    // (simulator: events across the thresholds); those are no events to score.
    expect(all.ahi).toBeGreaterThan(8);
    expect(all.ahi).toBeLessThan(30);
    expect(all.total_bed_time).toBeGreaterThan(all.total_sleep_time);
    expect(all.sleep_efficiency).toBeGreaterThan(50);
    expect(all.bed_in_time).toMatch(/^\d{2}:\d{2}$/);
    expect(all.percentiles.SPO2.medianPercentile).toBeGreaterThan(90);
    expect(all.percentiles.BR.lowerPercentile).toBeLessThan(all.percentiles.BR.upperPercentile);
    expect(all.customized_index.Apnea).toBeGreaterThan(0);

    const ahi = (await server.call('GET', `/analytics/patient/summary/kpi=AHI?patient_id=${patientId}&night=${night}`, { token: annotator })).json().data;
    expect(ahi).toMatchObject({ kpi: 'AHI', ahi: all.ahi, apneas: all.apneas, index_basis: 'sleep' });
    expect(all.index_basis).toBe('sleep');
    expect(all.monitoring_time).toBeGreaterThan(all.total_sleep_time);
    const rec = (await server.call('GET', `/analytics/patient/summary/kpi=RECORDING?patient_id=${patientId}&night=${night}`, { token: physician })).json().data;
    expect(rec.sleep_efficiency).toBe(all.sleep_efficiency);
    const rii = (await server.call('GET', `/patient/rii_odi_value?patient_id=${patientId}&night=${night}`, { token: physician })).json().data;
    expect(rii).toMatchObject({ rii: all.rii, rii_divisor: 'TBT', odi: all.odi });
    // Rounded to hundredths, as every figure of the summary.
    expect(rii.rii).toBeGreaterThan(0);
    expect(Math.round(rii.rii * 100) / 100).toBe(rii.rii);
    expect((await server.call('GET', `/analytics/patient/summary/kpi=NOPE?patient_id=${patientId}&night=${night}`, { token: physician })).statusCode).toBe(400);
  });

  it("counts every label of the customized index, each a built-in category one can score with (issue 32.11)", async () => {
    const labels = (await post(annotator, '/patient/get-label-list', { patient_id: patientId })).json().data.labels as Array<{ label_id: number; label: string; type: string }>;
    const indexLabels = ['Apnea', 'Hypoapnea', 'Movement', 'Central Apnea', 'Obstructive Apnea', 'Irregularities'];
    const builtIn = new Map(labels.filter((l) => l.type === 'built-in').map((l) => [l.label, l.label_id]));
    expect(indexLabels.filter((l) => !builtIn.has(l))).toEqual([]);
    const before = (await post(physician, '/analytics/patient/all-kpi-summary', { patient_id: patientId, night })).json().data.customized_index as Record<string, number>;
    const [{ start_ms }] = await server.db.query<{ start_ms: number }>('select start_ms from recordings where patient_id = $1 and night_key = $2', [patientId, night]);
    const scored = ['Movement', 'Central Apnea', 'Obstructive Apnea', 'Irregularities'].map((l, i) => ({ kpi: 'BR', start_time: Number(start_ms) + 3_600_000 + i * 60_000, duration: '20', label: builtIn.get(l)! }));
    expect((await post(annotator, '/analytics/patient/new-annotations', { patient_id: patientId, night, annotations: scored })).statusCode).toBe(201);
    const after = (await post(physician, '/analytics/patient/all-kpi-summary', { patient_id: patientId, night })).json().data.customized_index as Record<string, number>;
    for (const l of ['Movement', 'Central Apnea', 'Obstructive Apnea', 'Irregularities']) expect(after[l], l).toBe(before[l]! + 1);
  });

  it('a night without oximetry has no ODI ("–"), while its AHI/REI stands', async () => {
    const [id] = await simulateForPatient(server.db, { patientId, patientCode: 'NCT1002', deviceId: 'NCT0002', timezone: 'Europe/Zurich', nights: 1, profile: 'moderate_osa', lastEvening: '2026-03-09', seed: 'analytics-no-spo2' });
    await server.db.query(`delete from recording_channels where recording_id = $1 and code in ('SPO2', 'PR')`, [id]);
    const [rec] = await server.db.query<{ night_key: number }>('select night_key from recordings where id = $1', [id]);
    const all = (await post(physician, '/analytics/patient/all-kpi-summary', { patient_id: patientId, night: rec.night_key })).json().data;
    expect(all.ahi).toBeGreaterThan(0);
    expect(all.desaturations).toBe(0);
    expect(all.odi).toBeNull();
  });

  it('a night without sleep staging gets its indices per hour of monitoring (REI), labelled, in the summary and the trend', async () => {
    const [id] = await simulateForPatient(server.db, { patientId, patientCode: 'NCT1002', deviceId: 'NCT0002', timezone: 'Europe/Zurich', nights: 1, profile: 'moderate_osa', lastEvening: '2026-03-05', seed: 'analytics-rei' });
    // A device that stages nothing: only breathing, SpO2 and signal quality remain.
    await server.db.query(`delete from recording_channels where recording_id = $1 and code in ('SLP_STGS', 'SA', 'TB')`, [id]);
    const [rec] = await server.db.query<{ night_key: number }>('select night_key from recordings where id = $1', [id]);
    const all = (await post(physician, '/analytics/patient/all-kpi-summary', { patient_id: patientId, night: rec.night_key })).json().data;
    // No staging: the sleep time is unknown ("–"), not 0, and the indices fall back to monitoring time.
    expect(all.total_sleep_time).toBeNull();
    expect(all.sleep_efficiency).toBeNull();
    expect(all.index_basis).toBe('monitoring');
    expect(all.monitoring_time).toBeGreaterThan(5);
    expect(all.apneas + all.hypopneas).toBeGreaterThan(20);
    expect(all.ahi).not.toBeNull();
    expect(all.ahi_hours).toBe(all.monitoring_time);
    expect(all.ahi).toBeCloseTo((all.apneas + all.hypopneas) / all.monitoring_time, 1);
    // The ODI per hour with a valid SpO2 (the radar's quality does not gate the oximeter).
    expect(all.odi_hours).toBeGreaterThanOrEqual(all.monitoring_time);
    expect(all.odi).toBeCloseTo(all.desaturations / all.odi_hours, 1);
    const kpi = (await server.call('GET', `/analytics/patient/summary/kpi=AHI?patient_id=${patientId}&night=${rec.night_key}`, { token: physician })).json().data;
    expect(kpi).toMatchObject({ index_basis: 'monitoring', ahi: all.ahi });
    const from = Math.floor((rec.night_key * 1000 - 2 * 86_400_000) / 1000);
    const to = Math.floor((rec.night_key * 1000 + 2 * 86_400_000) / 1000);
    const trend = (await server.call('GET', `/analytics/patient-trendview/type=AHI,ODI?patient_id=${patientId}&device_start_time=${from}&device_stop_time=${to}`, { token: physician })).json().data;
    const point = (trend.AHI as Array<{ night: number; value: number; index_basis: string }>).find((p) => p.night === rec.night_key)!;
    expect(point).toMatchObject({ value: all.ahi, index_basis: 'monitoring' });
    expect((trend.ODI as Array<{ night: number; index_basis: string }>).find((p) => p.night === rec.night_key)!.index_basis).toBe('monitoring');
  });

  it('the 4% rule finds no more desaturations than the 3% rule; the divisor changes RII', async () => {
    const three = (await post(physician, '/analytics/patient/all-kpi-summary', { patient_id: patientId, night })).json().data;
    expect((await post(physician, '/physician/update-analytics-settings', { desaturation_rule: 4, rii_divisor: 'TST' })).statusCode).toBe(200);
    const four = (await post(physician, '/analytics/patient/all-kpi-summary', { patient_id: patientId, night })).json().data;
    expect(four.desaturation_rule).toBe(4);
    expect(four.desaturations).toBeLessThanOrEqual(three.desaturations);
    expect(four.rii_divisor).toBe('TST');
    // Over TST, the RII shares the AHI's hours: the sleep with a breathing signal.
    expect(four.rii).toBeCloseTo((four.apneas + four.hypopneas) / four.ahi_hours, 1);
    expect((await post(annotator, '/physician/update-analytics-settings', { desaturation_rule: 3 })).statusCode).toBe(403);
    await post(physician, '/physician/update-analytics-settings', { desaturation_rule: 3, rii_divisor: 'TBT' });
  });

  it('paid memberships get no ODI, no AHI items and no generate action', async () => {
    await server.db.query(`update users set membership_type = 'paid' where email = $1`, [DEMO_ACCOUNTS.physician]);
    try {
      expect((await server.call('GET', `/analytics/patient/summary/kpi=ODI?patient_id=${patientId}&night=${night}`, { token: physician })).statusCode).toBe(403);
      const all = (await post(physician, '/analytics/patient/all-kpi-summary', { patient_id: patientId, night })).json().data;
      expect(all.ahi).toBeUndefined();
      expect(all.odi).toBeUndefined();
      expect(all.rii).not.toBeNull();
      expect((await post(physician, '/analytics/patient/generate-system-annotations', { patient_id: patientId, night, type: 'system' })).statusCode).toBe(403);
    } finally {
      await server.db.query(`update users set membership_type = 'non-paid' where email = $1`, [DEMO_ACCOUNTS.physician]);
    }
  });

  it("another physician's patient is 404", async () => {
    const stranger = await createUser(server);
    const { token } = await signIn(server, stranger.email);
    expect((await post(token, '/analytics/patient/all-kpi-summary', { patient_id: patientId, night })).statusCode).toBe(404);
  });
});

describe('actigraph', () => {
  it('gives per night the sleep, awake and undefined bands, movement density and the caption data', async () => {
    const res = await server.call('GET', `/analytics/patient/actigraph?patient_id=${patientId}&start_date=2026-03-01&end_date=2026-03-31`, { token: annotator });
    expect(res.statusCode).toBe(200);
    const day = res.json().data['2026-03-09'];
    expect(day.sleep_bands.length).toBeGreaterThan(3);
    expect(day.awake_bands.length).toBeGreaterThan(0);
    expect(day.line_data.length).toBeGreaterThan(300);
    expect(day.meta_data.bed_in_time).toMatch(/^\d{2}:\d{2}$/);
    expect(day.meta_data.total_sleep_time).toBeGreaterThan(4);
    expect(day.timezone).toBe('Europe/Zurich');
    const all = (await post(physician, '/analytics/patient/all-kpi-summary', { patient_id: patientId, night })).json().data;
    expect(day.meta_data.waso).toBe(all.waso);
  });

  it('reads the nights from their stored rows, with the answer made from their analyses and movement', async () => {
    const url = `/analytics/patient/actigraph?patient_id=${patientId}&start_date=2026-03-01&end_date=2026-03-31`;
    await simulateForPatient(server.db, { patientId, patientCode: 'NCT1002', deviceId: 'NCT0002', timezone: 'Europe/Zurich', nights: 2, profile: 'healthy', lastEvening: '2026-03-12', seed: 'actigraph-rows' });
    const read = async () => {
      const res = await server.call('GET', url, { token: physician });
      expect(res.statusCode).toBe(200);
      return res.json().data as Record<string, unknown>;
    };
    const first = await read();
    expect(Object.keys(first)).toEqual(expect.arrayContaining(['2026-03-09', '2026-03-11', '2026-03-12']));
    // Stored: no night analysed or its movement read again.
    let stored: Record<string, unknown> = {};
    const sql = await queriesOf(server, async () => (stored = await read()));
    expect(sql.filter((q) => q.includes('from recording_chunks'))).toEqual([]);
    // The rows emptied, the answer is made from the analyses and the movement channels again: the same.
    await server.db.query('update night_analyses set actigraph = null');
    expect(await read()).toEqual(stored);
    expect(stored).toEqual(first);
  });
});
