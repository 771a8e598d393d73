// Issue 31 points 5–7: no index without a basis (an oximeter-only night's AHI/RII are null with
// the reason in the summary, the KPI calls, the trend, the triage table and the PDF; its ODI
// still comes from the oximeter), hypnograms are staging (the Sleep-EDF PSG plus its expert
// hypnogram has a TST), and the device's daily summary (ResMed STR.edf) is stored per day, not
// as a night, and read beside the night and in the trend.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deviceSummaryFor } from '../../server/recordings/device-summaries';
import { DEMO_ACCOUNTS, finishedReport, signIn, startTestServer, type TestServer } from './helpers';
import { uploadFiles } from './multipart';

const REAL = new URL('../fixtures/real/', import.meta.url);
const real = (name: string) => new Uint8Array(readFileSync(new URL(name, REAL)));
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const tmp = mkdtempSync(path.join(tmpdir(), 'nocturne-basis-'));

let server: TestServer;
let physician = '';
const ids: Record<string, number> = {};

const post = (url: string, body: object) => server.call('POST', url, { token: physician, body });
const get = (url: string) => server.call('GET', url, { token: physician });
const upload = (patient: string, files: Array<{ name: string; bytes: Uint8Array }>) => uploadFiles(server, physician, { patient_id: String(ids[patient]), timezone: 'Europe/Zurich' }, files);

/**
 * A Wellue/Checkme O2 export of 2 h from 23:00 (Zurich) two evenings ago at 4-s steps: SpO2 96 % with a 6-point
 * dip of 40 s every 10 minutes (12 desaturations), pulse 60.
 */
function oximeterCsv(): Uint8Array {
  const lines = ['Time,Oxygen Level,Pulse Rate,Motion'];
  // Two evenings ago (the bell lists the last week's nights), clock times as the oximeter writes them.
  const day = new Date(Date.now() - 2 * 86_400_000);
  const start = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 23, 0, 0);
  for (let s = 0; s < 2 * 3600; s += 4) {
    const t = new Date(start + s * 1000);
    const month = MONTHS[t.getUTCMonth()];
    const inDip = s % 600 >= 300 && s % 600 < 340;
    const hh = String(t.getUTCHours()).padStart(2, '0');
    const mm = String(t.getUTCMinutes()).padStart(2, '0');
    const ss = String(t.getUTCSeconds()).padStart(2, '0');
    lines.push(`${hh}:${mm}:${ss} ${month} ${String(t.getUTCDate()).padStart(2, '0')} ${t.getUTCFullYear()},${inDip ? 90 : 96},60,0`);
  }
  return new TextEncoder().encode(lines.join('\n'));
}


/** A report of one night of `patient` (`type`: 'en-pyn' the night's, 'en' the trend, 'en-us' the insomnia trend), as pdftotext reads it. */
async function reportText(patient: string, night: number, type: string): Promise<string> {
  const res = await post('/reports', { patient_id: ids[patient], order_id: patient, language: 'en', version: 1, report_type: type, dates: [{ numDate: night, checked: true }] });
  expect(res.statusCode, res.body).toBe(202);
  const job = await finishedReport(server, res.json().data.id, physician);
  expect(job.status, job.error).toBe('done');
  const file = path.join(tmp, `${patient}-${night}-${type}.pdf`);
  writeFileSync(file, (await get(`/reports/${res.json().data.id}/file`)).rawPayload);
  return execFileSync('/usr/bin/pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

const nightPdfText = (patient: string, night: number) => reportText(patient, night, 'en-pyn');

beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  for (const p of await server.db.query<{ id: number; patient_code: string }>('select id, patient_code from patients')) ids[p.patient_code] = p.id;
}, 120_000);
afterAll(async () => {
  await server.close();
  rmSync(tmp, { recursive: true, force: true });
});

