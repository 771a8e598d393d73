import { randomBytes } from 'node:crypto';
import net from 'node:net';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../server/app';
import { readConfig } from '../../server/config';
import { openPostgres } from '../../server/db/postgres';
import { migrate } from '../../server/db/migrate';
import { seedDemo } from '../../server/seed';
import { outboxMailer } from '../../server/services/mail';
import { saveNight } from '../../server/recordings/store';
import { MAX_JSON_SERIES_POINTS } from '../../server/analytics/series-routes';
import { captureLog, DEMO_ACCOUNTS, pgliteFrom, signIn, startTestServer, TEST_DB, type TestServer } from './helpers';

/** The findings of issue 13 point 3, one request each: a malformed request is 400 naming the field. */
let server: TestServer;
let token = '';
let patientId = 0;
beforeAll(async () => {
  server = await startTestServer();
  token = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1004'`))[0].id;
});
afterAll(() => server.close());

const get = (url: string) => server.call('GET', url, { token });
const post = (url: string, body: unknown) => server.call('POST', url, { token, body });
const expect400 = (res: { statusCode: number; body: string }, field: string | RegExp) => {
  expect(res.statusCode, res.body).toBe(400);
  expect(JSON.parse(res.body).code).toBe('validation_failed');
  expect(JSON.parse(res.body).message).toMatch(field);
};

describe(`bad input is 400 with the field named (${TEST_DB})`, () => {
  it('ids beyond 32 bits', async () => {
    expect400(await get('/patient/details?patient_id=2147483648'), /patient_id/);
    expect400(await post('/patient/get-comment', { id: 2 ** 40 }), /id/);
    expect400(await post('/patient/disease-operation', { patient_id: 9_999_999_999, type: 'update', disease_id: 1 }), /patient_id/);
  });

  it('Infinity and 1e308', async () => {
    expect400(await get(`/analytics/patient/channel-data?patient_id=${patientId}&recording_id=Infinity&code=BR`), /recording_id/);
    expect400(await get('/physician/available-devices?allocation_time=1&deallocation_time=1e308'), /deallocation_time/);
    expect400(await get(`/analytics/patient-trendview/type=BR?patient_id=${patientId}&device_start_time=-Infinity&device_stop_time=1`), /device_start_time/);
  });

  it('strings where numbers belong', async () => {
    expect400(await post('/device/device-operation', { patient_id: 'abc' }), /patient_id/);
    expect400(await post('/physician/new-patient', { patient_code: { a: 1 } }), /patient_code/);
  });

  it('NUL characters', async () => {
    expect400(await post('/patient/add-comment', { user_id: patientId, comment: 'before\u0000after' }), /body\.comment/);
    expect400(await get(`/patient/available-nights?patient_id=${patientId}&device_id=%00`), /query\.device_id/);
  });

  it('5,000-deep JSON', async () => {
    const res = await server.app.inject({
      method: 'POST',
      url: '/api/v1/patient/update-kpi-preferences',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      payload: `{"new_sorted_array_kpis":${'['.repeat(5000)}${']'.repeat(5000)}}`,
    });
    expect400(res, /nests deeper than 32/);
  });

  it('an annotation comment longer than its column', async () => {
    const res = await post('/analytics/patient/new-annotations', { patient_id: patientId, night: 1, comment: 'x'.repeat(10_241), start_time: 1, duration: '00:01:00' });
    expect400(res, /comment/);
  });
});

