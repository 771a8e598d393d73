import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelData } from '../../server/recordings/model';
import { saveNight } from '../../server/recordings/store';
import { readEdf } from '../../server/recordings/edf/reader';
import { DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';
import { uploadFiles } from './multipart';

let server: TestServer;
let physician = '';
let annotator = '';
const ids: Record<string, number> = {};
const nights: Record<string, number> = {};
/** A start with milliseconds, so exact times are checked to the millisecond. */
const START = Date.UTC(2026, 2, 9, 21, 30, 7) + 250;
const HOURS_8 = 8 * 3_600_000;

const channel = (code: string, rate: number, t0: number, hours: number): ChannelData => ({
  code, label: code, unit: '', sampleRate: rate, t0, storage: 'float32', scale: 1, offset: 0, samples: new Float32Array(Math.round(hours * 3600 * rate)).fill(1),
});

/** The same 8-h night (BR, NC_PSG, SPO2_PSG) for a patient. */
async function nightFor(code: string, start = START, hours = 8, timezone = 'Europe/Zurich'): Promise<number> {
  const [p] = await server.db.query<{ id: number }>('select id from patients where patient_code = $1', [code]);
  ids[code] = p.id;
  const channels = [channel('BR', 1, start, hours), channel('NC_PSG', 1, start, hours), channel('SPO2_PSG', 1, start, hours)];
  return saveNight(server.db, { patientId: p.id, deviceId: null, source: 'simulated', createdBy: null, night: { startMs: start, stopMs: start + hours * 3_600_000, timezone, channels, events: [], meta: {} } });
}

const post = (token: string, url: string, body: object) => server.call('POST', url, { token, body });
const get = (token: string, url: string) => server.call('GET', url, { token });
const importFile = (token: string, code: string, fileName: string, bytes: Uint8Array | string, extra: object = {}) =>
  post(token, '/analytics/patient/import-scoring', { patient_id: ids[code], recording_id: nights[code], file_name: fileName, content_base64: Buffer.from(bytes).toString('base64'), ...extra });

interface Mark { start: number; end: number; category: string; kpi: string }
/** A night's live annotations as (start, end, category name, channels), in time order. */
async function marksOf(code: string): Promise<Mark[]> {
  const rows = await server.db.query<{ start_ms: number; end_ms: number; category: string; kpi: string }>(
    `select a.start_ms, a.end_ms, c.label as category, a.kpi from annotations a join annotation_categories c on c.label_id = a.label
     where a.recording_id = $1 and a.delete_flag = 0 order by a.start_ms, c.label, a.kpi`,
    [nights[code]],
  );
  return rows.map((r) => ({ start: Number(r.start_ms), end: Number(r.end_ms), category: r.category, kpi: r.kpi }));
}

beforeAll(async () => {
  server = await startTestServer();
  ({ token: physician } = await signIn(server, DEMO_ACCOUNTS.physician));
  ({ token: annotator } = await signIn(server, DEMO_ACCOUNTS.annotator));
  nights.NCT1002 = await nightFor('NCT1002');
  nights.NCT1003 = await nightFor('NCT1003');
  // A custom category, and marks of every kind: multi-channel, sub-second times, a long one.
  const snore = await post(physician, '/patient/add-label', { patient_id: ids.NCT1002, label: 'Snore & <noise>', color_code: '#123456' });
  expect(snore.statusCode).toBe(201);
  const snoreId = snore.json().data.label.label_id as number;
  const key = await nightKey('NCT1002');
  const marks: Array<[string, string, number, number, number]> = [
    [physician, 'NC_PSG', 60_000, 10_000, 1],
    [physician, 'NC_PSG,SPO2_PSG', 125_125, 14_875, 3],
    [annotator, 'SPO2_PSG', 3_600_001, 33_333, 2],
    [annotator, 'BR', 7_200_000, 3_600_000, snoreId],
    [physician, 'BR,NC_PSG,SPO2_PSG', HOURS_8 - 30_000, 30_000, snoreId],
  ];
  for (const [token, kpi, offset, duration, label] of marks) {
    const res = await post(token, '/analytics/patient/new-annotations', { patient_id: ids.NCT1002, night: key, kpi, start_time: START + offset, end_time: START + offset + duration, label });
    expect(res.statusCode).toBe(201);
  }
  // One of Nocturne's detector marks (type system), to tell the sources apart.
  await server.db.query(
    `insert into annotations (patient_id, recording_id, night, type, kpi, start_ms, end_ms, label, color_code, doctor_id, created_by, updated_by)
     select patient_id, $1, night, 'system', 'AP_timing', $2, $3, 1, '#DA7171', doctor_id, created_by, created_by from annotations where recording_id = $1 limit 1`,
    [nights.NCT1002, START + 900_000, START + 912_000],
  );
});
afterAll(() => server.close());

async function nightKey(code: string): Promise<number> {
  const [r] = await server.db.query<{ night_key: number }>('select night_key from recordings where id = $1', [nights[code]]);
  return Number(r.night_key);
}

describe('scoring files (NSRR XML, EDF+ annotations)', () => {
  it('NSRR XML: exported and imported onto another patient\'s night, every mark keeps start, duration, label and channels to the millisecond', async () => {
    const original = await marksOf('NCT1002');
    expect(original).toHaveLength(6);
    const res = await get(physician, `/analytics/patient/export-nsrr-xml?patient_id=${ids.NCT1002}&recording_id=${nights.NCT1002}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/xml/);
    const xml = res.body;
    // The NSRR shape, escaped: one ScoredEvent per mark and channel, plus the recording's start.
    expect(xml).toContain('<EventConcept>Recording Start Time</EventConcept>');
    expect(xml).toContain('<ClockTime>00.00.00 22.30.07</ClockTime>');
    expect(xml).toContain('<EventConcept>Hypopnea|Hypopnea</EventConcept>');
    expect(xml).toContain('<EventConcept>Snore &amp; &lt;noise&gt;|Snore &amp; &lt;noise&gt;</EventConcept>');
    expect(xml.match(/<ScoredEvent>/g)).toHaveLength(1 + 1 + 2 + 1 + 1 + 3 + 1);
    // Start is counted from the whole second at or before the night's start (22:30:07 local; the night starts 250 ms later).
    expect(xml).toContain('<Start>125.375</Start>');

    const imported = await importFile(physician, 'NCT1003', 'scoring.xml', xml);
    expect(imported.statusCode).toBe(201);
    expect(imported.json().data).toMatchObject({ format: 'nsrr-xml', imported: 6, duplicates: 0, outside: 0, categories_created: ['Snore & <noise>'] });
    expect(await marksOf('NCT1003')).toEqual(original);

    // The same file again adds nothing: every mark is already there.
    const again = await importFile(physician, 'NCT1003', 'scoring.xml', xml);
    expect(again.json().data).toMatchObject({ imported: 0, duplicates: 6 });
  });

  it('exports by source and author: people\'s marks, Nocturne\'s detector marks, the device\'s', async () => {
    const count = async (query: string) => (await get(physician, `/analytics/patient/export-nsrr-xml?patient_id=${ids.NCT1002}&recording_id=${nights.NCT1002}&${query}`)).body.match(/<ScoredEvent>/g)?.length;
    // One ScoredEvent per mark and channel, after the recording's start.
    expect(await count('source=human')).toBe(1 + 1 + 2 + 1 + 1 + 3);
    expect(await count('source=automatic')).toBe(1 + 1);
    expect(await count('source=device')).toBe(1);
    const [annotatorUser] = await server.db.query<{ id: number }>('select id from users where email = $1', [DEMO_ACCOUNTS.annotator]);
    expect(await count(`author=${annotatorUser.id}`)).toBe(1 + 1 + 1);
    const edf = await get(physician, `/analytics/patient/export-edf-annotations?patient_id=${ids.NCT1002}&recording_id=${nights.NCT1002}&source=automatic`);
    expect(readEdf(new Uint8Array(edf.rawPayload), 'a.edf', { timezone: 'Europe/Zurich' }).annotations.map((a) => a.text)).toEqual(['Apnea@@AP_timing']);
  });

  it('EDF+ annotations: exported, the night\'s marks deleted, imported again: the same marks', async () => {
    const original = await marksOf('NCT1002');
    const res = await get(physician, `/analytics/patient/export-edf-annotations?patient_id=${ids.NCT1002}&recording_id=${nights.NCT1002}`);
    expect(res.statusCode).toBe(200);
    const bytes = new Uint8Array(res.rawPayload);
    const edf = readEdf(bytes, 'x.edf', { timezone: 'Europe/Zurich' });
    expect(edf.variant).toBe('EDF+C');
    expect(edf.signals).toHaveLength(0);
    expect(edf.annotations.map((a) => a.text)).toContain('Hypoapnea@@SPO2_PSG');

    const ids2 = (await server.db.query<{ annotation_map_id: number }>('select annotation_map_id from annotations where recording_id = $1 and delete_flag = 0', [nights.NCT1002])).map((r) => r.annotation_map_id);
    expect((await post(physician, '/analytics/patient/delete-annotations', { ids: ids2 })).json().data.deleted).toBe(6);
    expect(await marksOf('NCT1002')).toEqual([]);
    const imported = await importFile(annotator, 'NCT1002', 'scoring.edf', bytes);
    expect(imported.statusCode).toBe(201);
    expect(imported.json().data).toMatchObject({ format: 'edf+', imported: 6, categories_created: [] });
    expect(await marksOf('NCT1002')).toEqual(original);
  });

  it('reads an NSRR file of another tool: its clock time places Start 0, SDO and stage concepts land in our categories, unknown labels get their own', async () => {
    nights.NCT1004 = await nightFor('NCT1004', Date.UTC(2026, 2, 9, 21, 0), 8, 'Europe/Zurich');
    // Start 0 is 22:15:00 local (21:15 UTC), 15 minutes after the night's start.
    const xml = `<?xml version="1.0" encoding="ISO-8859-1"?>
<PSGAnnotation><SoftwareVersion>Compumedics</SoftwareVersion><EpochLength>30</EpochLength><ScoredEvents>
<ScoredEvent><EventConcept>Recording Start Time</EventConcept><Start>0</Start><Duration>28000</Duration><ClockTime>00.00.00 22.15.00</ClockTime></ScoredEvent>
<ScoredEvent><EventType>Stages|Stages</EventType><EventConcept>Stage 2 sleep|2</EventConcept><Start>30</Start><Duration>30.0</Duration></ScoredEvent>
<ScoredEvent><EventConcept>SDO:ObstructiveApneaFinding</EventConcept><Start>100.5</Start><Duration>18.3</Duration><SignalLocation>Airflow</SignalLocation></ScoredEvent>
<ScoredEvent><EventConcept>SpO2 artifact|SpO2 artifact</EventConcept><Start>200</Start><Duration>5</Duration><SignalLocation>SaO2</SignalLocation></ScoredEvent>
<ScoredEvent><EventConcept>Limb movement - left|Limb Movement (Left)</EventConcept><Start>300</Start><Duration>2</Duration><SignalLocation>L Leg</SignalLocation></ScoredEvent>
</ScoredEvents></PSGAnnotation>`;
    const res = await importFile(annotator, 'NCT1004', 'shhs-like-nsrr.xml', new Uint8Array(Buffer.from(xml, 'latin1')));
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.labels).toEqual({ 'Stage 2 sleep|2': 'N2', 'SDO:ObstructiveApneaFinding': 'Apnea', 'SpO2 artifact|SpO2 artifact': 'SpO2 artifact', 'Limb movement - left|Limb Movement (Left)': 'Limb movement - left' });
    expect(data.categories_created.sort()).toEqual(['Limb movement - left', 'N2', 'SpO2 artifact']);
    const zero = Date.UTC(2026, 2, 9, 21, 15);
    expect(await marksOf('NCT1004')).toEqual([
      { start: zero + 30_000, end: zero + 60_000, category: 'N2', kpi: 'SLP_STGS' },
      { start: zero + 100_500, end: zero + 118_800, category: 'Apnea', kpi: 'NC_PSG' },
      { start: zero + 200_000, end: zero + 205_000, category: 'SpO2 artifact', kpi: 'SPO2_PSG' },
      { start: zero + 300_000, end: zero + 302_000, category: 'Limb movement - left', kpi: 'SLP_STGS' },
    ]);
    expect(data.channels_substituted).toEqual([{ from: null, to: 'SLP_STGS', count: 1 }, { from: 'L Leg', to: 'SLP_STGS', count: 1 }]);
  });

  it('reads a real EDF+ annotation file (HMC sleep staging): one mark per annotation, stages counted as the file has them; a physician\'s import stages the night (decision 1051)', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../fixtures/real/hmc_SN001_hypnogram_test_edfann.edf', import.meta.url)));
    const edf = readEdf(bytes, 'hmc.edf', { timezone: 'UTC' });
    const end = Math.max(...edf.annotations.map((a) => a.onset + a.duration));
    nights.NCT1005 = await nightFor('NCT1005', edf.startMs, Math.ceil(end / 360) / 10, 'UTC');
    // Seven labels of its own would pass the spec's 12 categories (seven are built in): refused whole, naming them.
    const refused = await importFile(annotator, 'NCT1005', 'hmc.edf', bytes);
    expect(refused.statusCode).toBe(422);
    expect(refused.json().message).toContain('Lights off');
    expect(await marksOf('NCT1005')).toEqual([]);
    // The lights markers filed under an existing category: the stages come in as the file has them.
    // An annotator's import: marks (annotators import no recording), said so.
    const res = await importFile(annotator, 'NCT1005', 'hmc.edf', bytes, { category_map: { 'Lights off': 'Irregularities', 'Lights on': 'Irregularities' } });
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ imported: 856, stages: { epochs: 854, as: 'marks_annotator', scored_events: 0 } });
    const counts: Record<string, number> = {};
    for (const m of await marksOf('NCT1005')) counts[m.category] = (counts[m.category] ?? 0) + 1;
    expect(counts).toEqual({ Wake: 151, N1: 109, N2: 430, N3: 23, REM: 141, Irregularities: 2 });
    // A physician's import of the same file: this unstaged night's sleep staging (its sleep: 703 epochs of N1–REM).
    const staged = await importFile(physician, 'NCT1005', 'hmc.edf', bytes);
    expect(staged.statusCode, staged.body).toBe(201);
    expect(staged.json()).toMatchObject({ code: 'scoring_staged', data: { format: 'edf+', imported: 0, stages: { as: 'night_staging', scored_events: 0 } } });
    const summary = (await post(physician, '/analytics/patient/all-kpi-summary', { patient_id: ids.NCT1005, night: await nightKey('NCT1005') })).json().data;
    expect(summary.total_sleep_time).toBeCloseTo((703 * 30) / 3600, 2);
    expect((await marksOf('NCT1005')).length).toBe(856);
  });

  it("a night staged by its own hypnogram exports that staging: every stage epoch as the file scored it, in both formats (decision 1034)", async () => {
    const fixture = (name: string) => new Uint8Array(readFileSync(new URL(`../fixtures/real/${name}`, import.meta.url)));
    const [p] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1001'`);
    const up = await uploadFiles(server, physician, { patient_id: String(p.id), timezone: 'Europe/Zurich' }, [
      { name: 'sleepedf_SC4001E0_short_psg.edf', bytes: fixture('sleepedf_SC4001E0_short_psg.edf') },
      { name: 'sleepedf_SC4001EC_hypnogram.edf', bytes: fixture('sleepedf_SC4001EC_hypnogram.edf') },
    ]);
    expect(up.statusCode, up.body).toBe(201);
    const [rec] = await server.db.query<{ id: number }>('select id from recordings where patient_id = $1 and night_key = $2', [p.id, up.json().data.night]);
    // What the file scores, read apart: its stage annotations in order (R&K: W, 1–4, R, M, ?).
    const hyp = readEdf(fixture('sleepedf_SC4001EC_hypnogram.edf'), 'h.edf', { timezone: 'Europe/Zurich' });
    const stages = hyp.annotations.filter((a) => /^Sleep stage /.test(a.text) || a.text === 'Movement time');
    expect(stages.length).toBeGreaterThan(100);
    const url = (kind: string, source = 'all') => `/analytics/patient/export-${kind}?patient_id=${p.id}&recording_id=${rec.id}&source=${source}`;

    const xml = (await get(physician, url('nsrr-xml'))).body;
    const scored = [...xml.matchAll(/<ScoredEvent>\n<EventType>Stages\|Stages<\/EventType>\n<EventConcept>([^<]+)<\/EventConcept>\n<Start>([\d.]+)<\/Start>\n<Duration>([\d.]+)<\/Duration>\n<\/ScoredEvent>/g)];
    expect(scored).toHaveLength(stages.length);
    const NSRR: Record<string, string> = { W: 'Wake|0', '1': 'Stage 1 sleep|1', '2': 'Stage 2 sleep|2', '3': 'Stage 3 sleep|3', '4': 'Stage 4 sleep|4', R: 'REM sleep|5', '?': 'Unscored|9' };
    stages.forEach((a, i) => {
      const [, concept, start, duration] = scored[i]!;
      expect(concept, a.text).toBe(a.text === 'Movement time' ? 'Movement|6' : NSRR[a.text.slice('Sleep stage '.length)]);
      expect(Number(start)).toBeCloseTo(a.onset, 3);
      expect(Number(duration)).toBeCloseTo(a.duration, 3);
    });
    // R&K's stage 4 is kept apart from 3 (both are deep sleep to the indices).
    expect(scored.some((m) => m[1] === 'Stage 4 sleep|4')).toBe(true);

    const edf = readEdf(new Uint8Array((await get(physician, url('edf-annotations'))).rawPayload), 'a.edf', { timezone: 'Europe/Zurich' });
    expect(edf.annotations.map((a) => [a.text, a.onset, a.duration])).toEqual(stages.map((a) => [a.text, a.onset, a.duration]));
    // The file's staging is no person's and no detector's marks.
    expect((await get(physician, url('nsrr-xml', 'device'))).body.match(/Stages\|Stages/g)).toHaveLength(stages.length);
    expect((await get(physician, url('nsrr-xml', 'human'))).body).not.toContain('Stages|Stages');
    expect((await get(physician, url('nsrr-xml', 'automatic'))).body).not.toContain('Stages|Stages');
  });

  it('refuses what it cannot read, and a file of another night, with a clear error and nothing stored', async () => {
    const before = (await marksOf('NCT1004')).length;
    const garbage = await importFile(physician, 'NCT1004', 'notes.txt', 'hello');
    expect(garbage.statusCode).toBe(400);
    expect(garbage.json().code).toBe('scoring_format_unknown');
    const broken = await importFile(physician, 'NCT1004', 'broken.xml', '<PSGAnnotation><ScoredEvents><ScoredEvent><EventConcept>Apnea</EventConcept><Start>ten</Start></ScoredEvent></ScoredEvents></PSGAnnotation>');
    expect(broken.statusCode).toBe(400);
    expect(broken.json()).toMatchObject({ code: 'scoring_file_unreadable', message: 'broken.xml: ScoredEvent 1 Start: "ten" is not a number of seconds ≥ 0' });
    const bomb = await importFile(physician, 'NCT1004', 'bomb.xml', '<!DOCTYPE x [<!ENTITY a "aaaa">]><PSGAnnotation/>');
    expect(bomb.json().code).toBe('scoring_file_unreadable');
    const notXml = await importFile(physician, 'NCT1004', 'other.xml', '<html><body/></html>');
    expect(notXml.json().message).toContain('no <PSGAnnotation> root');
    const late = await importFile(physician, 'NCT1004', 'late.xml', '<PSGAnnotation><ScoredEvents><ScoredEvent><EventConcept>New thing</EventConcept><Start>90000</Start><Duration>5</Duration></ScoredEvent></ScoredEvents></PSGAnnotation>');
    expect(late.statusCode).toBe(422);
    expect(late.json().code).toBe('scoring_outside_night');
    expect((await marksOf('NCT1004')).length).toBe(before);
    // The refused import created no category either.
    const [cats] = await server.db.query<{ n: number }>(`select count(*)::int as n from annotation_categories where patient_id = $1 and label = 'New thing'`, [ids.NCT1004]);
    expect(cats.n).toBe(0);
  });
});
