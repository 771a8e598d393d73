import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFiles } from '../../server/recordings/import';
import { writeEdfPlus } from '../../server/recordings/edf/writer';
import { scoredKindOf } from '../../server/recordings/vendors';
import { decodeWire } from '../../server/recordings/wire';
import { DEMO_ACCOUNTS, finishedReport, signIn, startTestServer, type TestServer } from './helpers';
import { uploadFiles } from './multipart';
import { nsrrXmlOf, PROFUSION_SCORED, profusionXmlOf, SCORED } from '../nsrr-xml';

const REAL = new URL('../fixtures/real/', import.meta.url);
const real = (name: string) => new Uint8Array(readFileSync(new URL(name, REAL)));
const BRP = 'snore_resmed_20250808_010210_BRP.edf';
const EVE = 'snore_resmed_20250808_010203_EVE.edf';
const SA2 = 'snore_resmed_20250808_010210_SA2.edf';

let server: TestServer;
let physician = '';
let annotator = '';
let patientId = 0;
let physicianId = 0;

beforeAll(async () => {
  server = await startTestServer();
  const signedIn = await signIn(server, DEMO_ACCOUNTS.physician);
  physician = signedIn.token;
  physicianId = signedIn.userId;
  annotator = (await signIn(server, DEMO_ACCOUNTS.annotator)).token;
  patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1005'`))[0].id;
});
afterAll(() => server.close());

const upload = (token: string, fields: Record<string, string>, files: Array<{ name: string; bytes: Uint8Array }>) => uploadFiles(server, token, fields, files);

/** Files are imported once per patient and a night's files merge: tests that re-import start from no nights. */
const fresh = () => server.db.query('delete from recordings where patient_id = $1', [patientId]);

/** A night's sleep figures as the Summary answers them (the staging a PSG's scoring gives). */
const figures = async (night: number) => {
  const s = (await server.call('POST', '/analytics/patient/all-kpi-summary', { token: physician, body: { patient_id: patientId, night } })).json().data;
  return { tst: s.total_sleep_time, se: s.sleep_efficiency, sol: s.sol, waso: s.waso, latencies: s.latencies };
};

const stored = async () => (await server.db.query<{ n: number }>('select (select count(*) from recordings) + (select count(*) from recording_chunks) as n'))[0].n;

