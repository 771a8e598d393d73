import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEW_PATIENT_VITALS } from '../../server/db/seed';
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

  it('answers a duplicate ID with 500 and code patient_id_exists', async () => {
    const res = await add(valid({ patient_code: 'NCT1001' }));
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: 'patient_id_exists', message: 'Patient ID already exist' });
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
