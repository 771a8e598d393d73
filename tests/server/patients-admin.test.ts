import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEW_PATIENT_VITALS } from '../../server/seed';
import { verifyPassword } from '../../server/auth/passwords';
import { createUser, DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let physician = '';
let annotator = '';
beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  annotator = (await signIn(server, DEMO_ACCOUNTS.annotator)).token;
});
afterAll(() => server.close());

const year = DateTime.now().year;
const valid = (over: Record<string, unknown> = {}) => ({
  patient_code: `P${Math.floor(Math.random() * 1e8)}`,
  first_name: 'Ada',
  last_name: 'Lovelace',
  email_id: '',
  gender: 'F',
  date_of_birth: `${year - 40}-01-01`,
  at_risk: null,
  diseaseIds: '2,5',
  height: '170',
  weight: '65.5',
  bmi: 999,
  vital_parameters: JSON.stringify(NEW_PATIENT_VITALS),
  comment: '',
  country: 'Switzerland',
  address: '',
  tags: '',
  device_allocation_date: null,
  device_deallocation_date: null,
  device_master_id: null,
  device_id: null,
  ...over,
});
const add = (body: object, token = physician) => server.call('POST', '/physician/new-patient', { token, body });

describe('POST /physician/new-patient', () => {
  it('adds a patient, computing the BMI itself', async () => {
    const res = await add(valid({ patient_code: 'ADA_001' }));
    expect(res.statusCode).toBe(201);
    const id = res.json().patientId;
    const info = (await server.call('GET', `/patient/details?patient_id=${id}`, { token: annotator })).json().data.patient_info;
    expect(info).toMatchObject({ patient_code: 'ADA_001', height: 170, weight: 65.5, bmi: 22.66, diseaseIds: '2,5' });
  });

  it('answers a duplicate ID with 409 and code patient_id_exists', async () => {
    const res = await add(valid({ patient_code: 'NCT1001' }));
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({ code: 'patient_id_exists', message: 'Patient ID already exist' });
    // An ID that differs only by case is the same ID (issue 32.12), and nothing is added.
    const [{ n }] = await server.db.query<{ n: number }>('select count(*)::int as n from patients');
    const lower = await add(valid({ patient_code: 'nct1001' }));
    expect(lower.statusCode).toBe(409);
    expect(lower.json()).toEqual({ code: 'patient_id_exists', message: 'Patient ID already exist' });
    expect((await server.db.query<{ n: number }>('select count(*)::int as n from patients'))[0].n).toBe(n);
  });

  const cases: Array<[string, Record<string, unknown>, string]> = [
    ['no ID', { patient_code: '' }, 'Please enter Patient ID.'],
    ['ID with symbols', { patient_code: 'AB-12' }, 'Patient ID accepts characters only'],
    ['ID of 21 characters', { patient_code: 'A'.repeat(21) }, 'Patient ID accepts characters only'],
    ['no year of birth', { date_of_birth: '' }, 'Please select year of birth.'],
    ['17 years old', { date_of_birth: `${year - 17}-01-01` }, 'Year not found.'],
    ['119 years old', { date_of_birth: `${year - 119}-01-01` }, 'Year not found.'],
    ['no gender', { gender: '' }, 'Please select gender.'],
    ['no condition', { diseaseIds: '' }, 'Please select condition.'],
    ['no weight', { weight: '' }, 'Please enter weight.'],
    ['zero weight', { weight: '0' }, 'Please enter valid weight.'],
    ['weight of 4 digits', { weight: '1000' }, 'Please enter valid weight.'],
    ['weight with 3 decimals', { weight: '70.123' }, 'Please enter valid weight.'],
    ['no height', { height: '' }, 'Please enter height.'],
    ['zero height', { height: '0' }, 'Please enter valid height.'],
    ['empty threshold', { vital_parameters: JSON.stringify({ ...NEW_PATIENT_VITALS, spo2: { ...NEW_PATIENT_VITALS.spo2, modTo: '' } }) }, 'None of the below inputs should be empty'],
    ['SpO2 over 100', { vital_parameters: JSON.stringify({ ...NEW_PATIENT_VITALS, spo2: { ...NEW_PATIENT_VITALS.spo2, modTo: 101 } }) }, 'Spo2 Range cannot be more than 100'],
    ['from above to', { vital_parameters: JSON.stringify({ ...NEW_PATIENT_VITALS, br: { ...NEW_PATIENT_VITALS.br, sevFromF: 60 } }) }, 'Min. Range should not be greater than Max. Range'],
    ['comment over 1024', { comment: 'x'.repeat(1025) }, 'Comment can have at most 1024 characters.'],
    ['no country', { country: '' }, 'Please select country.'],
  ];
  for (const [name, over, message] of cases) {
    it(`refuses ${name}: '${message}'`, async () => {
      const res = await add(valid(over));
      expect(res.statusCode).toBe(400);
      expect(res.json().data.errors).toContain(message);
    });
  }

  it('accepts a trailing decimal point, and None alone', async () => {
    const res = await add(valid({ weight: '70.', diseaseIds: '1' }));
    expect(res.statusCode).toBe(201);
  });

  it('is not for annotators', async () => {
    expect((await add(valid(), annotator)).statusCode).toBe(403);
  });
});

