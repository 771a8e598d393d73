import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { patientListQuery } from '../../server/patients/list-repository';
import { DEMO_ACCOUNTS, signIn, startTestServer, TEST_DB, type TestServer } from './helpers';

/**
 * The patient list is serialised by its response schema (fast-json-stringify) and run as a
 * prepared statement on PostgreSQL: what the client receives must be exactly the rows as
 * JSON.stringify would send them, for every kind of row (booked, archived, with nights, nulls).
 */
let server: TestServer;
let token = '';
let physicianId = 0;
beforeAll(async () => {
  server = await startTestServer();
  ({ token, userId: physicianId } = await signIn(server, DEMO_ACCOUNTS.physician));
  const [p1, p2] = await server.db.query<{ id: number }>(`select id from patients where physician_id = $1 order by patient_code`, [physicianId]);
  // One archived patient (a timestamptz in the row), one with a night (last_night, recorded_last_night).
  await server.db.query(`update patients set phys_device_return_date = now(), date_of_birth = '1950-02-03', at_risk = 2 where id = $1`, [p1.id]);
  await server.db.query(
    `insert into recordings (patient_id, device_id, timezone, start_ms, stop_ms, night_key, source, recording_meta)
     values ($1, 'NCT0001', 'UTC', $2, $3, 20260309, 'simulated', '{}')`,
    [p2.id, Date.now() - 3_600_000, Date.now()],
  );
  await server.db.query(`insert into patients (patient_code, physician_id, created_by) values ('BARE01', $1, $1)`, [physicianId]);
});
afterAll(() => server.close());

describe(`patient list as sent (${TEST_DB})`, () => {
  for (const archive of [false, true]) {
    it(`${archive ? 'archive' : 'current patients'}: the answer is the query's rows, nothing dropped or changed`, async () => {
      // Twice: the second call runs the prepared statement a connection already holds.
      for (let round = 0; round < 2; round++) {
        const res = await server.call('GET', `/physician/patients${archive ? '?archive=true' : ''}`, { token });
        expect(res.statusCode).toBe(200);
        const { sql } = patientListQuery(archive);
        const rows = await server.db.query(sql, [physicianId, Date.now()]);
        expect(rows.length).toBeGreaterThan(0);
        expect(res.json().data.patients).toEqual(JSON.parse(JSON.stringify(rows)));
      }
    });
  }

  it('holds every kind of row the test set up', async () => {
    const current = (await server.call('GET', '/physician/patients', { token })).json().data.patients;
    const archived = (await server.call('GET', '/physician/patients?archive=true', { token })).json().data.patients;
    expect(archived[0]).toMatchObject({ date_of_birth: '1950-02-03', at_risk: 2, phys_device_return_date: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
    expect(current.find((p: { last_night: number | null }) => p.last_night === 20260309)).toMatchObject({ recorded_last_night: true });
    expect(current.find((p: { patient_code: string }) => p.patient_code === 'BARE01')).toMatchObject({ device_id: null, gender: null, last_night: null, at_risk: null });
  });
});