describe('no index without a basis (issue 31 point 5)', () => {
  let night = 0;
  beforeAll(async () => {
    const res = await upload('NCT1002', [{ name: 'O2Ring_night.csv', bytes: oximeterCsv() }]);
    expect(res.statusCode, res.body).toBe(201);
    night = res.json().data.night;
  });

  it('an oximeter-only night: AHI and RII are null with the basis code, ODI and SpO2 come from the oximeter', async () => {
    const s = (await post('/analytics/patient/all-kpi-summary', { patient_id: ids.NCT1002, night })).json().data;
    expect(s).toMatchObject({ ahi: null, rii: null, ahi_basis: 'no_breathing_signal', breathing_source: null, index_basis: 'monitoring' });
    expect(s.desaturations).toBe(12);
    expect(s.odi).toBeCloseTo(6, 0);
    expect(s.lowest_spo2).toBe(90);
    expect(s.odi_basis).toBe('spo2');
    expect(s.percentiles.SPO2.count).toBeGreaterThan(0);
    const ahi = (await get(`/analytics/patient/summary/kpi=AHI?patient_id=${ids.NCT1002}&night=${night}`)).json().data;
    expect(ahi).toMatchObject({ ahi: null, ahi_basis: 'no_breathing_signal' });
    const riiOdi = (await get(`/patient/rii_odi_value?patient_id=${ids.NCT1002}&night=${night}`)).json().data;
    expect(riiOdi).toMatchObject({ rii: null, ahi_basis: 'no_breathing_signal', odi: s.odi });
  });

  it('the trend has the night with AHI null and its reason, and its ODI', async () => {
    const trend = (await get(`/analytics/patient-trendview/type=AHI,ODI,RII?patient_id=${ids.NCT1002}&device_start_time=${night - 86_400}&device_stop_time=${night + 86_400}`)).json().data;
    expect(trend.AHI).toEqual([expect.objectContaining({ night, value: null, ahi_basis: 'no_breathing_signal' })]);
    expect(trend.RII).toEqual([expect.objectContaining({ night, value: null, ahi_basis: 'no_breathing_signal' })]);
    expect(trend.ODI[0].value).toBeGreaterThan(0);
  });

  it("the dashboard's triage row says AHI null for want of a breathing signal, never 0", async () => {
    let remaining = 1;
    for (let i = 0; i < 40 && remaining > 0; i++) remaining = (await post('/physician/triage/prepare', {})).json().data.remaining;
    const row = (await get('/physician/triage')).json().data.patients.find((p: { patient_code: string }) => p.patient_code === 'NCT1002');
    expect(row.last).toMatchObject({ night, ahi: null, ahi_basis: 'no_breathing_signal' });
    expect(row.last.odi).toBeGreaterThan(0);
  }, 120_000);

  it('the bell says "no breathing signal", not "0 apneas and hypopneas"', async () => {
    expect((await post('/physician/generate-notifications', {})).statusCode).toBe(200);
    const list = (await get('/physician/get-notifications')).json().data.notifications as Array<{ patient_code: string; night: number; apnea_events: number | null; ahi_basis: string | null }>;
    expect(list.find((n) => n.patient_code === 'NCT1002' && Number(n.night) === night)).toMatchObject({ apnea_events: null, ahi_basis: 'no_breathing_signal' });
  });

  it('the trend PDF gives each index over the nights with its interval method and marks a call on too few nights', async () => {
    const text = await reportText('NCT1002', night, 'en');
    expect(text).toContain('Index over the nights: mean, 95 % interval, night-to-night spread');
    // AHI has no night with a basis; ODI rests on one night: its mean, no interval, marked.
    const odi = text.split('\n').find((l) => l.trim().startsWith('ODI '))!.trim().split(/\s{2,}/);
    expect(odi[1]).toBe('1');
    expect(odi[3]).toBe('–');
    expect(odi.at(-1)).toMatch(/\*$/);
    expect(text.split('\n').find((l) => /^\s*AHI\/REI\s/.test(l))).toMatch(/\s0\s+–/);
    expect(text).toContain('t-interval over nights');
  }, 60_000);

  it('the night PDF prints "–" for AHI/REI and RII with the reason, and the ODI', async () => {
    const text = await nightPdfText('NCT1002', night);
    const row = (label: string) => text.split('\n').find((l) => l.trim().startsWith(label))?.trim().slice(label.length).trim();
    expect(row('REI (monitoring time)')).toMatch(/^– \(no breathing signal\)/);
    expect(row('RII ')).toMatch(/^– \(no breathing signal\)/);
    expect(row('ODI')).toMatch(/^\d+\.\d\d/);
    expect(text).toContain('AHI/REI: not computed: the night has no breathing signal');
  }, 60_000);
});

