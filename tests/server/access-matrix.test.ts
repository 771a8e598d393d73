import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { issueToken } from '../../server/auth/tokens';
import { simulateForPatient } from '../../server/simulator/simulated';
import { ACCESS_MATRIX, MEMBERS, ROLES, type Expect, type Fixture, type Role } from './access-matrix';
import { createUser, DEMO_ACCOUNTS, startTestServer, type TestServer } from './helpers';

/**
 * Every registered route, as "METHOD /path", read from Fastify's own route tree
 * (printRoutes), so nothing registered can be missed. HEAD routes are GET's twins.
 */
export function registeredRoutes(app: FastifyInstance): string[] {
  const tree = app.printRoutes({ commonPrefix: false });
  const out: string[] = [];
  const stack: string[] = [];
  for (const line of tree.split('\n')) {
    const m = /^([│ ├└─]*)(\S.*?)(?: \(([A-Z, ]+)\))?$/.exec(line);
    if (!m || !m[2]) continue;
    const depth = Math.round(m[1].length / 4);
    stack.length = depth;
    const path = (stack[depth - 1] ?? '') + m[2];
    stack[depth] = path;
    for (const method of (m[3] ?? '').split(',').map((s) => s.trim()).filter(Boolean)) {
      if (method !== 'HEAD') out.push(`${method} ${path}`);
    }
  }
  return out.filter((r) => r.split(' ')[1].startsWith('/api/'));
}

let server: TestServer;
const users = {} as Record<Exclude<Role, 'anonymous'>, number>;
let fixture: Fixture;
/** Text of the demo practice that no outsider's answer may contain. */
const PRACTICE_MARKERS = ['"NCT1001"', 'Keller', 'Bianchi', 'NCT0001'];

