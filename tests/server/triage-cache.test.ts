// The dashboard's triage table kept per practice (issue 18 point 4, migration 029): an answer is
// served again only while no row it is made of has changed for the practice. Each input is
// changed here — through the routes that change it, or straight in the database as another
// process would — and the next table must show the change; another practice's changes and a
// live device's frame batches leave the kept answer alone.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import type { Triage, TriagePatient } from '../../contract/triage';
import { patientsEndpoints } from '../../contract/endpoints/patients';
import { NEW_PATIENT_VITALS } from '../../server/seed';
import { FrameError, validateFrame } from '../../server/live/frames';
import { commitBatch, endSession, frameDigest, openSession, type BatchItem, type LiveSession } from '../../server/live/ingest';
import { encodeFrame } from '../../contract/live-protocol';
import { openPostgres } from '../../server/db/postgres';
import { prepare } from '../../server/start';
import { DEMO_ACCOUNTS, queriesOf, signIn, startTestServer, TEST_DB, type TestServer } from './helpers';
import { uploadFiles } from './multipart';

let server: TestServer;
let physician = '';
let paid = '';
let physicianId = 0;
let patientId = 0;
const nights: Array<{ id: number; night: number }> = [];
const START = Date.UTC(2025, 9, 1, 22, 0, 0);
const DAY = 86_400_000;

/** SpO2 with a 40-s dip every `period` s, to 90 % and to 92.5 % in turn (the 4 % rule counts half of the 3 % rule's). */
const dip = (s: number, period: number) => (s % period < 40 ? (Math.floor(s / period) % 2 ? 90 : 92.5) : 96);

/** A Timestamp,Value CSV at 1 Hz from `fromMs` for `seconds`. */
function csv(fromMs: number, seconds: number, value: (s: number) => number): Uint8Array {
  const lines = ['Timestamp,Value'];
  for (let s = 0; s < seconds; s++) lines.push(`${new Date(fromMs + s * 1000).toISOString()},${value(s)}`);
  return new TextEncoder().encode(lines.join('\n'));
}

async function importNight(k: number): Promise<{ id: number; night: number }> {
  const res = await uploadFiles(server, physician, { patient_id: String(patientId), timezone: 'UTC', channel: 'SPO2' }, [
    { name: `night_${k}_SPO2.csv`, bytes: csv(START + k * DAY, 2 * 3600, (s) => dip(s, 240 + 60 * k)) },
  ]);
  expect(res.statusCode).toBe(201);
  await server.app.nightStats.idle();
  return { id: res.json().data.recording_id, night: res.json().data.night };
}

// The kept answer is sent as bytes, past the server's answer check: it is checked here against its schema.
const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
const triageAnswer = ajv.compile(patientsEndpoints['GET /physician/triage'].response[200]);

async function triageOf(token = physician): Promise<Triage> {
  const res = await server.call('GET', '/physician/triage', { token });
  expect(res.statusCode).toBe(200);
  expect(triageAnswer(res.json()), ajv.errorsText(triageAnswer.errors)).toBe(true);
  return res.json().data as Triage;
}

/** What the table is read from: none of it is read for a kept answer. */
const READS = /from patients|recordings|night_analyses|night_channel_stats|physician_preferences/;

/** The table, asked twice: the second answer is the kept one (no input row is read) and equal to the first. */
async function keptTriage(token = physician): Promise<Triage> {
  const first = await triageOf(token);
  const sql = await queriesOf(server, async () => expect(await triageOf(token)).toEqual(first));
  expect(sql.filter((q) => READS.test(q))).toEqual([]);
  return first;
}

/** The table is served from the kept answer (after some change elsewhere). */
async function stillKept(token = physician): Promise<void> {
  const sql = await queriesOf(server, () => triageOf(token));
  expect(sql.filter((q) => READS.test(q))).toEqual([]);
}

const mine = (t: Triage, id = patientId): TriagePatient | undefined => t.patients.find((p) => p.patient_id === id);
const practiceRev = async (id = physicianId) =>
  (await server.db.query<{ rev: string }>(`select rev::text as rev from data_revisions where scope = 'practice:' || $1::int`, [id]))[0]?.rev ?? null;

beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  paid = (await signIn(server, DEMO_ACCOUNTS.paid)).token;
  [{ id: patientId, physician_id: physicianId }] = await server.db.query<{ id: number; physician_id: number }>(`select id, physician_id from patients where patient_code = 'NCT1003'`);
  for (let k = 0; k < 2; k++) nights.push(await importNight(k));
}, 120_000);
afterAll(() => server.close());

describe('the triage table kept per practice', () => {
  it('is served again while nothing changed: same JSON, an entity tag, 304 for it, and gzip when accepted', async () => {
    const triage = await keptTriage();
    expect(mine(triage)!.nights.map((n) => n.recording_id)).toEqual(nights.map((n) => n.id));
    const headers = { authorization: `Bearer ${physician}` };
    const first = await server.app.inject({ method: 'GET', url: '/api/v1/physician/triage', headers });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await server.app.inject({ method: 'GET', url: '/api/v1/physician/triage', headers: { ...headers, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const zipped = await server.app.inject({ method: 'GET', url: '/api/v1/physician/triage', headers: { ...headers, 'accept-encoding': 'gzip' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(first.json());
    // Without the session: 401, never the kept answer; an annotator is refused it too.
    expect((await server.app.inject({ method: 'GET', url: '/api/v1/physician/triage' })).statusCode).toBe(401);
    const annotator = (await signIn(server, DEMO_ACCOUNTS.annotator)).token;
    expect((await server.call('GET', '/physician/triage', { token: annotator })).statusCode).toBe(403);
  });

  it('is kept per membership: a paid member of the same practice gets no AHI or ODI', async () => {
    const full = await keptTriage();
    const noIndices = await keptTriage(paid);
    expect(mine(full)!.last).toHaveProperty('ahi');
    expect(mine(noIndices)!.last).not.toHaveProperty('ahi');
    expect(mine(noIndices)!.last).not.toHaveProperty('odi');
    await stillKept();
  });

  it('a new night is in the next answer', async () => {
    await keptTriage();
    nights.push(await importNight(2));
    expect(mine(await keptTriage())!.nights.map((n) => n.recording_id)).toEqual(nights.map((n) => n.id));
  });

  it('a changed statistics row or analysis row (as another process writes them) is in the next answer', async () => {
    await keptTriage();
    const last = nights.at(-1)!.id;
    await server.db.query(`update night_channel_stats set stats = jsonb_set(stats, '{min}', '80.5') where recording_id = $1 and code = 'SPO2'`, [last]);
    expect(mine(await keptTriage())!.last!.lowest_spo2).toBe(80.5);
    await server.db.query(`update night_analyses set kpis = jsonb_set(kpis, '{ahi}', '42.5') where recording_id = $1`, [last]);
    const changed = mine(await keptTriage())!;
    expect(changed.last!.ahi).toBe(42.5);
    expect(changed.attention).toBe(3);
    // A night whose statistics are gone is not analysed (pending) until they are stored again.
    await server.db.query(`delete from night_channel_stats where recording_id = $1 and code = 'SPO2'`, [last]);
    const pending = await keptTriage();
    expect(mine(pending)!.last!.analysed).toBe(false);
    expect(pending.pending).toBeGreaterThan(0);
    // Stored again by the page's prepare calls: analysed again in the next answer.
    for (let left = pending.pending; left > 0; ) left = (await server.call('POST', '/physician/triage/prepare', { token: physician, body: {} })).json().data.remaining;
    expect(mine(await keptTriage())!.last!.analysed).toBe(true);
  });

  it('a flag on the patient (At Risk) and its name are in the next answer', async () => {
    const before = mine(await keptTriage())!;
    const flag = async (atRisk: number) => expect((await server.call('POST', '/physician/update-patient-info', { token: physician, body: { patient_id: patientId, at_risk: atRisk } })).statusCode).toBe(200);
    await flag(before.flagged ? 2 : 1);
    expect(mine(await keptTriage())!.flagged).toBe(!before.flagged);
    await flag(before.flagged ? 1 : 2);
    expect(mine(await keptTriage())!.flagged).toBe(before.flagged);
    await server.db.query(`update patients set first_name = 'Renamed' where id = $1`, [patientId]);
    expect(mine(await keptTriage())!.name).toMatch(/^Renamed/);
  });

  it('a patient added to, moved out of, returned from or deleted from the practice changes the next answer', async () => {
    const count = async () => (await keptTriage()).patients.length;
    const n = await count();
    const res = await server.call('POST', '/physician/new-patient', {
      token: physician,
      body: { patient_code: 'TRIAGE1', first_name: 'Tria', last_name: 'Ge', gender: 'F', date_of_birth: '1970', height: '170', weight: '70', diseaseIds: '2', vital_parameters: JSON.stringify(NEW_PATIENT_VITALS), country: 'Switzerland' },
    });
    expect(res.statusCode).toBeLessThan(300);
    const [{ id: added }] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'TRIAGE1'`);
    expect(await count()).toBe(n + 1);
    // Moved to the sample practice (another practice: its revision, not only ours, changes).
    const other = await practiceRev(2112);
    await server.db.query(`update patients set physician_id = 2112 where id = $1`, [added]);
    expect(await practiceRev(2112)).not.toBe(other);
    expect(await count()).toBe(n);
    await server.db.query(`update patients set physician_id = $2 where id = $1`, [added, physicianId]);
    expect(await count()).toBe(n + 1);
    // Its device returned (the archive): no longer under care.
    expect((await server.call('POST', '/physician/update-patient-status', { token: physician, body: { patient_id: added, archive: true } })).statusCode).toBe(200);
    expect(await count()).toBe(n);
    await server.db.query(`update patients set phys_device_return_date = null where id = $1`, [added]);
    expect(await count()).toBe(n + 1);
    await server.db.query(`delete from patient_diseases where patient_id = $1`, [added]);
    await server.db.query(`delete from patients where id = $1`, [added]);
    expect(await count()).toBe(n);
  });

  it("the practice's analytics settings change the next answer", async () => {
    const odi = (t: Triage) => mine(t)!.nights.map((x) => x.odi);
    const before = await keptTriage();
    expect((await server.call('POST', '/physician/update-analytics-settings', { token: physician, body: { desaturation_rule: 4 } })).statusCode).toBe(200);
    await server.app.nightStats.idle();
    const four = await keptTriage();
    expect(odi(four)).not.toEqual(odi(before));
    expect((await server.call('POST', '/physician/update-analytics-settings', { token: physician, body: { desaturation_rule: 3 } })).statusCode).toBe(200);
    await server.app.nightStats.idle();
    expect(odi(await keptTriage())).toEqual(odi(before));
  });

  it('a deleted SpO2 channel or night is in the next answer', async () => {
    const last = nights.at(-1)!;
    await keptTriage();
    // Without its SpO2 statistics the night waits for them; without an SpO2 channel it does not.
    await server.db.query(`delete from night_channel_stats where recording_id = $1 and code = 'SPO2'`, [last.id]);
    expect(mine(await keptTriage())!.last!.analysed).toBe(false);
    await server.db.query(`delete from recording_channels where recording_id = $1 and code = 'SPO2'`, [last.id]);
    expect(mine(await keptTriage())!.last!.analysed).toBe(true);
    await server.db.query('delete from recordings where id = $1', [last.id]);
    nights.pop();
    expect(mine(await keptTriage())!.nights.map((n) => n.recording_id)).toEqual(nights.map((n) => n.id));
  });

  it("a change made through a second server on the same database is in the first one's next answer, and the other way round", async () => {
    const [{ schema }] = await server.db.query<{ schema: string }>('select current_schema() as schema');
    // On PostgreSQL the second server has connections of its own, as another process would.
    const db = TEST_DB === 'postgres' ? await openPostgres({ url: process.env.TEST_DATABASE_URL!, schema }) : server.db;
    const second = await prepare({ ...server.config }, db);
    const call = (method: 'GET' | 'POST', url: string, body?: object) =>
      second.app.inject({ method, url: `/api/v1${url}`, payload: body, headers: { authorization: `Bearer ${physician}` } });
    const flagThrough = async (via: 'first' | 'second', atRisk: number) => {
      const body = { patient_id: patientId, at_risk: atRisk };
      const res = via === 'first' ? await server.call('POST', '/physician/update-patient-info', { token: physician, body }) : await call('POST', '/physician/update-patient-info', body);
      expect(res.statusCode).toBe(200);
    };
    const secondTriage = async () => (await call('GET', '/physician/triage')).json().data as Triage;
    try {
      await flagThrough('first', 2);
      expect(mine(await keptTriage())!.flagged).toBe(false);
      expect(mine(await secondTriage())!.flagged).toBe(false);
      await flagThrough('second', 1);
      expect(mine(await keptTriage())!.flagged).toBe(true);
      // Kept by the second server now; changed through the first.
      expect(mine(await secondTriage())!.flagged).toBe(true);
      await flagThrough('first', 2);
      expect(mine(await secondTriage())!.flagged).toBe(false);
    } finally {
      await second.app.close();
      if (db !== server.db) await db.close();
    }
  });

  it("another practice's changes leave the kept answer alone", async () => {
    // A patient of another practice (the sample practice 2112's), added through ours and moved there.
    const res = await server.call('POST', '/physician/new-patient', {
      token: physician,
      body: { patient_code: 'ELSEWHERE1', first_name: 'Else', last_name: 'Where', gender: 'F', date_of_birth: '1970', height: '170', weight: '70', diseaseIds: '2', vital_parameters: JSON.stringify(NEW_PATIENT_VITALS), country: 'Switzerland' },
    });
    expect(res.statusCode).toBeLessThan(300);
    await server.db.query(`update patients set physician_id = 2112 where patient_code = 'ELSEWHERE1'`);
    await keptTriage();
    const rev = await practiceRev();
    const other = await practiceRev(2112);
    await server.db.query(`update patients set first_name = 'Elsa' where patient_code = 'ELSEWHERE1'`);
    await server.db.query(`insert into physician_preferences (physician_id, desaturation_rule) values (2112, 4) on conflict (physician_id) do update set desaturation_rule = 4`);
    expect(await practiceRev(2112)).not.toBe(other);
    expect(await practiceRev()).toBe(rev);
    await stillKept();
  });

  it("a live device's frame batches leave the practice's revision alone; the night's end changes the next answer", async () => {
    const [device] = await server.db.query<{ device_master_id: number; device_id: string }>(
      `select device_master_id, device_id from devices d where physician_id = $1
         and not exists (select 1 from device_allocations a where a.device_master_id = d.device_master_id and a.status = 'booked' and a.deallocation_ms > $2)
       order by device_id limit 1`,
      [physicianId, Date.now()],
    );
    // The patient's demo booking ends as this one starts: a patient holds one device at a time.
    const start = Date.now() - 60_000;
    await server.db.query(`update device_allocations set deallocation_ms = $2 where patient_id = $1 and status = 'booked' and deallocation_ms > $2`, [patientId, start]);
    await server.db.query(
      `insert into device_allocations (device_master_id, patient_id, physician_id, allocation_ms, deallocation_ms, timezone, created_by) values ($1, $2, $3, $4, $5, 'UTC', $3)`,
      [device.device_master_id, patientId, physicianId, start, Date.now() + 3_600_000],
    );
    const session: LiveSession = await openSession(server.db, { deviceMasterId: device.device_master_id, deviceId: device.device_id, physicianId }, Date.now(), ['HR', 'Y_DIST']);
    // The night being recorded is not in the table.
    const before = await keptTriage();
    expect(mine(before)!.nights.map((n) => n.recording_id)).not.toContain(session.recordingId);
    const rev = await practiceRev();
    const item = (seq: number): BatchItem => {
      const frame = validateFrame(encodeFrame({ seq, sentMs: Date.now(), channels: [{ code: 'HR', n: 1 }, { code: 'Y_DIST', n: 2 }] }, [[60], [1, 2]]), new Set(['HR', 'Y_DIST']));
      return { session, frame, digest: frameDigest(frame) };
    };
    const first = session.lastSeq + 1;
    for (let k = 0; k < 3; k++) {
      const results = await commitBatch(server.db, [item(first + 2 * k), item(first + 2 * k + 1)]);
      expect(results.filter((r) => r instanceof FrameError)).toEqual([]);
    }
    const [{ n }] = await server.db.query<{ n: number }>('select sum(sample_count)::int as n from recording_channels where recording_id = $1', [session.recordingId]);
    expect(n).toBe(18);
    expect(await practiceRev()).toBe(rev);
    await stillKept();
    // Ended (live off, written outside a batch): the night is in the next answer.
    await endSession(server.db, session);
    expect(await practiceRev()).not.toBe(rev);
    expect(mine(await keptTriage())!.nights.map((x) => x.recording_id)).toContain(session.recordingId);
  });
});
