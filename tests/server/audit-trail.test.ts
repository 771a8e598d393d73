import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { DEMO_ACCOUNTS, signIn, startTestServer, TEST_DB, type TestServer } from './helpers';
import { uploadFiles } from './multipart';

/** The access trail (issue 33 point 8): every signed-in read and write, append-only, filtered and exported by admins. */
let server: TestServer;
let physician = '';
let admin = '';
let annotator = '';
let patientId = 0;
let patientCode = '';

beforeAll(async () => {
  server = await startTestServer();
  let physicianId = 0;
  ({ token: physician, userId: physicianId } = await signIn(server, DEMO_ACCOUNTS.physician));
  ({ token: admin } = await signIn(server, DEMO_ACCOUNTS.admin));
  ({ token: annotator } = await signIn(server, DEMO_ACCOUNTS.annotator));
  [{ id: patientId, patient_code: patientCode }] = await server.db.query<{ id: number; patient_code: string }>(
    'select id, patient_code from patients where physician_id = $1 order by patient_code limit 1',
    [physicianId],
  );
});
afterAll(() => server.close());

describe(`access trail (${TEST_DB})`, () => {
  it("records a physician's read of a patient and an annotator's refused write, with route, patient and outcome", async () => {
    expect((await server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token: physician })).statusCode).toBe(200);
    expect((await server.call('GET', `/patient/access-log?patient_id=${patientId}`, { token: annotator })).statusCode).toBe(403);
    // A /patient/ call naming the patient user_id (comments, as the spec has them).
    expect((await server.call('POST', '/patient/add-comment', { token: physician, body: { user_id: patientId, comment: 'trail' } })).statusCode).toBeLessThan(300);
    const res = await server.call('GET', `/admin/access-trail?patient_code=${patientCode}`, { token: admin });
    expect(res.statusCode).toBe(200);
    const entries = res.json().data.entries as { user_email: string; route: string; method: string; patient_id: number; patient_code: string; status: number; ip: string }[];
    const read = entries.find((e) => e.route === '/patient/available-nights');
    expect(read).toMatchObject({ user_email: DEMO_ACCOUNTS.physician, method: 'GET', patient_id: patientId, patient_code: patientCode, status: 200 });
    expect(read!.ip).toMatch(/127\.0\.0\.1|::1|::ffff:127\.0\.0\.1/);
    expect(entries.find((e) => e.user_email === DEMO_ACCOUNTS.annotator && e.route === '/patient/access-log')?.status).toBe(403);
    expect(entries.find((e) => e.route === '/patient/add-comment')).toMatchObject({ method: 'POST', patient_id: patientId });
    // Filtered by user: only that user's accesses.
    const byUser = (await server.call('GET', `/admin/access-trail?user=${encodeURIComponent('annotator@')}`, { token: admin })).json().data.entries as { user_email: string }[];
    expect(byUser.length).toBeGreaterThan(0);
    expect(new Set(byUser.map((e) => e.user_email))).toEqual(new Set([DEMO_ACCOUNTS.annotator]));
  });

  it('exports the filtered trail as CSV, and shows the physician who opened their patient', async () => {
    expect((await server.call('POST', '/patient/get-comment', { token: physician, body: { id: patientId } })).statusCode).toBe(200);
    const csv = await server.call('GET', `/admin/access-trail.csv?patient_code=${patientCode}`, { token: admin });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('time_utc,user,role,address,method,access,route,patient_code,patient_id,recording_id,detail,status');
    expect(lines.some((l) => l.includes(`${DEMO_ACCOUNTS.physician},physician,`) && l.includes(`,GET,read,/patient/available-nights,${patientCode},${patientId},`))).toBe(true);
    // A POST that only reads (the spec's get- routes) is a read, one that writes is a change.
    expect(lines.some((l) => l.includes(',POST,read,/patient/get-comment,'))).toBe(true);
    expect(lines.some((l) => l.includes(',POST,change,/patient/add-comment,'))).toBe(true);
    const log = await server.call('GET', `/patient/access-log?patient_id=${patientId}`, { token: physician });
    expect(log.statusCode).toBe(200);
    expect((log.json().data.entries as { user_email: string }[]).some((e) => e.user_email === DEMO_ACCOUNTS.physician)).toBe(true);
    expect((await server.call('GET', `/patient/access-log?patient_id=${patientId}`, { token: annotator })).statusCode).toBe(403);
  });

  it('names the patient (and night) of requests that carry no patient_id: an upload, an annotation edit and deletion, a report, a patient by id, comments', async () => {
    const bytes = new Uint8Array(readFileSync(new URL('../fixtures/real/snore_resmed_20250808_010210_BRP.edf', import.meta.url)));
    const upload = await uploadFiles(server, physician, { patient_id: String(patientId), timezone: 'UTC' }, [{ name: 'snore_resmed_20250808_010210_BRP.edf', bytes }]);
    expect(upload.statusCode, upload.body).toBe(201);
    const { night, recording_id: recordingId, recording_start_time: startMs } = upload.json().data as { night: number; recording_id: number; recording_start_time: number };
    const post = (url: string, body: object) => server.call('POST', url, { token: physician, body });
    const made = await post('/analytics/patient/new-annotations', { patient_id: patientId, night, kpi: 'NC_PSG', start_time: startMs + 600_000, duration: '20', label: 1 });
    expect(made.statusCode, made.body).toBe(201);
    const [added] = made.json().data.annotations as { annotation_map_id: number; version: number }[];
    expect((await post('/analytics/patient/update-annotations', { annotation_map_id: added!.annotation_map_id, version: added!.version, duration: '30' })).statusCode).toBe(200);
    expect((await post('/analytics/patient/delete-annotations', { ids: [added!.annotation_map_id] })).statusCode).toBe(200);
    const report = await post('/reports', { patient_id: patientId, order_id: patientCode, language: 'en', version: 1, report_type: 'en-pyn', dates: [{ numDate: night, checked: true }] });
    expect(report.statusCode).toBe(202);
    expect((await server.call('GET', `/reports/${report.json().data.id}`, { token: physician })).statusCode).toBe(200);
    expect((await post(`/physician/update-patient-details/id=${patientId}`, { comment: 'trail' })).statusCode).toBe(200);
    expect((await post('/patient/get-comment', { id: patientId })).statusCode).toBe(200);
    const entries = (await server.call('GET', `/admin/access-trail?patient_code=${patientCode}&limit=200`, { token: admin })).json().data.entries as { route: string; patient_id: number; recording_id: number | null; status: number }[];
    const of = (route: string) => entries.find((e) => e.route === route);
    expect(of('/patient/upload-recording')).toMatchObject({ patient_id: patientId, recording_id: recordingId, status: 201 });
    expect(of('/analytics/patient/update-annotations')).toMatchObject({ patient_id: patientId, recording_id: recordingId, status: 200 });
    expect(of('/analytics/patient/delete-annotations')).toMatchObject({ patient_id: patientId, recording_id: recordingId, status: 200 });
    expect(of('/reports/:id')).toMatchObject({ patient_id: patientId, status: 200 });
    expect(of('/physician/update-patient-details/id=:id')).toMatchObject({ patient_id: patientId, status: 200 });
    expect(of('/patient/get-comment')).toMatchObject({ patient_id: patientId, status: 200 });
  }, 60_000);

  it('an upload of two nights names both: the first in its night column, both in its detail', async () => {
    const files = ['snore_resmed_20250110_000715_BRP.edf', 'snore_resmed_20251025_005814_BRP.edf'].map((name) => ({ name, bytes: new Uint8Array(readFileSync(new URL(`../fixtures/real/${name}`, import.meta.url))) }));
    const upload = await uploadFiles(server, physician, { patient_id: String(patientId), timezone: 'UTC' }, files);
    expect(upload.statusCode, upload.body).toBe(201);
    const data = upload.json().data as { recording_id: number; other_nights: { recording_id: number }[] };
    expect(data.other_nights).toHaveLength(1);
    const entries = (await server.call('GET', `/admin/access-trail?patient_code=${patientCode}&limit=200`, { token: admin })).json().data.entries as { route: string; recording_id: number | null; detail: string | null; status: number }[];
    const entry = entries.find((e) => e.route === '/patient/upload-recording' && e.recording_id === data.recording_id);
    expect(entry).toMatchObject({ status: 201, detail: `recordings=${data.recording_id},${data.other_nights[0]!.recording_id}` });
  }, 60_000);

  it('is append-only: the database refuses to change or remove an entry', async () => {
    await server.call('GET', `/admin/access-trail?limit=1`, { token: admin });
    await expect(server.db.query('update audit_trail set status = 0')).rejects.toThrow(/append-only/);
    await expect(server.db.query('delete from audit_trail')).rejects.toThrow(/append-only/);
    await expect(server.db.query('truncate audit_trail')).rejects.toThrow(/append-only/);
    const [{ n }] = await server.db.query<{ n: number }>('select count(*)::int as n from audit_trail');
    expect(n).toBeGreaterThan(0);
  });

  it('writes a burst of accesses in batches, none lost', async () => {
    const [{ n: before }] = await server.db.query<{ n: number }>(`select count(*)::int as n from audit_trail where route = '/patient/available-nights'`);
    await Promise.all(Array.from({ length: 300 }, () => server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token: physician })));
    // The admin's read writes what is queued first.
    await server.call('GET', '/admin/access-trail?limit=1', { token: admin });
    const [{ n: after }] = await server.db.query<{ n: number }>(`select count(*)::int as n from audit_trail where route = '/patient/available-nights'`);
    expect(after - before).toBe(300);
  });
});