beforeAll(async () => {
  server = await startTestServer();
  const db = server.db;
  const id = async (sql: string, params: unknown[] = []) => Number(Object.values((await db.query(sql, params))[0])[0]);
  users.physician = await id('select id from users where email = $1', [DEMO_ACCOUNTS.physician]);
  users.annotator = await id('select id from users where email = $1', [DEMO_ACCOUNTS.annotator]);
  users.secondary = await id('select id from users where email = $1', [DEMO_ACCOUNTS.secondary]);
  users.admin = await id('select id from users where email = $1', [DEMO_ACCOUNTS.admin]);
  users.tertiary = (await createUser(server, { physician_id: users.physician })).id;
  await db.query('update users set is_ternary_user = true where id = $1', [users.tertiary]);
  users.paid = (await createUser(server, { physician_id: users.physician })).id;
  await db.query(`update users set membership_type = 'paid' where id = $1`, [users.paid]);
  users.otherPhysician = (await createUser(server)).id;

  const patientId = await id(`select id from patients where patient_code = 'NCT1001'`);
  const spareId = await id(`select id from patients where patient_code = 'NCT1005'`);
  const [recordingId] = await simulateForPatient(db, { patientId, patientCode: 'NCT1001', deviceId: 'NCT0001', timezone: 'Europe/Zurich', nights: 1, profile: 'moderate_osa', lastEvening: '2026-03-09', seed: 'access-matrix' });
  const night = await id('select night_key from recordings where id = $1', [recordingId]);
  // Double-scoring rounds are made on another patient's night, so no round blinds the annotator on the fixture night.
  const scoringPatientId = await id(`select id from patients where patient_code = 'NCT1002'`);
  const [scoringRecordingId] = await simulateForPatient(db, { patientId: scoringPatientId, patientCode: 'NCT1002', deviceId: 'NCT0002', timezone: 'Europe/Zurich', nights: 1, profile: 'healthy', lastEvening: '2026-03-09', seed: 'access-matrix-scoring' });
  const scoringNight = await id('select night_key from recordings where id = $1', [scoringRecordingId]);
  const scoringStart = await id('select start_ms from recordings where id = $1', [scoringRecordingId]);
  const annotator2Id = await id('select id from users where email = $1', [DEMO_ACCOUNTS.annotator2]);
  const startMs = await id('select start_ms from recordings where id = $1', [recordingId]);
  const deviceMasterId = await id(`select device_master_id from devices where device_id = 'NCT0001'`);
  const foreignDeviceMasterId = await id(`insert into devices (device_id, physician_id) values ('OTHER01', $1) returning device_master_id`, [users.otherPhysician]);
  const notificationId = await id(
    `insert into physician_notifications (physician_id, patient_id, recording_id, night, apnea_events) values ($1, $2, $3, $4, 3) returning id`,
    [users.physician, patientId, recordingId, night],
  );

  const token = await issueToken(db, users.physician, 'session');
  const asPhysician = async (url: string, body: object) => {
    const res = await server.call('POST', url, { token, body });
    if (res.statusCode >= 300) throw new Error(`fixture ${url}: ${res.statusCode} ${res.body}`);
    return res.json();
  };
  let seq = 0;
  fixture = {
    patientId,
    spareId,
    recordingId,
    night,
    nightDate: new Date(night * 1000).toISOString().slice(0, 10),
    deviceId: 'NCT0001',
    deviceMasterId,
    foreignDeviceId: 'OTHER01',
    foreignDeviceMasterId,
    notificationId,
    startMs,
    scoring: { patientId: scoringPatientId, night: scoringNight, annotatorId: users.annotator, annotator2Id },
    seq: () => ++seq,
    fresh: {
      comment: async () => (await asPhysician('/patient/add-comment', { user_id: patientId, comment: `Fixture ${++seq}` })).data.comment.id,
      annotation: async () => {
        const a = (await asPhysician('/analytics/patient/new-annotations', { patient_id: patientId, night, kpi: 'SPO2', start_time: startMs + 7_200_000 + ++seq * 60_000, duration: '20', label: 1 })).data.annotations[0];
        return { id: a.annotation_map_id, version: a.version };
      },
      label: async () => {
        // Keeps the patient below the category cap: fixture labels older than the newest few are removed.
        await db.query(`delete from annotation_categories where patient_id = $1 and label like 'Fixture %'`, [patientId]);
        await db.query(`delete from annotation_categories where patient_id = $1 and label like 'Added %'`, [patientId]);
        await db.query(`delete from annotation_categories where patient_id = $1 and label like 'Renamed %'`, [patientId]);
        const n = ++seq;
        return (await asPhysician('/patient/add-label', { patient_id: patientId, label: `Fixture ${n}`, color_code: '#123456' })).data.label.label_id;
      },
      checkup: async () => {
        await asPhysician('/patient/add-checkup', { patient_id: patientId, checkup_date: new Date(Date.now() + (200 + ++seq) * 86_400_000).toISOString().slice(0, 10) });
        return id('select max(checkup_date_id) from checkup_dates where patient_id = $1', [patientId]);
      },
      completedCheckup: async () => {
        await asPhysician('/patient/add-checkup', { patient_id: patientId, checkup_date: new Date(Date.now() + (200 + ++seq) * 86_400_000).toISOString().slice(0, 10) });
        const checkupId = await id('select max(checkup_date_id) from checkup_dates where patient_id = $1', [patientId]);
        await asPhysician('/patient/mark-as-complete', { patient_id: patientId, checkup_date_id: checkupId });
        return checkupId;
      },
      historyEntry: async () => {
        await asPhysician('/patient/add-history-entry', { patient_id: patientId, kind: 'symptom', timestamp: startMs, symptom_medication_value: `Fixture ${++seq}` });
        return id('select max(id) from patient_history_entries where patient_id = $1', [patientId]);
      },
      deployRequest: async () =>
        (await asPhysician('/device/deploy-device-in-past-date', { patient_id: patientId, device_master_id: deviceMasterId, allocation_date: Date.now() - 40 * 86_400_000, deallocation_date: Date.now() - 35 * 86_400_000 })).data.request_id,
      correction: async () =>
        (await asPhysician('/analytics/patient/corrections', { patient_id: patientId, night, kind: 'invalid_span', start_ms: startMs + 3_600_000, end_ms: startMs + 3_660_000, reason: `Fixture ${++seq}` })).data.corrections.at(-1).id,
      pendingSignup: async () => (await createUser(server, { status: 'pending' })).id,
      report: (status) =>
        id(
          `insert into report_jobs (practice_id, patient_id, requested_by, order_id, report_type, view, language, dates, status, error, file, file_name, file_bytes, finished_at)
           values ($1, $2, $1, 'NCT1001', 'en-pyn', 'single', 'en', $3, $4, $5, $6, 'matrix.pdf', 9, now()) returning id`,
          // A failed job names a night without a recording, so its retry fails again rather than making a PDF.
          [users.physician, patientId, JSON.stringify([status === 'done' ? night : 86_400]), status, status === 'failed' ? 'matrix failure' : null, status === 'done' ? Buffer.from('%PDF-1.7\n') : null],
        ),
      round: async (status, marked = false) => {
        await db.query(`update scoring_rounds set status = 'cancelled' where recording_id = $1 and status in ('scoring', 'agreement')`, [scoringRecordingId]);
        if (status === 'none') return { roundId: 0, item: null };
        const roundId = await id('insert into scoring_rounds (patient_id, recording_id, created_by, status) values ($1, $2, $3, $4) returning id', [scoringPatientId, scoringRecordingId, users.physician, status]);
        const submitted = status === 'agreement';
        await db.query('insert into scoring_round_scorers (round_id, user_id, position, submitted_at) values ($1, $2, 1, case when $4::boolean then now() end), ($1, $3, 2, case when $4::boolean then now() end)', [roundId, users.annotator, annotator2Id, submitted]);
        if (!marked) return { roundId, item: null };
        // One apnea in the annotator's set only: one disagreement.
        const start = scoringStart + 600_000 + ++seq * 60_000;
        await db.query(
          `insert into annotations (patient_id, recording_id, night, device_id, type, kpi, start_ms, end_ms, label, color_code, doctor_id, created_by, updated_by, scoring_round_id)
           select $1, $2, $3, 'NCT0002', 'custom', 'AP_timing', $4::bigint, $4::bigint + 15000, c.label_id, c.color_code, $5, $6, $6, $7 from annotation_categories c where c.code = 'apnea'`,
          [scoringPatientId, scoringRecordingId, scoringNight, start, users.physician, users.annotator, roundId],
        );
        return { roundId, item: `event:apnea:${start}` };
      },
      resetPasswordBody: async () => {
        const u = await createUser(server);
        return { email: u.email, reset_token: await issueToken(db, u.id, 'password_reset'), password: 'a-new-long-password-1' };
      },
    },
  };
}, 180_000);
afterAll(() => server.close());