describe(`bounded JSON (${TEST_DB})`, () => {
  it('refuses a JSON series beyond the cap with a clear message; the binary form serves the channel', async () => {
    const start = Date.UTC(2026, 2, 20, 21, 0);
    const samples = new Int16Array(3 * 3600 * 25).map((_, i) => i % 1000);
    const recordingId = await saveNight(server.db, {
      patientId,
      deviceId: null,
      source: 'simulated',
      createdBy: null,
      night: { startMs: start, stopMs: start + 3 * 3_600_000, timezone: 'UTC', events: [], meta: {}, channels: [{ code: 'I', label: 'I', unit: 'a.u.', sampleRate: 25, t0: start, storage: 'int16', scale: 1, offset: 0, samples }] },
    });
    const json = await get(`/analytics/patient/type=I?patient_id=${patientId}&recording_date=2026-03-20`);
    expect(json.statusCode).toBe(400);
    expect(json.json().code).toBe('series_too_large');
    expect(json.json().message).toContain(`${(3 * 3600 * 25).toLocaleString('en-US')} samples`);
    expect(json.json().message).toContain(MAX_JSON_SERIES_POINTS.toLocaleString('en-US'));
    expect(json.json().message).toContain('channel-data');
    const from = start / 1000;
    const window = await get(`/analytics/patient/type=I?patient_id=${patientId}&recording_date=2026-03-20&device_start_time=${from}&device_stop_time=${from + 3600}`);
    expect(window.statusCode).toBe(200);
    expect(window.json().data.I.dataset).toHaveLength(3600 * 25);
    const binary = await get(`/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${recordingId}&code=I`);
    expect(binary.statusCode).toBe(200);
  });
});

/** A TCP relay to PostgreSQL that can be cut, as a database server that goes away. */
async function relayTo(target: URL): Promise<{ port: number; cut: () => Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const [port, host] = [Number(target.port || 5432), target.hostname];
  const relay = net.createServer((client) => {
    const upstream = net.connect(port, host);
    sockets.add(client).add(upstream);
    client.pipe(upstream).pipe(client);
    const drop = () => {
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  });
  await new Promise<void>((resolve) => relay.listen(0, '127.0.0.1', resolve));
  return {
    port: (relay.address() as net.AddressInfo).port,
    cut: async () => {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => relay.close(() => resolve()));
    },
  };
}

describe(`a database that is gone (${TEST_DB})`, () => {
  it('answers 503 with one log line, not 500 with a stack trace per request', async () => {
    const schema = `t_${randomBytes(6).toString('hex')}`;
    let db;
    let cut: () => Promise<void>;
    if (TEST_DB === 'postgres') {
      const target = new URL(process.env.TEST_DATABASE_URL!);
      const relay = await relayTo(target);
      const admin = new pg.Client({ connectionString: target.toString() });
      await admin.connect();
      await admin.query(`create schema ${schema}`);
      await admin.end();
      target.host = `127.0.0.1:${relay.port}`;
      db = await openPostgres({ url: target.toString(), schema });
      cut = relay.cut;
    } else {
      db = await pgliteFrom();
      cut = () => db!.close();
    }
    await migrate(db);
    await seedDemo(db);
    const log = captureLog();
    const app = await buildApp({ db, config: { ...readConfig({}), webRoot: null, logStream: log.stream }, mailer: outboxMailer(db) });
    const login = () => app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: DEMO_ACCOUNTS.physician, password: 'wrong-password' } });
    expect((await login()).statusCode).toBe(401);

    await cut();
    const before = log.raw.length;
    try {
      const statuses: number[] = [];
      for (let i = 0; i < 40; i++) {
        const res = i % 2 ? await login() : await app.inject({ method: 'GET', url: '/api/v1/physician/patients', headers: { authorization: 'Bearer abc' } });
        statuses.push(res.statusCode);
        expect(res.json().code).toBe('database_unavailable');
      }
      expect(new Set(statuses)).toEqual(new Set([503]));
      const lines = log.raw.slice(before);
      expect(lines).toHaveLength(1);
      expect(JSON.parse(lines[0]!).msg).toMatch(/^Database unavailable/);
      expect(lines[0]).not.toMatch(/\\n\s+at /);
      expect(lines[0]).not.toContain('"stack"');
    } finally {
      await app.close();
      if (TEST_DB === 'postgres') {
        await db.close().catch(() => undefined);
        const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
        await admin.connect();
        await admin.query(`drop schema ${schema} cascade`);
        await admin.end();
      }
    }
  });
});