describe('POST /physician/new-patient with a device: one transaction (issue 18 point 6)', () => {
  const zone = 'Europe/Zurich'; // the country of valid()
  const day = (n: number) => DateTime.now().setZone(zone).startOf('day').plus({ days: n }).toMillis();
  const count = async (sql: string, params: unknown[]) => Number((await server.db.query<{ n: number }>(sql, params))[0]!.n);
  const patientsWith = (code: string) => count('select count(*) as n from patients where patient_code = $1', [code]);
  const free = async (from: number, to: number) => {
    const res = await server.call('GET', `/physician/available-devices?allocation_time=${from}&deallocation_time=${to}`, { token: physician });
    return (res.json().data as Array<{ device_master_id: number; device_id: string }>)[0]!;
  };

  it('adds the patient and deploys the device in one call', async () => {
    const device = await free(day(30), day(33));
    const res = await add(valid({ patient_code: 'TXN_OK', device_master_id: device.device_master_id, device_id: device.device_id, device_allocation_date: day(30), device_deallocation_date: day(33) }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ code: 'patient_added', message: 'Device deployed successfully.' });
    const id = res.json().patientId as number;
    const rows = await server.db.query<{ device_master_id: number; allocation_ms: number; deallocation_ms: number; status: string }>('select device_master_id, allocation_ms, deallocation_ms, status from device_allocations where patient_id = $1', [id]);
    expect(rows.map((r) => ({ ...r, allocation_ms: Number(r.allocation_ms), deallocation_ms: Number(r.deallocation_ms) }))).toEqual([{ device_master_id: device.device_master_id, allocation_ms: day(30), deallocation_ms: day(33), status: 'booked' }]);
  });

  it('an occupied device leaves no patient behind and answers device_occupied', async () => {
    const [busy] = await server.db.query<{ device_master_id: number }>(
      `select device_master_id from device_allocations where status = 'booked' and allocation_ms < $2 and deallocation_ms > $1 order by device_master_id limit 1`,
      [day(1), day(3)],
    );
    expect(busy).toBeDefined();
    const before = await count('select count(*) as n from patients', []);
    const res = await add(valid({ patient_code: 'TXN_BUSY', device_master_id: busy!.device_master_id, device_allocation_date: day(1), device_deallocation_date: day(3) }));
    expect(res.statusCode).toBe(409);
    expect(res.json().code).toBe('device_occupied');
    expect(await patientsWith('TXN_BUSY')).toBe(0);
    expect(await count('select count(*) as n from patients', [])).toBe(before);
    // The same code is free to use once the device question is settled.
    expect((await add(valid({ patient_code: 'TXN_BUSY' }))).statusCode).toBe(201);
  });

  // The demo mapping runs a year either side of today: 300 to 400 days ahead straddles its end.
  it('dates outside the device mapping or in the past leave no patient behind', async () => {
    const device = await free(day(30), day(33));
    const out = await add(valid({ patient_code: 'TXN_RANGE', device_master_id: device.device_master_id, device_allocation_date: day(300), device_deallocation_date: day(400) }));
    expect(out.statusCode).toBe(400);
    expect(out.json()).toMatchObject({ code: 'dates_out_of_range', message: 'Dates are out of range from physician device allocation.' });
    const past = await add(valid({ patient_code: 'TXN_PAST', device_master_id: device.device_master_id, device_allocation_date: day(-2), device_deallocation_date: day(1) }));
    expect(past.statusCode).toBe(400);
    expect(past.json()).toMatchObject({ code: 'past_date', message: 'Deployment for the specified date failed. However you can request admin below' });
    expect(await patientsWith('TXN_RANGE')).toBe(0);
    expect(await patientsWith('TXN_PAST')).toBe(0);
  });

  it('files a past-date request with the patient in one call', async () => {
    // Free on the past dates asked for: a request that could never be approved is refused when filed.
    const device = await free(day(-3), day(-1));
    const res = await add(valid({ patient_code: 'TXN_REQ', past_date_request: { device_master_id: device.device_master_id, device_id: device.device_id, allocation_date: day(-3), deallocation_date: day(-1) } }));
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ code: 'patient_added', message: 'Your request to deploy the device on the past dates was sent to an admin.' });
    const id = res.json().patientId as number;
    const requests = await server.call('GET', `/device/deploy-requests?patient_id=${id}`, { token: physician });
    expect(requests.json().data.requests).toMatchObject([{ id: res.json().data.request_id, status: 'pending', device_id: device.device_id, patient_id: id }]);
    expect(await count('select count(*) as n from device_allocations where patient_id = $1', [id])).toBe(0);
  });

  it('a request for an unknown device leaves no patient behind', async () => {
    const res = await add(valid({ patient_code: 'TXN_NODEV', past_date_request: { device_master_id: 999_999, allocation_date: day(-3), deallocation_date: day(-1) } }));
    expect(res.statusCode).toBe(404);
    expect(await patientsWith('TXN_NODEV')).toBe(0);
  });

  it('bad input with a device is the spec message or a named field, never a 500, and books nothing', async () => {
    const device = await free(day(40), day(42));
    const allocations = await count('select count(*) as n from device_allocations where device_master_id = $1', [device.device_master_id]);
    const withDevice = { device_master_id: device.device_master_id, device_allocation_date: day(40), device_deallocation_date: day(42) };
    const noId = await add(valid({ patient_code: '', ...withDevice }));
    expect(noId.statusCode).toBe(400);
    expect(noId.json().data.errors).toContain('Please enter Patient ID.');
    const duplicate = await add(valid({ patient_code: 'NCT1001', ...withDevice }));
    expect(duplicate.statusCode).toBe(409);
    expect(duplicate.json()).toEqual({ code: 'patient_id_exists', message: 'Patient ID already exist' });
    const both = await add(valid({ patient_code: 'TXN_BOTH', ...withDevice, past_date_request: { device_master_id: device.device_master_id, allocation_date: day(-3), deallocation_date: day(-1) } }));
    expect(both.statusCode).toBe(400);
    const noDates = await add(valid({ patient_code: 'TXN_NODATES', device_master_id: device.device_master_id }));
    expect(noDates.statusCode).toBe(400);
    const badRequest = await add(valid({ patient_code: 'TXN_BADREQ', past_date_request: { device_master_id: device.device_master_id, allocation_date: 'yesterday', deallocation_date: day(-1) } }));
    expect(badRequest.statusCode).toBe(400);
    expect(badRequest.json().data.field).toBe('past_date_request');
    const noDevice = await add(valid({ patient_code: 'TXN_REQNODEV', past_date_request: { allocation_date: day(-3), deallocation_date: day(-1) } }));
    expect(noDevice.statusCode).toBe(400);
    expect(noDevice.json().message).toBe('Please select a device');
    for (const code of ['TXN_BOTH', 'TXN_NODATES', 'TXN_BADREQ', 'TXN_REQNODEV']) expect(await patientsWith(code)).toBe(0);
    expect(await count('select count(*) as n from device_allocations where device_master_id = $1', [device.device_master_id])).toBe(allocations);
  });
});

