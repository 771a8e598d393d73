// The trend's kept answers (issue 18 point 4): an answer is served again only while nothing it
// is made of has changed. Each input is changed here — by the routes that change it, or straight
// in the database as another process would — and the next trend must show the change. A second
// server on the same database (its own cache; on PostgreSQL its own connections) must see the
// first one's changes, and a caller who may not see the patient gets no kept answer.
import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres } from '../../server/db/postgres';
import { prepare } from '../../server/start';
import { DEMO_ACCOUNTS, queriesOf, signIn, startTestServer, TEST_DB, type TestServer } from './helpers';
import { uploadFiles } from './multipart';

let server: TestServer;
let physician = '';
let patientId = 0;
const nights: Array<{ id: number; night: number }> = [];
const START = Date.UTC(2025, 9, 1, 22, 0, 0);
const HOUR = 3_600_000;
const DAY = 86_400_000;

type Trend = Record<string, Array<Record<string, number | string>>>;

/** SpO2 with a 40-s dip every `period` s, to 90 % and to 92.5 % in turn (the 4 % rule counts half of the 3 % rule's). */
const dip = (s: number, period: number) => (s % period < 40 ? (Math.floor(s / period) % 2 ? 90 : 92.5) : 96);

/** A Timestamp,Value CSV at 1 Hz from `fromMs` for `seconds`. */
function csv(fromMs: number, seconds: number, value: (s: number) => number): Uint8Array {
  const lines = ['Timestamp,Value'];
  for (let s = 0; s < seconds; s++) lines.push(`${new Date(fromMs + s * 1000).toISOString()},${value(s)}`);
  return new TextEncoder().encode(lines.join('\n'));
}

async function importNight(k: number, channel = 'SPO2', value = (s: number) => dip(s, 240 + 60 * k)): Promise<{ id: number; night: number }> {
  const res = await uploadFiles(server, physician, { patient_id: String(patientId), timezone: 'UTC', channel }, [
    { name: `night_${k}_${channel}.csv`, bytes: csv(START + k * DAY, 2 * 3600, value) },
  ]);
  expect(res.statusCode).toBe(201);
  await server.app.nightStats.idle();
  return { id: res.json().data.recording_id, night: res.json().data.night };
}

const CODES = 'SPO2,HR,AHI,ODI,RII,SQ';
const from = () => START / 1000 - 13 * 3600;
const url = (codes = CODES) => `/analytics/patient-trendview/type=${codes}?patient_id=${patientId}&device_start_time=${from()}&device_stop_time=${from() + 30 * 86_400}`;

async function trendOf(s: TestServer = server, token = physician): Promise<Trend> {
  const res = await s.call('GET', url(), { token });
  expect(res.statusCode).toBe(200);
  return res.json().data as Trend;
}

/** The trend, asked twice: the second answer is the kept one (no night is read) and equal to the first. */
async function keptTrend(): Promise<Trend> {
  const first = await trendOf();
  const sql = await queriesOf(server, async () => expect(await trendOf()).toEqual(first));
  expect(sql.filter((q) => /from recordings|night_channel_stats|night_analyses/.test(q))).toEqual([]);
  return first;
}

beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1003'`))[0].id;
  for (let k = 0; k < 3; k++) nights.push(await importNight(k));
}, 120_000);
afterAll(() => server.close());