const matches = (expected: Expect, status: number) =>
  expected === 'ok' ? status >= 200 && status < 300 : expected === 'deny' ? status === 403 || status === 404 : expected === 'unauth' ? status === 401 : status === expected;

describe('access matrix', () => {
  it('has exactly one row for every registered route', () => {
    const routes = registeredRoutes(server.app);
    expect(routes.length).toBeGreaterThan(60);
    const rows = ACCESS_MATRIX.map((r) => r.route);
    const duplicates = rows.filter((r, i) => rows.indexOf(r) !== i);
    const missing = routes.filter((r) => !rows.includes(r));
    const stale = rows.filter((r) => !routes.includes(r));
    expect(duplicates, 'routes with more than one row in tests/server/access-matrix.ts').toEqual([]);
    expect(missing, 'registered routes without a row in tests/server/access-matrix.ts (add one per route)').toEqual([]);
    expect(stale, 'rows in tests/server/access-matrix.ts for routes that are not registered').toEqual([]);
  });

  it('every role gets what the table says from every route, and outsiders see nothing of the practice', async () => {
    const failures: string[] = [];
    for (const row of ACCESS_MATRIX) {
      const [method] = row.route.split(' ');
      for (const role of ROLES) {
        const req = await row.request(fixture);
        const token = role === 'anonymous' ? undefined : await issueToken(server.db, users[role], 'session');
        const res = await server.call(method, req.url, { token, body: req.body });
        const expected = row.policy[role];
        if (!matches(expected, res.statusCode)) {
          failures.push(`${row.route} as ${role}: expected ${expected}, got ${res.statusCode} ${res.body.slice(0, 160)}`);
          continue;
        }
        if (!MEMBERS.includes(role) && !row.showsPracticeToNonMembers) {
          const leaked = PRACTICE_MARKERS.filter((m) => res.body.includes(m));
          if (leaked.length) failures.push(`${row.route} as ${role}: answer contains the practice's ${leaked.join(', ')}`);
        }
      }
    }
    expect(failures).toEqual([]);
  }, 300_000);
});

describe('the four leaks of issue 13', () => {
  it('an annotator cannot download a night as EDF+', async () => {
    const token = await issueToken(server.db, users.annotator, 'session');
    const res = await server.call('GET', `/analytics/patient/export-edf?patient_id=${fixture.patientId}&recording_id=${fixture.recordingId}`, { token });
    expect(res.statusCode).toBe(403);
    expect(res.headers['content-type']).toMatch(/json/);
  });

  it('a secondary user cannot change the practice analytics settings', async () => {
    const before = await server.db.query('select desaturation_rule, rii_divisor from physician_preferences where physician_id = $1', [users.physician]);
    const token = await issueToken(server.db, users.secondary, 'session');
    const res = await server.call('POST', '/physician/update-analytics-settings', { token, body: { desaturation_rule: 4, rii_divisor: 'TBR' } });
    expect(res.statusCode).toBe(403);
    expect(await server.db.query('select desaturation_rule, rii_divisor from physician_preferences where physician_id = $1', [users.physician])).toEqual(before);
  });

  it("a past-date request for another practice's device is refused exactly like one for a device that does not exist", async () => {
    const token = await issueToken(server.db, users.physician, 'session');
    const ask = (body: object) =>
      server.call('POST', '/device/deploy-device-in-past-date', { token, body: { patient_id: fixture.patientId, allocation_date: Date.now() - 30 * 86_400_000, deallocation_date: Date.now() - 25 * 86_400_000, ...body } });
    const [{ n: before }] = await server.db.query<{ n: number }>('select count(*)::int as n from deploy_requests');
    const foreignById = await ask({ device_master_id: fixture.foreignDeviceMasterId });
    const foreignByName = await ask({ device_id: fixture.foreignDeviceId });
    const missingById = await ask({ device_master_id: 2_000_000_000 });
    const missingByName = await ask({ device_id: 'NO-SUCH-DEVICE' });
    for (const res of [foreignById, foreignByName, missingById, missingByName]) {
      expect(res.statusCode).toBe(404);
      expect(res.body).toBe(missingById.body);
    }
    const [{ n: after }] = await server.db.query<{ n: number }>('select count(*)::int as n from deploy_requests');
    expect(after).toBe(before);
    // The practice's own device is still accepted.
    expect((await ask({ device_id: fixture.deviceId })).statusCode).toBe(201);
  });
});