describe('editing a patient', () => {
  it('updates with code patient_info_updated_succesfully, escapes removed, limit 10240', async () => {
    const id = (await add(valid())).json().patientId;
    const res = await server.call('POST', '/physician/update-patient-info', { token: physician, body: { patient_id: id, weight: '80', comment: "Patient\\'s note \\\\ ok" } });
    expect(res.json().code).toBe('patient_info_updated_succesfully');
    const info = (await server.call('GET', `/patient/details?patient_id=${id}`, { token: physician })).json().data.patient_info;
    expect(info).toMatchObject({ weight: 80, bmi: 27.68, comment: "Patient's note \\ ok" });
    const long = await server.call('POST', `/physician/update-patient-details/id=${id}`, { token: physician, body: { comment: 'x'.repeat(10241) } });
    expect(long.json().data.errors).toContain('Comment can have at most 10240 characters.');
    const ok = await server.call('POST', `/physician/update-patient-details/id=${id}`, { token: physician, body: { comment: 'x'.repeat(10240) } });
    expect(ok.json().code).toBe('patient_info_updated_succesfully');
    expect((await server.call('POST', '/physician/update-patient-info', { token: annotator, body: { patient_id: id, weight: '81' } })).statusCode).toBe(403);
  });

  it('conditions: None removes others, another removes None, the last one stays', async () => {
    const id = (await add(valid({ diseaseIds: '2' }))).json().patientId;
    const op = (type: string, disease_id: number) => server.call('POST', '/patient/disease-operation', { token: physician, body: { patient_id: id, type, disease_id } });
    expect((await op('update', 5)).json().data.diseaseIds).toBe('2,5');
    expect((await op('update', 1)).json().data.diseaseIds).toBe('1');
    expect((await op('update', 4)).json().data.diseaseIds).toBe('4');
    const last = await op('delete', 4);
    expect(last.statusCode).toBe(400);
    expect(last.json().code).toBe('last_condition');
  });

  it('resets the patient password from MD5 hex, stored only through scrypt', async () => {
    const id = (await add(valid())).json().patientId;
    const md5 = '5f4dcc3b5aa765d61d8327deb882cf99';
    const res = await server.call('POST', '/physician/reset-patient-password', { token: physician, body: { patient_id: id, password: md5 } });
    expect(res.json().message).toBe('Password reset done.');
    const [row] = await server.db.query<{ password_hash: string }>('select password_hash from patients where id = $1', [id]);
    expect(row.password_hash.startsWith('scrypt$')).toBe(true);
    expect(row.password_hash).not.toContain(md5);
    expect(await verifyPassword(md5, row.password_hash)).toBe(true);
    expect((await server.call('POST', '/physician/reset-patient-password', { token: physician, body: { patient_id: id, password: 'plain' } })).statusCode).toBe(400);
  });

  it("another physician's patient does not exist for you", async () => {
    const id = (await add(valid())).json().patientId;
    const stranger = await createUser(server);
    const { token } = await signIn(server, stranger.email);
    expect((await server.call('POST', '/physician/update-patient-info', { token, body: { patient_id: id, weight: '80' } })).statusCode).toBe(404);
    expect((await server.call('POST', '/patient/disease-operation', { token, body: { patient_id: id, type: 'update', disease_id: 3 } })).statusCode).toBe(404);
  });

  it('generates a free patient ID', async () => {
    const res = await server.call('GET', '/patient/generate-code', { token: physician });
    expect(res.json().data.patient_code).toMatch(/^NCT\d{6}$/);
  });
});