describe('the trend answer kept per patient and query', () => {
  it('is served again while nothing changed: same JSON, an entity tag, 304 for it, and gzip when accepted', async () => {
    const trend = await keptTrend();
    expect(trend.SPO2.map((p) => p.recording_id)).toEqual(nights.map((n) => n.id));
    const first = await server.app.inject({ method: 'GET', url: `/api/v1${url()}`, headers: { authorization: `Bearer ${physician}` } });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^"[\w-]+"$/);
    expect(first.headers['cache-control']).toBe('private, no-cache');
    const again = await server.app.inject({ method: 'GET', url: `/api/v1${url()}`, headers: { authorization: `Bearer ${physician}`, 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    const zipped = await server.app.inject({ method: 'GET', url: `/api/v1${url()}`, headers: { authorization: `Bearer ${physician}`, 'accept-encoding': 'gzip, deflate' } });
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.rawPayload.byteLength).toBeLessThan(first.rawPayload.byteLength);
    expect(JSON.parse(gunzipSync(zipped.rawPayload).toString())).toEqual(first.json());
    // Without the session: 401, never the kept answer.
    expect((await server.app.inject({ method: 'GET', url: `/api/v1${url()}` })).statusCode).toBe(401);
  });

  it('a new night is in the next answer', async () => {
    await keptTrend();
    nights.push(await importNight(3));
    const trend = await keptTrend();
    expect(trend.SPO2.map((p) => p.recording_id)).toEqual(nights.map((n) => n.id));
  });

  it('a file joining a night (a new channel) is in the next answer', async () => {
    expect((await keptTrend()).HR).toEqual([]);
    const res = await uploadFiles(server, physician, { patient_id: String(patientId), timezone: 'UTC', channel: 'HR' }, [
      { name: 'night_0_hr.csv', bytes: csv(START + HOUR, 1800, (s) => 60 + (s % 9)) },
    ]);
    expect(res.json().data).toMatchObject({ merged: true, recording_id: nights[0].id });
    await server.app.nightStats.idle();
    expect((await keptTrend()).HR.map((p) => p.recording_id)).toEqual([nights[0].id]);
  });

  it('a correction changes the next answer', async () => {
    const before = await keptTrend();
    const res = await server.call('POST', '/analytics/patient/corrections', {
      token: physician,
      body: { patient_id: patientId, night: nights[1].night, kind: 'invalid_span', start_ms: START + DAY, end_ms: START + DAY + HOUR, reason: 'Sensor off' },
    });
    expect(res.statusCode).toBe(201);
    await server.app.nightStats.idle();
    const after = await keptTrend();
    const spo2 = (t: Trend) => t.SPO2.find((p) => p.recording_id === nights[1].id)!;
    expect(spo2(after)).not.toEqual(spo2(before));
  });

  it("the practice's analytics settings change the next answer", async () => {
    const odi = (t: Trend) => t.ODI.map((p) => p.value);
    const before = await keptTrend();
    expect((await server.call('POST', '/physician/update-analytics-settings', { token: physician, body: { desaturation_rule: 4 } })).statusCode).toBe(200);
    // Asked before the background work is done: answered from what the trend computes itself, never the kept one.
    const now = await trendOf();
    expect(odi(now)).not.toEqual(odi(before));
    await server.app.nightStats.idle();
    expect(odi(await keptTrend())).toEqual(odi(now));
    expect((await server.call('POST', '/physician/update-analytics-settings', { token: physician, body: { desaturation_rule: 3 } })).statusCode).toBe(200);
    await server.app.nightStats.idle();
    expect(await keptTrend()).toEqual(before);
  });

  it('a changed statistics row or analysis row (as another process writes them) is in the next answer', async () => {
    await keptTrend();
    await server.db.query(`update night_channel_stats set stats = jsonb_set(stats, '{max}', '99.5') where recording_id = $1 and code = 'SPO2'`, [nights[2].id]);
    expect((await keptTrend()).SPO2.find((p) => p.recording_id === nights[2].id)!.max).toBe(99.5);
    await server.db.query(`update night_analyses set indices = jsonb_set(indices, '{ODI}', '42.5') where recording_id = $1`, [nights[2].id]);
    expect((await keptTrend()).ODI.find((p) => p.recording_id === nights[2].id)!.value).toBe(42.5);
    await server.db.query(`delete from night_channel_stats where recording_id = $1 and code = 'SPO2'`, [nights[2].id]);
    // Made again from the samples by the trend itself: the true maximum, not the edited one.
    expect((await trendOf()).SPO2.find((p) => p.recording_id === nights[2].id)!.max).toBe(96);
  });

  it('a deleted channel or night is gone from the next answer', async () => {
    await keptTrend();
    await server.db.query(`delete from recording_channels where recording_id = $1 and code = 'HR'`, [nights[0].id]);
    expect((await keptTrend()).HR).toEqual([]);
    await server.db.query('delete from recordings where id = $1', [nights[3].id]);
    nights.pop();
    expect((await keptTrend()).SPO2.map((p) => p.recording_id)).toEqual(nights.map((n) => n.id));
  });

  it("a night moved in time (the recording's row) changes the next answer", async () => {
    const before = await keptTrend();
    await server.db.query('update recordings set night_key = night_key + 60 where id = $1', [nights[0].id]);
    const after = await keptTrend();
    expect(after.SPO2[0].night).toBe((before.SPO2[0].night as number) + 60);
    await server.db.query('update recordings set night_key = night_key - 60 where id = $1', [nights[0].id]);
    expect(await keptTrend()).toEqual(before);
  });

  it('a second server on the same database sees changes made through the first, and the other way round', async () => {
    const [{ schema }] = await server.db.query<{ schema: string }>('select current_schema() as schema');
    // On PostgreSQL the second server has connections of its own, as another process would.
    const db = TEST_DB === 'postgres' ? await openPostgres({ url: process.env.TEST_DATABASE_URL!, schema }) : server.db;
    const second = await prepare({ ...server.config }, db);
    const other: TestServer = {
      ...server,
      app: second.app,
      call: (method, u, opts = {}) =>
        second.app.inject({ method: method as 'GET', url: `/api/v1${u}`, payload: opts.body as object | undefined, headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {} }),
    };
    try {
      const mine = await keptTrend();
      expect(await trendOf(other)).toEqual(mine);
      // Changed through the second server: the first one's kept answer is not served.
      expect((await other.call('POST', '/physician/update-analytics-settings', { token: physician, body: { desaturation_rule: 4 } })).statusCode).toBe(200);
      await second.app.nightStats.idle();
      const changed = await keptTrend();
      expect(changed.ODI.map((p) => p.value)).not.toEqual(mine.ODI.map((p) => p.value));
      expect(await trendOf(other)).toEqual(changed);
      // And back through the first: the second server's kept answer is not served either.
      expect((await server.call('POST', '/physician/update-analytics-settings', { token: physician, body: { desaturation_rule: 3 } })).statusCode).toBe(200);
      await server.app.nightStats.idle();
      expect(await trendOf(other)).toEqual(mine);
    } finally {
      await second.app.close();
      if (db !== server.db) await db.close();
    }
  });

  it('a patient moved to another practice is no longer answered to the first, kept answer or not', async () => {
    await keptTrend();
    const [other] = await server.db.query<{ id: number }>(`select id from users where role = 'physician' and id <> (select physician_id from patients where id = $1) limit 1`, [patientId]);
    const [{ physician_id: own }] = await server.db.query<{ physician_id: number }>('select physician_id from patients where id = $1', [patientId]);
    await server.db.query('update patients set physician_id = $2 where id = $1', [patientId, other.id]);
    try {
      expect((await server.call('GET', url(), { token: physician })).statusCode).toBe(404);
    } finally {
      await server.db.query('update patients set physician_id = $2 where id = $1', [patientId, own]);
    }
    await keptTrend();
  });

  it('keeps at most its bytes, least recently used first', async () => {
    const { AnswerCache } = await import('../../server/analytics/answerCache');
    const cache = new AnswerCache(250);
    cache.set('a', '1', Buffer.alloc(100));
    cache.set('b', '1', Buffer.alloc(100));
    expect(cache.get('a', '1')).not.toBeNull();
    cache.set('c', '1', Buffer.alloc(100));
    expect(cache.bytes).toBe(200);
    expect(cache.get('b', '1')).toBeNull();
    expect(cache.get('a', '1')).not.toBeNull();
    expect(cache.get('a', '2')).toBeNull();
    expect(cache.bytes).toBe(100);
    expect(server.app.answers.bytes).toBeGreaterThan(0);
  });
});