describe("a night whose only SpO2 is the PSG's reference oximeter (SPO2_PSG)", () => {
  let night = 0;
  beforeAll(async () => {
    // 2 h at 1 Hz from 22:00 UTC yesterday: 95 %, with a 30-s dip to 87 % every 20 minutes.
    const day = new Date(Date.now() - 86_400_000);
    const start = Date.UTC(day.getUTCFullYear(), day.getUTCMonth(), day.getUTCDate(), 22, 0, 0);
    const lines = ['Timestamp,Value'];
    for (let s = 0; s < 2 * 3600; s++) lines.push(`${new Date(start + s * 1000).toISOString()},${s % 1200 >= 600 && s % 1200 < 630 ? 87 : 95}`);
    const res = await uploadFiles(server, physician, { patient_id: String(ids.NCT1003), timezone: 'UTC', channel: 'SPO2_PSG' }, [{ name: 'psg_spo2.csv', bytes: new TextEncoder().encode(lines.join('\n')) }]);
    expect(res.statusCode, res.body).toBe(201);
    night = res.json().data.night;
  });

  it("the summary's and the triage table's lowest SpO2 are the PSG oximeter's", async () => {
    const s = (await post('/analytics/patient/all-kpi-summary', { patient_id: ids.NCT1003, night })).json().data;
    expect(s.lowest_spo2).toBe(87);
    let remaining = 1;
    for (let i = 0; i < 40 && remaining > 0; i++) remaining = (await post('/physician/triage/prepare', {})).json().data.remaining;
    expect(remaining).toBe(0);
    const row = (await get('/physician/triage')).json().data.patients.find((p: { patient_code: string }) => p.patient_code === 'NCT1003');
    expect(row.last).toMatchObject({ night, analysed: true, lowest_spo2: 87 });
  }, 120_000);
});

describe('an ODI and vitals of "–" say why (issue 31)', () => {
  let night = 0;
  beforeAll(async () => {
    // A ResMed CPAP night whose SA2 file was written without an oximeter attached: SpO2 and pulse all missing.
    const res = await upload('NCT1004', ['snore_resmed_20250808_010210_BRP.edf', 'snore_resmed_20250808_010210_SA2.edf'].map((name) => ({ name, bytes: real(name) })));
    expect(res.statusCode, res.body).toBe(201);
    night = res.json().data.night;
  });

  it('the summary: ODI null for want of a valid SpO2, the oximeter channels with 0 valid samples', async () => {
    const s = (await post('/analytics/patient/all-kpi-summary', { patient_id: ids.NCT1004, night })).json().data;
    expect(s).toMatchObject({ odi: null, odi_basis: 'no_valid_spo2', lowest_spo2: null, ahi_basis: 'breathing_signal' });
    expect(s.percentiles.SPO2).toMatchObject({ count: 0, medianPercentile: null, min: null });
    expect(s.percentiles.PR).toMatchObject({ count: 0, medianPercentile: null });
    // A CPAP night has no sleep staging: its sleep figures are null with that reason, and no quality channel.
    expect(s).toMatchObject({ sleep_basis: 'no_staging', total_sleep_time: null, sleep_efficiency: null, sol: null, waso: null, good_signal_duration: null });
    expect(s.total_bed_time).toBeGreaterThan(0);
    // The single-KPI calls carry the reason with the figures.
    const tst = (await get(`/analytics/patient/summary/kpi=TST?patient_id=${ids.NCT1004}&night=${night}`)).json().data;
    expect(tst).toMatchObject({ kpi: 'TST', total_sleep_time: null, sleep_basis: 'no_staging' });
  });

  it('the trend: no signal quality for a CPAP night (no quality channel), never 0 %', async () => {
    const trend = (await get(`/analytics/patient-trendview/type=SQ,RII?patient_id=${ids.NCT1004}&device_start_time=${night - 86_400}&device_stop_time=${night + 86_400}`)).json().data;
    expect(trend.SQ.filter((p: { value: number | null }) => p.value !== null)).toEqual([]);
    expect(trend.RII[0].value).toBeGreaterThan(0);
  });

  it('the night PDF prints "–" for the ODI and the oximeter rows with their reason', async () => {
    const text = await nightPdfText('NCT1004', night);
    const row = (label: string) => text.split('\n').find((l) => l.trim().startsWith(label))?.trim().slice(label.length).trim();
    expect(row('ODI')).toMatch(/^– \(no valid SpO2 recorded\)/);
    expect(row('SpO2 (%)')).toMatch(/^–(\s+–){5}$/);
    expect(row('PR (/min)')).toMatch(/^–(\s+–){5}$/);
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('SpO2 (%), PR (/min): the sensor recorded no valid value in this night (every figure is –).');
    // The CPAP has no heart-rate or movement channel: their rows say so too, and the ODI's basis
    // names the empty SpO2 channel, not a missing one.
    expect(flat).toContain('HR (/min), MOV: not recorded in this night (no such channel).');
    expect(flat).toContain("ODI: not computed: the night's SpO2 channel recorded no valid value.");
    expect(flat).not.toContain('the night has no SpO2 signal');
    // Sleep figures and the signal-quality duration: "–" with their reasons, never bare.
    expect(row('Total sleep time')).toMatch(/^– \(no sleep staging\)/);
    expect(row('Sleep efficiency (%)')).toMatch(/^– \(no sleep staging\)/);
    expect(row('Wake after sleep onset (min)')).toMatch(/^– \(no sleep staging\)/);
    expect(row('Good signal duration')).toMatch(/^– \(no signal-quality channel\)/);
  }, 60_000);

  it("the insomnia trend PDF's per-night table says which nights' sleep figures are – for want of staging", async () => {
    const flat = (await reportText('NCT1004', night, 'en-us')).replace(/\s+/g, ' ');
    expect(flat).toMatch(/Total sleep time, sleep efficiency, sleep onset latency and WASO are – on \S+: no sleep staging\./);
  }, 60_000);

  it('a night without any SpO2 channel: "no SpO2 channel", in the summary and the PDF', async () => {
    const res = await upload('NCT1001', [{ name: 'snore_resmed_20250808_010210_BRP.edf', bytes: real('snore_resmed_20250808_010210_BRP.edf') }]);
    expect(res.statusCode, res.body).toBe(201);
    const s = (await post('/analytics/patient/all-kpi-summary', { patient_id: ids.NCT1001, night: res.json().data.night })).json().data;
    expect(s).toMatchObject({ odi: null, odi_basis: 'no_spo2_channel' });
    expect(s.percentiles.SPO2).toBeUndefined();
    expect(s.lowest_spo2).toBeNull();
    const flat = (await nightPdfText('NCT1001', res.json().data.night)).replace(/\s+/g, ' ');
    expect(flat).toContain('ODI: not computed: the night has no SpO2 signal.');
    expect(flat).toContain('HR (/min), SpO2 (%), PR (/min), MOV: not recorded in this night (no such channel).');
  });
});