describe('POST /patient/upload-recording', () => {
  it('imports a ResMed night (BRP, EVE, SA2) aligned by their start times, with the device events', async () => {
    const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC', device_id: 'RESMED-1' }, [
      { name: BRP, bytes: real(BRP) },
      { name: EVE, bytes: real(EVE) },
      { name: SA2, bytes: real(SA2) },
    ]);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.recording_start_time).toBe(Date.UTC(2025, 7, 8, 1, 2, 3));
    const codes = data.channels.map((c: { code: string }) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['NC_PSG', 'Press.40ms', 'PR', 'SPO2_PSG']));
    expect(data.channels.find((c: { code: string }) => c.code === 'NC_PSG')).toMatchObject({ label: 'Flow.40ms', fs: 25, count: 388 * 60 * 25 });

    const nights = (await server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token: annotator })).json().data.nights;
    expect(nights).toHaveLength(1);
    expect(nights[0]).toMatchObject({ device_id: 'RESMED-1', source: 'edf', recording_date: '2025-08-07' });
    // The oximeter recorded no valid value all night: the night list says so, beside each channel's sample count.
    expect(nights[0].channels.map((c: { code: string; count: number; valid: number }) => [c.code, c.count, c.valid])).toEqual([
      ['NC_PSG', 388 * 60 * 25, 388 * 60 * 25],
      ['Press.40ms', 388 * 60 * 25, 388 * 60 * 25],
      ['PR', 388 * 60, 0],
      ['SPO2_PSG', 388 * 60, 0],
    ]);

    const events = await server.db.query<{ onset_ms: number; duration_ms: number; text: string }>(
      `select onset_ms, duration_ms, text from recording_events where recording_id = $1 and text like '%Apnea%' order by onset_ms`,
      [data.recording_id],
    );
    const eveStart = Date.UTC(2025, 7, 8, 1, 2, 3);
    expect(events.filter((e) => e.text === 'Central Apnea').map((e) => [(e.onset_ms - eveStart) / 1000, e.duration_ms / 1000])).toEqual([
      [7199, 10],
      [14936, 14],
      [15334, 10],
      [16619, 10],
    ]);

    const flow = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${data.recording_id}&code=NC_PSG`, { token: physician });
    const wire = decodeWire(new Uint8Array(flow.rawPayload));
    expect(wire.t0).toBe(Date.UTC(2025, 7, 8, 1, 2, 10));
    expect(wire.samples.length).toBe(388 * 60 * 25);
    const spo2 = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${data.recording_id}&code=SPO2_PSG`, { token: physician });
    const oxi = decodeWire(new Uint8Array(spo2.rawPayload));
    // ResMed wrote -1 for "no oximeter": impossible for SpO2, so missing (NaN), and the file defines no missing codes.
    expect(Array.from(oxi.samples.slice(0, 5), (v) => v * oxi.scale + oxi.offset)).toEqual([NaN, NaN, NaN, NaN, NaN]);
    expect(oxi.missingCodes).toEqual([]);
    // The flow's digital -1 and -2 are flows of -2 and -4 mL/s, not missing codes.
    expect(wire.missingCodes).toEqual([]);
    const stored = await server.db.query<{ code: string; missing_codes: number[]; edf_range: unknown }>(
      'select code, missing_codes, edf_range from recording_channels where recording_id = $1 order by id',
      [data.recording_id],
    );
    expect(stored.map((c) => [c.code, c.missing_codes])).toEqual([['NC_PSG', []], ['Press.40ms', []], ['PR', []], ['SPO2_PSG', []]]);
    expect(stored[0].edf_range).toEqual({ physicalMin: '-2.00', physicalMax: '3.00', digitalMin: '-1000', digitalMax: '1500' });

    // The summary lists every channel, the Crc16 checksums skipped, and the impossible samples.
    const summary = data.summary;
    expect(summary.channels.map((c: { code: string; label: string; rate: number; unit: string }) => [c.code, c.label, c.rate, c.unit])).toEqual([
      ['NC_PSG', 'Flow.40ms', 25, 'L/s'],
      ['Press.40ms', 'Press.40ms', 25, 'cmH2O'],
      ['PR', 'Pulse.1s', 1, 'bpm'],
      ['SPO2_PSG', 'SpO2.1s', 1, '%'],
    ]);
    expect(summary.channels.find((c: { code: string }) => c.code === 'SPO2_PSG').outOfRange).toBe(388 * 60);
    // Files in order of their start (the EVE file starts 7 s before the others), then name.
    expect(summary.skipped.map((s: { file: string; label: string }) => `${s.file}:${s.label}`)).toEqual([`${EVE}:Crc16`, `${BRP}:Crc16`, `${SA2}:Crc16`]);
    // Which file each code came from, and whether it holds data.
    expect(summary.sources.map((s: { code: string; files: string[]; valid: number }) => [s.code, s.files, s.valid > 0])).toEqual([
      ['NC_PSG', [BRP], true],
      ['Press.40ms', [BRP], true],
      ['PR', [SA2], false],
      ['SPO2_PSG', [SA2], false],
    ]);
    // One session: the three files of one mask-on stretch.
    expect(nights[0].sessions).toEqual([{ start: Date.UTC(2025, 7, 8, 1, 2, 10), end: Date.UTC(2025, 7, 8, 1, 2, 10) + 388 * 60_000, duration_ms: 388 * 60_000, files: [EVE, BRP, SA2].sort() }]);
  });

  it('refuses an EDF with 0-s records holding signals, naming the file and field, and stores nothing', async () => {
    const before = await stored();
    const bytes = real(SA2);
    bytes.set(new TextEncoder().encode('0       '), 244);
    const res = await upload(physician, { patient_id: String(patientId) }, [{ name: 'zero.edf', bytes }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('zero.edf: duration of a data record: is 0 s, but the file has 2 signals (Pulse.1s, SpO2.1s): their samples would have no time');
    expect(await stored()).toBe(before);
  });

  it('refuses a truncated file, naming it and what was wrong, and stores nothing', async () => {
    const before = await stored();
    const bytes = real(BRP);
    // Another night's event file: this night's was imported above and would be refused as a duplicate.
    const res = await upload(physician, { patient_id: String(patientId) }, [
      { name: 'snore_resmed_20251025_005805_EVE.edf', bytes: real('snore_resmed_20251025_005805_EVE.edf') },
      { name: 'cut_BRP.edf', bytes: bytes.slice(0, Math.floor(bytes.length / 2)) },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_recording_file');
    expect(res.json().message).toMatch(/^cut_BRP\.edf: /);
    expect(await stored()).toBe(before);
  });

  it('refuses a CSV that is neither an oximeter export nor Timestamp,Value', async () => {
    const res = await upload(physician, { patient_id: String(patientId) }, [{ name: 'notes.csv', bytes: new TextEncoder().encode('Name,Comment\nA,B\n') }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('notes.csv');
  });

  it('imports an oximeter CSV in the patient\'s time zone', async () => {
    const csv = ['Time,Oxygen Level,Pulse Rate,Motion', '23:00:00 Mar 10 2026,96,61,0', '23:00:04 Mar 10 2026,95,62,0', '23:00:08 Mar 10 2026,--,--,3', '23:00:12 Mar 10 2026,94,60,0'].join('\n');
    const res = await upload(physician, { patient_id: String(patientId) }, [{ name: 'O2Ring_20260310.csv', bytes: new TextEncoder().encode(csv) }]);
    expect(res.statusCode).toBe(201);
    // NCT1005 lives in Switzerland: 23:00 in Zurich is 22:00 UTC in March.
    expect(res.json().data.recording_start_time).toBe(Date.UTC(2026, 2, 10, 22, 0, 0));
    expect(res.json().data.channels.map((c: { code: string }) => c.code)).toEqual(expect.arrayContaining(['SPO2', 'PR']));
  });

  it("reads a night's second oximeter export, its dates alone unable to tell day/month from month/day, in the order its upload's first settled (decision 1045)", async () => {
    // ViHealth on a day/month phone, one night in two exports: the first crosses midnight (3 → 4 November), the second, renamed, starts after it.
    const rows = (from: number, n: number) =>
      Array.from({ length: n }, (_, i) => {
        const d = new Date(from + i * 4000);
        const two = (v: number) => String(v).padStart(2, '0');
        return `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())} ${two(d.getUTCDate())}/${two(d.getUTCMonth() + 1)}/${d.getUTCFullYear()},96,61,0`;
      });
    const csv = (lines: string[]) => new TextEncoder().encode(['Time,Oxygen Level,Pulse Rate,Motion', ...lines].join('\r\n'));
    const first = csv(rows(Date.UTC(2026, 10, 3, 23, 50, 0), 900));
    const second = csv(rows(Date.UTC(2026, 10, 4, 1, 30, 0), 900));
    const alone = await upload(physician, { patient_id: String(patientId), timezone: 'UTC' }, [{ name: 'second-half.csv', bytes: second }]);
    expect(alone.statusCode).toBe(400);
    expect(alone.json().message).toContain('second-half.csv: Time: its dates (such as "04/11/2026") read as day/month and as month/day alike');
    await fresh();
    const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC' }, [
      { name: 'second-half.csv', bytes: second },
      { name: 'first-half.csv', bytes: first },
    ]);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.recording_start_time).toBe(Date.UTC(2026, 10, 3, 23, 50, 0));
    // One night to 02:30 on 4 November, not a second export a month away (11 April).
    expect(res.json().data.recording_stop_time).toBe(Date.UTC(2026, 10, 4, 1, 30, 0) + 900 * 4000);
    // A second export that the settled order makes unreadable (rows four days apart) is refused naming it, not a server error.
    await fresh();
    const apart = csv(['22:00:00 01/02/2026,95,60,0', '22:00:04 05/02/2026,95,60,0']);
    const refused = await upload(physician, { patient_id: String(patientId), timezone: 'UTC' }, [
      { name: 'first-half.csv', bytes: first },
      { name: 'apart.csv', bytes: apart },
    ]);
    expect(refused.statusCode).toBe(400);
    expect(refused.json().message).toContain('apart.csv: Time: rows span 96.0 h, more than the 36 h of one night');
    // The same through the import of files in memory.
    await fresh();
    const inMemory = await importFiles(server.db, { patientId, deviceId: null, createdBy: physicianId, timezone: 'UTC', files: [{ name: 'second-half.csv', bytes: second }, { name: 'first-half.csv', bytes: first }] });
    const [stored] = await server.db.query<{ start: string; stop: string }>('select start_ms as start, stop_ms as stop from recordings where id = $1', [inMemory.recordingId]);
    expect([Number(stored.start), Number(stored.stop)]).toEqual([Date.UTC(2026, 10, 3, 23, 50, 0), Date.UTC(2026, 10, 4, 1, 30, 0) + 900 * 4000]);
    await fresh();
  });

  it("reads a PSG's NSRR XML scoring file with its EDF: the night's hypnogram and scored events, as from its EDF+ hypnogram (decision 1048)", async () => {
    const psg = { name: 'sleepedf_SC4001E0_short_psg.edf', bytes: real('sleepedf_SC4001E0_short_psg.edf') };
    const hypnogram = real('sleepedf_SC4001EC_hypnogram.edf');
    const scoring = { name: 'sleepedf_SC4001E0_short_psg-nsrr.xml', bytes: new TextEncoder().encode(nsrrXmlOf(hypnogram, SCORED)) };
    const fields = { patient_id: String(patientId), timezone: 'Europe/Amsterdam' };
    await fresh();
    // Alone it is refused, saying where it goes; nothing is stored.
    const before = await stored();
    const alone = await upload(physician, fields, [scoring]);
    expect(alone.statusCode).toBe(400);
    expect(alone.json().message).toBe(`${scoring.name}: file: is a scoring file (NSRR XML), timed from its recording's start: upload it together with its EDF, or import it on its night with "Import scoring file"`);
    expect(await stored()).toBe(before);
    const fromEdf = await upload(physician, fields, [psg, { name: 'sleepedf_SC4001EC_hypnogram.edf', bytes: hypnogram }]);
    expect(fromEdf.statusCode, fromEdf.body).toBe(201);
    const expected = await figures(fromEdf.json().data.night);
    // 653 epochs of sleep, as the expert's hypnogram scores them.
    expect(expected.tst).toBeCloseTo((653 * 30) / 3600, 3);
    await fresh();
    const res = await upload(physician, fields, [scoring, psg]);
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data.device_events).toBe(5);
    expect(data.channels.map((c: { code: string }) => c.code)).toContain('SLP_STGS');
    expect(await figures(data.night)).toEqual(expected);
    const files = await server.db.query<{ file_name: string; format: string }>('select file_name, format from recording_files where recording_id = $1 order by file_name', [data.recording_id]);
    expect(files.map((f) => [f.file_name, f.format])).toEqual([
      [scoring.name, 'NSRR XML'],
      [psg.name, 'EDF'],
    ]);
    const events = await server.db.query<{ kind: string; vendor: string; onset_ms: string }>('select kind, vendor, onset_ms from device_events where recording_id = $1 order by onset_ms', [data.recording_id]);
    expect(events.map((e) => [e.kind, e.vendor, Number(e.onset_ms) - data.recording_start_time])).toEqual([
      ['obstructive_apnea', 'nsrr', 30_000_500],
      ['obstructive_apnea', 'nsrr', 30_120_000],
      ['hypopnea', 'nsrr', 31_000_000],
      ['desaturation', 'nsrr', 31_020_000],
      ['arousal', 'nsrr', 31_030_000],
    ]);
    // Compared with Nocturne as a sleep lab reports its AHI: the scorer's apneas and hypopneas per hour of sleep.
    const agreement = (await server.call('GET', `/analytics/patient/agreement?patient_id=${patientId}&night=${data.night}`, { token: physician })).json().data;
    expect(agreement).toMatchObject({ vendors: ['nsrr'], rules: { device: 'scorer' }, device_ahi_basis: 'scorer_sleep_time', device_hours: Math.round(expected.tst * 100) / 100 });
    expect(agreement.device_ahi).toBe(Math.round((3 / expected.tst) * 100) / 100);
    // The 5-min PSG's flow covers none of the sleep: nothing compared, no 0 % sensitivity.
    expect(agreement).toMatchObject({ nocturne_basis: 'no_breathing_signal_in_sleep', sensitivity: null, ppv: null, by_kind: { apneas: { sensitivity: null } } });
    // The night report says whose scoring it is compared with: the file's, not a device's.
    const report = await server.call('POST', '/reports', { token: physician, body: { patient_id: patientId, order_id: 'NCT1005', language: 'en', version: 1, report_type: 'en-pyn', dates: [{ numDate: data.night, checked: true }] } });
    expect(report.statusCode).toBe(202);
    const job = await finishedReport(server, report.json().data.id, physician);
    expect(job.status, job.error).toBe('done');
    const pdf = path.join(mkdtempSync(path.join(tmpdir(), 'nocturne-nsrr-')), 'night.pdf');
    writeFileSync(pdf, (await server.call('GET', `/reports/${job.id}/file`, { token: physician })).rawPayload);
    const text = execFileSync('/usr/bin/pdftotext', ['-layout', pdf, '-'], { encoding: 'utf8' }).replace(/\s+/g, ' ');
    rmSync(path.dirname(pdf), { recursive: true, force: true });
    expect(text).toContain("The night's scoring file");
    expect(text).toContain(`Scored events (${scoring.name}): 2 apneas, 1 hypopneas, 5 events in all.`);
    expect(text).toContain('Not compared (no breathing signal during sleep): Nocturne could score no apnea or hypopnea in this night.');
    expect(text).not.toContain('Agreement with the device');
    expect(text).not.toContain('Device-scored events');
    // The scoring file uploaded after its EDF: it scores the stored EDF it is named after, and joins its night.
    await fresh();
    const edfFirst = await upload(physician, fields, [psg]);
    expect(edfFirst.statusCode, edfFirst.body).toBe(201);
    expect((await figures(edfFirst.json().data.night)).tst).toBeNull();
    const unnamed = await upload(physician, fields, [{ ...scoring, name: 'scoring.xml' }]);
    expect(unnamed.statusCode).toBe(400);
    expect(unnamed.json().message).toContain('scoring.xml: file: is a scoring file (NSRR XML), timed from its recording\'s start');
    const later = await upload(physician, fields, [scoring]);
    expect(later.statusCode, later.body).toBe(201);
    expect(later.json().data).toMatchObject({ merged: true, night: edfFirst.json().data.night, recording_id: edfFirst.json().data.recording_id, device_events: 5 });
    expect(await figures(later.json().data.night)).toEqual(expected);
    // Picked again with its EDF, already stored: the EDF is left out as stored, the scoring file joins its night.
    await fresh();
    expect((await upload(physician, fields, [psg])).statusCode).toBe(201);
    const again = await upload(physician, fields, [psg, scoring]);
    expect(again.statusCode, again.body).toBe(201);
    expect(again.json().data).toMatchObject({ merged: true, device_events: 5, skipped_files: [{ name: psg.name, reason: 'already_stored' }] });
    expect(await figures(again.json().data.night)).toEqual(expected);
    // The same files imported from memory (the CLI reads from disk, as the upload does) make the same night.
    await fresh();
    const inMemory = await importFiles(server.db, { patientId, deviceId: null, createdBy: physicianId, timezone: 'Europe/Amsterdam', files: [scoring, psg] });
    expect(inMemory.deviceEvents).toBe(5);
    expect(await figures(inMemory.nightKey)).toEqual(expected);
    await fresh();
  });

  it("a scoring file imported on a night without staging (\"Import scoring file\") stages it, as the upload does; beside staging, or an annotator's, it is marks (decision 1051)", async () => {
    const psg = { name: 'sleepedf_SC4001E0_short_psg.edf', bytes: real('sleepedf_SC4001E0_short_psg.edf') };
    const hypnogram = { name: 'sleepedf_SC4001EC_hypnogram.edf', bytes: real('sleepedf_SC4001EC_hypnogram.edf') };
    // An XML named after no EDF: on its night, the night says where it starts.
    const xml = { name: 'lab-scoring.xml', bytes: new TextEncoder().encode(nsrrXmlOf(hypnogram.bytes, SCORED)) };
    // Five epochs of stages (2 Wake, 3 N2): two categories, as marks.
    const stage = (concept: string, start: number, duration: number) => `<ScoredEvent><EventType>Stages|Stages</EventType><EventConcept>${concept}</EventConcept><Start>${start}</Start><Duration>${duration}</Duration></ScoredEvent>`;
    const few = { name: 'few-stages.xml', bytes: new TextEncoder().encode(`<?xml version="1.0" encoding="UTF-8"?><PSGAnnotation><EpochLength>30</EpochLength><ScoredEvents>${stage('Wake|0', 0, 60)}${stage('Stage 2 sleep|2', 60, 90)}</ScoredEvents></PSGAnnotation>`) };
    const fields = { patient_id: String(patientId), timezone: 'Europe/Amsterdam' };
    const onto = (token: string, night: { recording_id: number }, file: { name: string; bytes: Uint8Array }) =>
      server.call('POST', '/analytics/patient/import-scoring', { token, body: { patient_id: patientId, recording_id: night.recording_id, file_name: file.name, content_base64: Buffer.from(file.bytes).toString('base64') } });
    const files = async (recordingId: number) => (await server.db.query<{ file_name: string; format: string }>('select file_name, format from recording_files where recording_id = $1 order by file_name', [recordingId])).map((f) => [f.file_name, f.format]);
    const marks = async (recordingId: number) => (await server.db.query<{ n: number }>('select count(*)::int as n from annotations where recording_id = $1 and delete_flag = 0', [recordingId]))[0].n;

    // The figures the upload of the PSG with its hypnogram gives.
    await fresh();
    const together = await upload(physician, fields, [psg, hypnogram]);
    expect(together.statusCode, together.body).toBe(201);
    const expected = await figures(together.json().data.night);
    expect(expected.tst).toBeCloseTo((653 * 30) / 3600, 3);

    // The PSG alone: no staging. An annotator's import of the lab's scoring: marks, and said so.
    await fresh();
    const alone = (await upload(physician, fields, [psg])).json().data;
    expect((await figures(alone.night)).tst).toBeNull();
    const byAnnotator = await onto(annotator, alone, few);
    expect(byAnnotator.statusCode, byAnnotator.body).toBe(201);
    expect(byAnnotator.json()).toMatchObject({ code: 'scoring_imported', data: { imported: 2, stages: { epochs: 5, as: 'marks_annotator', scored_events: 0 } } });
    expect((await figures(alone.night)).tst).toBeNull();
    expect(await files(alone.recording_id)).toEqual([[psg.name, 'EDF']]);

    // A physician's import of the EDF+ hypnogram: the night's staging, the same figures as the upload's, no marks of it.
    const marksBefore = await marks(alone.recording_id);
    const staged = await onto(physician, alone, hypnogram);
    expect(staged.statusCode, staged.body).toBe(201);
    expect(staged.json()).toMatchObject({ code: 'scoring_staged', data: { format: 'edf+', imported: 0, stages: { as: 'night_staging', scored_events: 0 } } });
    expect(staged.json().data.stages.epochs).toBe(together.json().data.channels.find((c: { code: string }) => c.code === 'SLP_STGS').count);
    expect(await figures(alone.night)).toEqual(expected);
    expect(await files(alone.recording_id)).toEqual([[psg.name, 'EDF'], [hypnogram.name, 'EDF+C']]);
    expect(await marks(alone.recording_id)).toBe(marksBefore);
    // On a staged night a scoring file's stages are marks beside the staging (a second scorer's, to compare or correct).
    const beside = await onto(physician, alone, few);
    expect(beside.statusCode, beside.body).toBe(201);
    expect(beside.json().data).toMatchObject({ imported: 0, duplicates: 2, stages: { epochs: 5, as: 'marks_beside_staging', scored_events: 0 } });
    expect(await figures(alone.night)).toEqual(expected);

    // The XML, named after no EDF, on the PSG's night: its stages and its scored events, as uploaded with the EDF.
    await fresh();
    const night = (await upload(physician, fields, [psg])).json().data;
    const fromXml = await onto(physician, night, xml);
    expect(fromXml.statusCode, fromXml.body).toBe(201);
    expect(fromXml.json().data).toMatchObject({ format: 'nsrr-xml', stages: { as: 'night_staging', scored_events: 5 } });
    expect(await figures(night.night)).toEqual(expected);
    expect(await files(night.recording_id)).toEqual([[xml.name, 'NSRR XML'], [psg.name, 'EDF']]);
    const events = await server.db.query<{ kind: string; onset_ms: string }>('select kind, onset_ms from device_events where recording_id = $1 order by onset_ms', [night.recording_id]);
    expect(events.map((e) => [e.kind, Number(e.onset_ms) - night.recording_start_time])).toEqual([
      ['obstructive_apnea', 30_000_500],
      ['obstructive_apnea', 30_120_000],
      ['hypopnea', 31_000_000],
      ['desaturation', 31_020_000],
      ['arousal', 31_030_000],
    ]);

    // Another night's hypnogram on this night is refused, nothing stored.
    await fresh();
    const other = (await upload(physician, fields, [psg])).json().data;
    // A night still being recorded (a device's live night) takes no files: a physician's stages are marks there.
    const [was] = await server.db.query<{ source: string; recording_meta: object }>('select source, recording_meta from recordings where id = $1', [other.recording_id]);
    await server.db.query(`update recordings set source = 'device', recording_meta = recording_meta || '{"live": true}'::jsonb where id = $1`, [other.recording_id]);
    const onLive = await onto(physician, other, few);
    expect(onLive.statusCode, onLive.body).toBe(201);
    expect(onLive.json().data.stages).toEqual({ epochs: 5, as: 'marks_live_night', scored_events: 0 });
    await server.db.query('update recordings set source = $2, recording_meta = $3 where id = $1', [other.recording_id, was.source, JSON.stringify(was.recording_meta)]);
    // A file of signals with its stages (a recording, not a scoring file): marks, and "Import recording" named for the rest.
    const t0 = other.recording_start_time;
    const signalsAndStages = writeEdfPlus({
      startMs: t0,
      stopMs: t0 + 150_000,
      timezone: 'Europe/Amsterdam',
      channels: [{ code: 'BR', label: 'BR', unit: 'bpm', sampleRate: 1, t0, storage: 'float32', scale: 1, offset: 0, samples: new Float32Array(150).fill(14) }],
      events: [{ onsetMs: t0, durationMs: 60_000, text: 'Sleep stage W' }, { onsetMs: t0 + 60_000, durationMs: 90_000, text: 'Sleep stage 2' }],
      meta: {},
    });
    const recordingFile = await onto(physician, other, { name: 'psg-with-stages.edf', bytes: signalsAndStages });
    expect(recordingFile.statusCode, recordingFile.body).toBe(201);
    expect(recordingFile.json()).toMatchObject({ code: 'scoring_imported', data: { stages: { epochs: 5, as: 'marks_recording_file', scored_events: 0 } } });
    expect((await figures(other.night)).tst).toBeNull();
    expect(await files(other.recording_id)).toEqual([[psg.name, 'EDF']]);
    const before = await stored();
    const hmc = { name: 'hmc_SN001_hypnogram_test_edfann.edf', bytes: real('hmc_SN001_hypnogram_test_edfann.edf') };
    const wrong = await onto(physician, other, hmc);
    expect(wrong.statusCode, wrong.body).toBe(422);
    expect(wrong.json()).toMatchObject({ code: 'scoring_outside_night' });
    expect(wrong.json().message).toContain(`${hmc.name}: scores `);
    expect(await stored()).toBe(before);
    expect((await figures(other.night)).tst).toBeNull();
    await fresh();
  });

  it("a PSG's Profusion XML picked with its EDF makes the night its NSRR XML makes: staging, scored events, a scorer's (decision 1052)", async () => {
    const psg = { name: 'sleepedf_SC4001E0_short_psg.edf', bytes: real('sleepedf_SC4001E0_short_psg.edf') };
    const hypnogram = real('sleepedf_SC4001EC_hypnogram.edf');
    const profusion = { name: 'sleepedf_SC4001E0_short_psg-profusion.xml', bytes: new TextEncoder().encode(profusionXmlOf(hypnogram, PROFUSION_SCORED)) };
    const fields = { patient_id: String(patientId), timezone: 'Europe/Amsterdam' };
    await fresh();
    const fromEdf = await upload(physician, fields, [psg, { name: 'sleepedf_SC4001EC_hypnogram.edf', bytes: hypnogram }]);
    const expected = await figures(fromEdf.json().data.night);
    await fresh();
    const res = await upload(physician, fields, [psg, profusion]);
    expect(res.statusCode, res.body).toBe(201);
    const data = res.json().data;
    expect(data.device_events).toBe(5);
    expect(await figures(data.night)).toEqual(expected);
    const files = await server.db.query<{ file_name: string; format: string }>('select file_name, format from recording_files where recording_id = $1 order by file_name', [data.recording_id]);
    expect(files.map((f) => [f.file_name, f.format])).toEqual([[profusion.name, 'Profusion XML'], [psg.name, 'EDF']]);
    const agreement = (await server.call('GET', `/analytics/patient/agreement?patient_id=${patientId}&night=${data.night}`, { token: physician })).json().data;
    expect(agreement).toMatchObject({ vendors: ['profusion'], rules: { device: 'scorer' }, device_ahi_basis: 'scorer_sleep_time' });
    expect(agreement.device_ahi).toBe(Math.round((3 / expected.tst) * 100) / 100);
    await fresh();
  });

  it('uses the physician\'s label map, and keeps unmapped signals under their own label', async () => {
    await fresh();
    const saved = await server.call('POST', '/recordings/label-map', { token: physician, body: { label_map: { 'Press.40ms': 'CPAP_PRESSURE' } } });
    expect(saved.statusCode).toBe(200);
    const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC' }, [{ name: BRP, bytes: real(BRP) }]);
    expect(res.statusCode).toBe(201);
    const codes = res.json().data.channels.map((c: { code: string }) => c.code);
    expect(codes).toContain('CPAP_PRESSURE');
    // Checksums are not imported.
    expect(codes).not.toContain('Crc16');
    expect(res.json().data.summary.skipped).toEqual([{ file: BRP, label: 'Crc16', reason: 'checksum-or-status' }]);
  });

  it('is refused to annotators and for another physician\'s patient', async () => {
    const res = await upload(annotator, { patient_id: String(patientId) }, [{ name: EVE, bytes: real(EVE) }]);
    expect(res.statusCode).toBe(403);
    const [other] = await server.db.query<{ id: number }>(`select id from users where email = $1`, [DEMO_ACCOUNTS.admin]);
    expect(other.id).toBeGreaterThan(0);
    const { token } = await signIn(server, DEMO_ACCOUNTS.admin);
    expect((await upload(token, { patient_id: String(patientId) }, [{ name: EVE, bytes: real(EVE) }])).statusCode).toBe(404);
  });
});

