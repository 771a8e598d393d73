import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUser, DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let physician = '';
let annotator = '';
let patientId = 0;
beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  annotator = (await signIn(server, DEMO_ACCOUNTS.annotator)).token;
  patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1004'`))[0].id;
});
afterAll(() => server.close());

describe('GET /patient/details', () => {
  it('gives the patient_info with conditions and vital parameters as a JSON string', async () => {
    const res = await server.call('GET', `/patient/details?patient_id=${patientId}`, { token: annotator });
    expect(res.statusCode).toBe(200);
    const info = res.json().data.patient_info;
    expect(info).toMatchObject({ patient_id: patientId, patient_code: 'NCT1004', gender: 'M', date_of_birth: '1949-01-01', height: 172, weight: 84, diseaseIds: '3,6,7', is_sample_patient: false });
    expect(info.diseases).toBe('Central sleep apnoea,Heart failure,Atrial fibrillation');
    expect(JSON.parse(info.vital_parameters).spo2).toEqual({ modFrom: 90, modTo: 93, sevFrom: 40, sevTo: 89 });
  });

  it("is 404 for another physician's patient and for an admin", async () => {
    const other = await createUser(server);
    const { token } = await signIn(server, other.email);
    expect((await server.call('GET', `/patient/details?patient_id=${patientId}`, { token })).statusCode).toBe(404);
    const { token: admin } = await signIn(server, DEMO_ACCOUNTS.admin);
    expect((await server.call('GET', `/patient/details?patient_id=${patientId}`, { token: admin })).statusCode).toBe(404);
  });
});

describe('channel order preferences', () => {
  it('are saved per physician, also by their annotator, and read back in order', async () => {
    const order = { SLP_STGS: true, BR: true, HR: false, SPO2: true, weight: false, NC_PSG: false };
    const saved = await server.call('POST', '/patient/update-kpi-preferences', { token: annotator, body: { new_sorted_array_kpis: order, physician_id: 999 } });
    expect(saved.statusCode).toBe(200);
    const read = await server.call('GET', '/physician/preferences', { token: physician });
    expect(read.json().data.kpi_order_preference).toEqual(order);
    expect(Object.keys(read.json().data.kpi_order_preference)).toEqual(Object.keys(order));
    const stranger = await createUser(server);
    const { token } = await signIn(server, stranger.email);
    expect((await server.call('GET', '/physician/preferences', { token })).json().data.kpi_order_preference).toBeNull();
  });

  it('refuse a map whose values are not booleans', async () => {
    const res = await server.call('POST', '/patient/update-kpi-preferences', { token: physician, body: { new_sorted_array_kpis: { BR: 'yes' } } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('boolean');
  });
});