describe('hypnograms are staging (issue 31 point 6)', () => {
  it('the Sleep-EDF PSG with its expert hypnogram: SLP_STGS from the hypnogram, a TST, SOL and stage latencies', async () => {
    const res = await upload('NCT1005', [
      { name: 'sleepedf_SC4001E0_short_psg.edf', bytes: real('sleepedf_SC4001E0_short_psg.edf') },
      { name: 'sleepedf_SC4001EC_hypnogram.edf', bytes: real('sleepedf_SC4001EC_hypnogram.edf') },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    // 2,880 epochs in the file; its last 230 ("Sleep stage ?", 6,900 s) come after the recording
    // ended (22:05:00 of it): unscored, they neither stage nor stretch the night (decision 1032).
    expect(data.channels.find((c: { code: string }) => c.code === 'SLP_STGS')).toMatchObject({ label: 'Hypnogram', fs: 1 / 30, count: 2650 });
    expect(data.recording_stop_time - data.recording_start_time).toBe(79_500_000);
    const s = (await post('/analytics/patient/all-kpi-summary', { patient_id: ids.NCT1005, night: data.night })).json().data;
    // Stages 1, 2, 3, 4 and R: 58 + 250 + 220 + 125 = 653 epochs of 30 s = 5:26:30, to the
    // second (a hundredth of an hour, 5.44 h, would read 5:26:24).
    expect(s.total_sleep_time * 3600).toBeCloseTo(653 * 30, 6);
    expect(s.sleep_basis).toBe('staging');
    expect(s.sol).toBeGreaterThan(0);
    // Time in bed is the recording's 22:05:00 (no lights marks): SE 653 epochs of its 2,650.
    expect(s.sleep_efficiency).toBeCloseTo((100 * 653) / 2650, 1);
    expect(s.latencies.light).toBe(0);
    expect(s.latencies.deep).toBeGreaterThan(0);
    expect(s.latencies.rem).toBeGreaterThan(s.latencies.deep);
    // Its oro-nasal flow covers only the first 5 minutes, all scored wake: no sleep had a
    // breathing signal, so no AHI, with the reason, not 0.00 over 5:26:30 (decision 1033).
    expect(s).toMatchObject({ breathing_source: 'NC_PSG', ahi: null, ahi_hours: 0, ahi_basis: 'no_breathing_signal_in_sleep' });
    // Nor an RII over its 22:05:00 in bed: it counts the events scored in sleep, and none could be.
    expect(s).toMatchObject({ rii: null, rii_divisor: 'TBT' });
    const riiOdi = (await get(`/patient/rii_odi_value?patient_id=${ids.NCT1005}&night=${data.night}`)).json().data;
    expect(riiOdi).toMatchObject({ rii: null, ahi_basis: 'no_breathing_signal_in_sleep' });
    const kpi = (await get(`/analytics/patient/summary/kpi=AHI?patient_id=${ids.NCT1005}&night=${data.night}`)).json().data;
    expect(kpi).toMatchObject({ ahi: null, ahi_basis: 'no_breathing_signal_in_sleep' });
    const from = data.night - 2 * 86_400;
    const trend = (await get(`/analytics/patient-trendview/type=AHI?patient_id=${ids.NCT1005}&device_start_time=${from}&device_stop_time=${data.night + 2 * 86_400}`)).json().data;
    expect(trend.AHI).toEqual([expect.objectContaining({ night: data.night, value: null, ahi_basis: 'no_breathing_signal_in_sleep' })]);
    const pdf = await nightPdfText('NCT1005', data.night);
    expect(pdf).toContain('no breathing signal during sleep');
    expect(pdf).toContain('the breathing signal was recorded during none of the sleep');
    expect(pdf.split('\n').find((l) => /^\s*AHI\s/.test(l))).toMatch(/– \(no breathing signal during sleep\)/);
    expect(pdf.split('\n').find((l) => /^\s*RII\s/.test(l))).toMatch(/– \(no breathing signal during sleep\)/);
    expect(pdf).not.toContain('RII: respiratory events per hour of');
    // Nor counts beside them: "Apneas –", not 0 of a night where none could be scored (nor desaturations without SpO2).
    const cell = (label: string) => {
      const line = pdf.split('\n').find((l) => l.includes(`${label} `));
      return line?.slice(line.indexOf(label) + label.length).trim().split(/\s{2,}/)[0];
    };
    for (const label of ['Apneas', 'Hypopneas', 'Desaturations']) expect(cell(label), label).toBe('–');
  }, 60_000);
});

describe('an unscored tail of a hypnogram (decision 1032)', () => {
  it('stretches no night when the hypnogram and the PSG come in two uploads, hypnogram first', async () => {
    const hyp = await upload('NCT1002', [{ name: 'sleepedf_SC4001EC_hypnogram.edf', bytes: real('sleepedf_SC4001EC_hypnogram.edf') }]);
    expect(hyp.statusCode, hyp.body).toBe(201);
    const psg = await upload('NCT1002', [{ name: 'sleepedf_SC4001E0_short_psg.edf', bytes: real('sleepedf_SC4001E0_short_psg.edf') }]);
    expect(psg.statusCode, psg.body).toBe(201);
    expect(psg.json().data).toMatchObject({ merged: true });
    const { night_start_time: start, night_stop_time: stop } = psg.json().data;
    expect(stop - start).toBe(79_500_000);
    const nights = (await get(`/patient/available-nights?patient_id=${ids.NCT1002}`)).json().data.nights;
    const joined = nights.find((n: { night: number }) => n.night === psg.json().data.night);
    expect(joined.recording_stop_time - joined.recording_start_time).toBe(79_500_000);
    expect(joined.channels.find((c: { code: string }) => c.code === 'SLP_STGS')).toMatchObject({ count: 2650, valid: 2650 });
  });
});

describe('device summaries (issue 31 point 7)', () => {
  it('STR.edf alone: 311 days read, the 36 with therapy stored per day, no night made', async () => {
    const before = (await server.db.query<{ n: number }>('select count(*)::int as n from recordings where patient_id = $1', [ids.NCT1003]))[0].n;
    const res = await upload('NCT1003', [{ name: 'STR.edf', bytes: real('snore_resmed_STR.edf') }]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ code: 'device_summary_imported', data: { device_summary: { files: ['STR.edf'], days_read: 311, days_stored: 36, first_day: '2023-08-26', last_day: '2024-06-27' } } });
    expect((await server.db.query<{ n: number }>('select count(*)::int as n from recordings where patient_id = $1', [ids.NCT1003]))[0].n).toBe(before);
    const day = await deviceSummaryFor(server.db, ids.NCT1003!, Date.UTC(2023, 7, 26) / 1000);
    expect(day).toMatchObject({ day: '2023-08-26', vendor: 'resmed', ahi: 0.9, ai: 0.9, cai: 0.9, hi: 0, oai: 0, uai: 0, usage_min: 63 });
    expect(day!.mask_sessions).toHaveLength(1);
    // 762 minutes after the day's noon in Zurich (CEST): 00:42 local, 22:42 UTC.
    expect(day!.mask_sessions[0]!.on_ms).toBe(Date.UTC(2023, 7, 26, 22, 42));
    expect(await deviceSummaryFor(server.db, ids.NCT1003!, Date.UTC(2023, 7, 25) / 1000)).toBeNull();
    // Imported again: the same days, replaced, not doubled.
    expect((await upload('NCT1003', [{ name: 'STR.edf', bytes: real('snore_resmed_STR.edf') }])).statusCode).toBe(201);
    expect((await server.db.query<{ n: number }>('select count(*)::int as n from device_summaries where patient_id = $1', [ids.NCT1003]))[0].n).toBe(36);
  });

  it("the agreement table takes the device's AHI from its daily summary of that night's day when there is one", async () => {
    const files = ['BRP', 'PLD', 'SA2'].map((k) => `snore_resmed_20250110_000715_${k}.edf`).concat(['snore_resmed_20250110_000706_EVE.edf']);
    const res = await uploadFiles(server, physician, { patient_id: String(ids.NCT1003), timezone: 'UTC' }, files.map((name) => ({ name, bytes: real(name) })));
    expect(res.statusCode, res.body).toBe(201);
    const night = res.json().data.night as number;
    const before = (await get(`/analytics/patient/agreement?patient_id=${ids.NCT1003}&night=${night}`)).json().data;
    expect(before.device_ahi_basis).toBe('device_recording_time');
    // The STR file covers 2023-24; a day row for this night (as an STR import writes it) makes its AHI the device's.
    await server.db.query(`insert into device_summaries (patient_id, day, vendor, file_name, ahi, usage_min) values ($1, $2, 'resmed', 'STR.edf', 0.6, 104)`, [ids.NCT1003, new Date(night * 1000).toISOString().slice(0, 10)]);
    const after = (await get(`/analytics/patient/agreement?patient_id=${ids.NCT1003}&night=${night}`)).json().data;
    expect(after).toMatchObject({ device_ahi: 0.6, device_ahi_basis: 'device_summary' });
    const summary = (await post('/analytics/patient/all-kpi-summary', { patient_id: ids.NCT1003, night })).json().data;
    expect(summary.device_summary).toMatchObject({ ahi: 0.6, usage_min: 104, file_name: 'STR.edf' });
  });

  it("the trend's DEVICE_AHI series is the device's AHI per day; another physician's patient is 404", async () => {
    const from = Date.UTC(2023, 7, 26, 9) / 1000;
    const to = Date.UTC(2023, 8, 30, 9) / 1000;
    const trend = (await get(`/analytics/patient-trendview/type=DEVICE_AHI?patient_id=${ids.NCT1003}&device_start_time=${from}&device_stop_time=${to}`)).json().data;
    expect(trend.DEVICE_AHI[0]).toMatchObject({ date: '2023-08-26', value: 0.9, source: 'device_summary', usage_min: 63 });
    expect(trend.DEVICE_AHI.every((p: { date: string }) => p.date >= '2023-08-26' && p.date <= '2023-09-30')).toBe(true);
    const { token } = await signIn(server, DEMO_ACCOUNTS.admin);
    const other = await uploadFiles(server, token, { patient_id: String(ids.NCT1003) }, [{ name: 'STR.edf', bytes: real('snore_resmed_STR.edf') }]);
    expect(other.statusCode).toBe(404);
  });
});