describe('export', () => {
  it('a night to EDF+ and back gives the same digital samples, times, labels and annotations', async () => {
    await fresh();
    // The exported file goes to another patient: for this one it would join the night it came from.
    const [other] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1003'`);
    const up = await upload(physician, { patient_id: String(patientId), timezone: 'UTC', device_id: 'RT-1' }, [
      { name: BRP, bytes: real(BRP) },
      { name: EVE, bytes: real(EVE) },
    ]);
    expect(up.statusCode).toBe(201);
    const first = up.json().data.recording_id;
    const res = await server.call('GET', `/analytics/patient/export-edf?patient_id=${patientId}&recording_id=${first}`, { token: physician });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('NCT1005_20250807_RT-1.edf');
    const edf = new Uint8Array(res.rawPayload);
    // The EVE file starts 7 s before the flow: a record for its first event, then a gap, then the data (no invented samples).
    expect(new TextDecoder().decode(edf.slice(192, 197))).toBe('EDF+D');

    const again = await upload(physician, { patient_id: String(other.id), timezone: 'UTC' }, [{ name: 'roundtrip.edf', bytes: edf }]);
    expect(again.statusCode).toBe(201);
    const second = again.json().data.recording_id;
    const codes = (await server.db.query<{ code: string }>('select code from recording_channels where recording_id = $1 order by id', [first])).map((c) => c.code);
    // The physician's label map of an earlier test named the pressure; the export keeps that code (reserved field).
    expect(codes).toEqual(['NC_PSG', 'CPAP_PRESSURE']);
    for (const code of codes) {
      const get = async (rid: number) => {
        const pid = rid === first ? patientId : other.id;
        const r = await server.call('GET', `/analytics/patient/channel-data?patient_id=${pid}&recording_id=${rid}&code=${encodeURIComponent(code)}`, { token: physician });
        expect(r.statusCode).toBe(200);
        return decodeWire(new Uint8Array(r.rawPayload));
      };
      const a = await get(first);
      const b = await get(second);
      expect({ code, t0: b.t0, scale: b.scale, offset: b.offset, storage: b.storage, codes: b.missingCodes }).toEqual({ code, t0: a.t0, scale: a.scale, offset: a.offset, storage: a.storage, codes: a.missingCodes });
      expect(Buffer.from(b.samples.buffer).equals(Buffer.from(a.samples.buffer))).toBe(true);
    }
    const labels = async (rid: number) =>
      (await server.db.query<{ code: string; label: string; unit: string; edf_range: unknown }>('select code, label, unit, edf_range from recording_channels where recording_id = $1 order by code', [rid]));
    expect(await labels(second)).toEqual(await labels(first));
    // The file's other annotations come back as written; its scored events come back as the
    // same device events (real times, kind, text, vendor and source file), not as new ones.
    const events = async (rid: number) =>
      (await server.db.query<{ onset_ms: number; duration_ms: number; text: string }>(`select onset_ms, duration_ms, text from recording_events where recording_id = $1 order by onset_ms, text`, [rid]))
        .filter((e) => scoredKindOf(e.text) === null)
        .map((e) => `${e.onset_ms}/${e.duration_ms}/${e.text}`);
    expect((await events(first)).length).toBeGreaterThan(0);
    expect(await events(second)).toEqual(await events(first));
    const device = async (rid: number) =>
      server.db.query<Record<string, unknown>>(`select onset_ms::text, duration_ms::text, kind, text, vendor, file_name from device_events where recording_id = $1 order by onset_ms, id`, [rid]);
    const before = await device(first);
    expect(before).toHaveLength(7);
    expect(before.every((e) => e.vendor === 'resmed' && e.file_name === EVE)).toBe(true);
    expect(await device(second)).toEqual(before);
    // And again: the re-imported night exports the same device events.
    const res2 = await server.call('GET', `/analytics/patient/export-edf?patient_id=${other.id}&recording_id=${second}`, { token: physician });
    const text = new TextDecoder('latin1').decode(new Uint8Array(res2.rawPayload));
    expect(text).toContain(`Central Apnea {resmed: ${EVE}}`);
    expect(text.split(`{resmed: ${EVE}}`).length - 1).toBe(7);
  });

  it('one channel as the spec\'s data-point CSV, not for annotators', async () => {
    const [rec] = await server.db.query<{ id: number }>(`select id from recordings where patient_id = $1 order by id limit 1`, [patientId]);
    const res = await server.call('GET', `/analytics/patient/data-points?patient_id=${patientId}&recording_id=${rec.id}&code=NC_PSG`, { token: physician });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('NC_PSG_20250807_RT-1_NCT1005.csv');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('Timestamp,Value');
    expect(lines[1]).toMatch(/^2025-08-08T01:02:10\.000Z,-?\d/);
    expect(lines.filter(Boolean).length).toBe(1 + 388 * 60 * 25);
    const denied = await server.call('GET', `/analytics/patient/data-points?patient_id=${patientId}&recording_id=${rec.id}&code=NC_PSG`, { token: annotator });
    expect(denied.statusCode).toBe(403);
  });
});

describe('every real recording imports', () => {
  for (const file of ['sleepedf_SC4001E0_short_psg.edf', 'hmc_SN001_hypnogram_test_edfann.edf', 'snore_resmed_20250808_010210_PLD.edf']) {
    it(file, async () => {
      const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC' }, [{ name: file, bytes: real(file) }]);
      if (file.startsWith('hmc')) {
        // A hypnogram alone is the night's sleep staging (issue 31 point 6): 854 epochs of 30 s.
        expect(res.statusCode).toBe(201);
        expect(res.json().data.channels).toEqual([{ code: 'SLP_STGS', label: 'Hypnogram', fs: 1 / 30, count: 854 }]);
        return;
      }
      expect(res.statusCode).toBe(201);
      const data = res.json().data;
      if (file.startsWith('sleepedf')) {
        expect(data.recording_start_time).toBe(Date.UTC(1989, 3, 24, 16, 13, 0));
        expect(data.channels.find((c: { code: string }) => c.code === 'EEG Fpz-Cz')).toMatchObject({ fs: 100, count: 300 * 100 });
      } else {
        expect(data.channels.filter((c: { fs: number }) => c.fs === 0.5).length).toBe(9);
      }
    });
  }
});
