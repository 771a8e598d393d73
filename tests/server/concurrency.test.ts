import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueToken } from '../../server/auth/tokens';
import { simulateForPatient } from '../../server/simulator/simulated';
import { DEMO_ACCOUNTS, startTestServer, TEST_DB, type TestServer } from './helpers';

/**
 * Issue 13 point 4: saves and bookings that race. Each pair of requests is sent at once
 * (Promise.all over the real HTTP stack), so on PostgreSQL they run in two transactions
 * side by side under read committed; exactly one of each pair may win.
 */

const PAIRS = 20;
const DAY = 86_400_000;
let server: TestServer;
let token = '';
let physicianId = 0;

beforeAll(async () => {
  server = await startTestServer();
  physicianId = (await server.db.query<{ id: number }>('select id from users where email = $1', [DEMO_ACCOUNTS.physician]))[0].id;
  token = await issueToken(server.db, physicianId, 'session');
}, 120_000);
afterAll(() => server.close());

const post = (url: string, body: object) => server.call('POST', url, { token, body });
const statuses = (res: Array<{ statusCode: number }>) => res.map((r) => r.statusCode).sort();

describe(`simultaneous saves (${TEST_DB})`, () => {
  it('two allocations of two devices to one patient for the same dates: one wins in every pair', async () => {
    const devices = await server.db.query<{ device_master_id: number }>(`select device_master_id from devices where device_id in ('NCT0005', 'NCT0006') order by device_id`);
    expect(devices).toHaveLength(2);
    const today = Math.floor(Date.now() / DAY) * DAY;
    const outcomes: number[][] = [];
    for (let i = 0; i < PAIRS; i++) {
      const [patient] = await server.db.query<{ id: number }>(
        `insert into patients (patient_code, physician_id, created_by, first_name, last_name, gender, date_of_birth, country) values ($1, $2, $2, 'Race', 'Patient', 'F', '1970-01-01', 'Switzerland') returning id`,
        [`RACE${i}`, physicianId],
      );
      const from = today + (10 + i * 8) * DAY;
      const deploy = (device: number) => post('/device/device-operation', { patient_id: patient.id, allocate_device: true, device_master_id: device, device_allocation_date: from, device_deallocation_date: from + 5 * DAY });
      outcomes.push(statuses(await Promise.all([deploy(devices[0].device_master_id), deploy(devices[1].device_master_id)])));
      const [{ n }] = await server.db.query<{ n: number }>(`select count(*)::int as n from device_allocations where patient_id = $1 and status = 'booked'`, [patient.id]);
      expect(n, `pair ${i}`).toBe(1);
    }
    expect(outcomes).toEqual(Array(PAIRS).fill([200, 409]));
  });

  it('two edits of one comment based on the same version: one is saved, the other gets 409', async () => {
    const patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1003'`))[0].id;
    const outcomes: number[][] = [];
    for (let i = 0; i < PAIRS; i++) {
      const added = (await post('/patient/add-comment', { user_id: patientId, comment: `Race ${i}` })).json().data.comment;
      const edit = (text: string) => post('/patient/update-comment', { user_id: patientId, id: added.id, comment: text, updated_date: added.updated_date });
      const [a, b] = await Promise.all([edit(`A ${i}`), edit(`B ${i}`)]);
      outcomes.push(statuses([a, b]));
      const [saved] = await server.db.query<{ comment: string }>('select comment from patient_comments where id = $1', [added.id]);
      expect(saved.comment).toBe(a.statusCode === 200 ? `A ${i}` : `B ${i}`);
    }
    expect(outcomes).toEqual(Array(PAIRS).fill([200, 409]));
  });

  it('two edits of one annotation based on the same version: one is saved, the other gets 409', async () => {
    const patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1002'`))[0].id;
    const [recordingId] = await simulateForPatient(server.db, { patientId, patientCode: 'NCT1002', deviceId: 'NCT0002', timezone: 'Europe/Zurich', nights: 1, profile: 'healthy', lastEvening: '2026-03-09', seed: 'race' });
    const [night] = await server.db.query<{ night_key: number; start_ms: number }>('select night_key, start_ms from recordings where id = $1', [recordingId]);
    const outcomes: number[][] = [];
    for (let i = 0; i < PAIRS; i++) {
      const created = await post('/analytics/patient/new-annotations', { patient_id: patientId, night: night.night_key, kpi: 'SPO2', start_time: Number(night.start_ms) + 3_600_000 + i * 60_000, duration: '20', label: 1 });
      expect(created.statusCode).toBe(201);
      const a = created.json().data.annotations[0];
      const edit = (text: string) => post('/analytics/patient/update-annotations', { annotation_map_id: a.annotation_map_id, version: a.version, comment: text });
      const [x, y] = await Promise.all([edit(`X ${i}`), edit(`Y ${i}`)]);
      outcomes.push(statuses([x, y]));
      const [saved] = await server.db.query<{ comment: string; version: number }>('select comment, version from annotations where annotation_map_id = $1', [a.annotation_map_id]);
      expect(saved.version).toBe(a.version + 1);
      expect(saved.comment).toBe(x.statusCode === 200 ? `X ${i}` : `Y ${i}`);
    }
    expect(outcomes).toEqual(Array(PAIRS).fill([200, 409]));
  });

  it('category saves based on one version, and a rename with a delete: one wins in every pair (issue 33 point 3)', async () => {
    const color = (i: number, k: number) => `#${(0x100000 + i * 64 + k).toString(16).toUpperCase()}`;
    const saves: number[][] = [];
    const renameDelete: number[][] = [];
    for (let i = 0; i < PAIRS; i++) {
      // A patient per pair: a patient has at most 12 categories.
      const [{ id: patientId }] = await server.db.query<{ id: number }>(
        `insert into patients (patient_code, physician_id, created_by, gender, country) values ($1, $2, $2, 'F', 'Switzerland') returning id`,
        [`CATRACE${i}`, physicianId],
      );
      const label = (await post('/patient/add-label', { patient_id: patientId, label: `Race label ${i}`, color_code: color(i, 0) })).json().data.label;
      const update = (name: string, k: number) => post('/patient/update-label', { label_id: label.label_id, label: name, color_code: color(i, k), version: label.version });
      const [a, b] = await Promise.all([update(`Race A ${i}`, 1), update(`Race B ${i}`, 2)]);
      saves.push(statuses([a, b]));
      expect([a, b].find((r) => r.statusCode === 409)!.json().code).toBe('category_changed');
      const [saved] = await server.db.query<{ label: string; version: number }>('select label, version from annotation_categories where label_id = $1', [label.label_id]);
      expect(saved).toEqual({ label: a.statusCode === 200 ? `Race A ${i}` : `Race B ${i}`, version: label.version + 1 });

      const victim = (await post('/patient/add-label', { patient_id: patientId, label: `Race victim ${i}`, color_code: color(i, 3) })).json().data.label;
      const [rename, remove] = await Promise.all([
        post('/patient/update-label', { label_id: victim.label_id, label: `Renamed ${i}`, color_code: color(i, 4), version: victim.version }),
        post('/patient/delete-label', { label_id: victim.label_id, version: victim.version }),
      ]);
      renameDelete.push(statuses([rename, remove]));
    }
    expect(saves).toEqual(Array(PAIRS).fill([200, 409]));
    expect(renameDelete).toEqual(Array(PAIRS).fill([200, 409]));
  });

  it('patient edits based on one version: one is saved, the other gets 409 and changes nothing (issue 33 point 3)', async () => {
    const [patient] = await server.db.query<{ id: number }>(
      `insert into patients (patient_code, physician_id, created_by, first_name, last_name, gender, date_of_birth, country) values ('EDITRACE', $1, $1, 'Edit', 'Race', 'F', '1970-01-01', 'Switzerland') returning id`,
      [physicianId],
    );
    const outcomes: number[][] = [];
    for (let i = 0; i < PAIRS; i++) {
      const { version } = (await server.call('GET', `/patient/details?patient_id=${patient.id}`, { token })).json().data.patient_info;
      const edit = (comment: string) => post('/physician/update-patient-info', { patient_id: patient.id, comment, version });
      const [a, b] = await Promise.all([edit(`A ${i}`), edit(`B ${i}`)]);
      outcomes.push(statuses([a, b]));
      expect([a, b].find((r) => r.statusCode === 409)!.json().code).toBe('patient_changed');
      const [saved] = await server.db.query<{ comment: string; version: number }>('select comment, version from patients where id = $1', [patient.id]);
      expect(saved).toEqual({ comment: a.statusCode === 200 ? `A ${i}` : `B ${i}`, version: version + 1 });
    }
    expect(outcomes).toEqual(Array(PAIRS).fill([200, 409]));
  });

  it('no overlapping bookings by any path (issue 33 point 4)', async () => {
    const today = Math.floor(Date.now() / DAY) * DAY;
    const device = async (code: string) => (await server.db.query<{ device_master_id: number }>('select device_master_id from devices where device_id = $1', [code]))[0].device_master_id;
    const [d2, d3, d4] = [await device('NCT0002'), await device('NCT0003'), await device('NCT0004')];
    const newPatient = async (code: string) =>
      (await server.db.query<{ id: number }>(
        `insert into patients (patient_code, physician_id, created_by, first_name, last_name, gender, date_of_birth, country) values ($1, $2, $2, 'Book', 'Patient', 'F', '1970-01-01', 'Switzerland') returning id`,
        [code, physicianId],
      ))[0].id;
    const deploy = (patient: number, dev: number, fromDay: number, toDay: number) =>
      post('/device/device-operation', { patient_id: patient, allocate_device: true, device_master_id: dev, device_allocation_date: today + fromDay * DAY, device_deallocation_date: today + toDay * DAY });
    const extend = (patient: number, fromDay: number, toDay: number, force = false) =>
      post('/device/device-operation', { patient_id: patient, change_allocation_times: true, force_extend: force, device_allocation_date: today + fromDay * DAY, device_deallocation_date: today + toDay * DAY });
    const booked = (patient: number) => server.db.query<{ allocation_ms: number; deallocation_ms: number }>(`select allocation_ms, deallocation_ms from device_allocations where patient_id = $1 and status = 'booked' order by allocation_ms`, [patient]);

    // The issue's reproduction: NCT0002 days 300–303 and NCT0003 days 310–313, then extend the first to day 320.
    const p = await newPatient('BOOK1');
    expect((await deploy(p, d2, 300, 303)).statusCode).toBe(200);
    expect((await deploy(p, d3, 310, 313)).statusCode).toBe(200);
    for (const force of [false, true]) {
      const res = await extend(p, 300, 320, force);
      expect(res.statusCode).toBe(409);
      expect(res.json().message).toBe('This patient is already assigned to other device during these dates.');
    }
    expect((await booked(p)).map((b) => Number(b.deallocation_ms))).toEqual([today + 303 * DAY, today + 313 * DAY]);

    // A past-date request that could never be approved is refused when filed.
    const past = await post('/device/deploy-device-in-past-date', { patient_id: p, device_id: 'NCT0004', allocation_date: today + 302 * DAY, deallocation_date: today + 305 * DAY });
    expect(past.statusCode).toBe(409);

    // The database itself refuses what a forgetful path would write: a patient on two devices, a device with two patients.
    const insert = (patient: number, dev: number, fromDay: number, toDay: number) =>
      server.db.query(`insert into device_allocations (device_master_id, patient_id, physician_id, allocation_ms, deallocation_ms, timezone, created_by) values ($1, $2, $3, $4, $5, 'UTC', $3)`, [
        dev, patient, physicianId, today + fromDay * DAY, today + toDay * DAY,
      ]);
    await expect(insert(p, d4, 301, 302)).rejects.toMatchObject({ code: '23P01' });
    await expect(insert(await newPatient('BOOK2'), d2, 302, 304)).rejects.toMatchObject({ code: '23P01' });

    // Extend against deploy, sent at once: exactly one wins in every pair and the patient never holds two devices.
    const outcomes: number[][] = [];
    for (let i = 0; i < PAIRS; i++) {
      const q = await newPatient(`BOOKRACE${i}`);
      const d = 175 + i * 6;
      expect((await deploy(q, d3, d, d + 2)).statusCode).toBe(200);
      outcomes.push(statuses(await Promise.all([extend(q, d, d + 5), deploy(q, d4, d + 3, d + 5)])));
      const rows = await booked(q);
      for (let k = 1; k < rows.length; k++) expect(Number(rows[k].allocation_ms), `pair ${i}`).toBeGreaterThanOrEqual(Number(rows[k - 1].deallocation_ms));
    }
    expect(outcomes).toEqual(Array(PAIRS).fill([200, 409]));
  });
});
