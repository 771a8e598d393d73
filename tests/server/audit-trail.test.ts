import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, signIn, startTestServer, TEST_DB, type TestServer } from './helpers';

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
    const csv = await server.call('GET', `/admin/access-trail.csv?patient_code=${patientCode}`, { token: admin });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trimEnd().split('\r\n');
    expect(lines[0]).toBe('time_utc,user,role,address,method,route,patient_code,patient_id,recording_id,detail,status');
    expect(lines.some((l) => l.includes(`${DEMO_ACCOUNTS.physician},physician,`) && l.includes(`,GET,/patient/available-nights,${patientCode},${patientId},`))).toBe(true);
    const log = await server.call('GET', `/patient/access-log?patient_id=${patientId}`, { token: physician });
    expect(log.statusCode).toBe(200);
    expect((log.json().data.entries as { user_email: string }[]).some((e) => e.user_email === DEMO_ACCOUNTS.physician)).toBe(true);
    expect((await server.call('GET', `/patient/access-log?patient_id=${patientId}`, { token: annotator })).statusCode).toBe(403);
  });

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
