// Histories of symptoms, medication and diet plan, and questionnaire answers (issue 17 point 3).
import { DateTime } from 'luxon';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NEW_PATIENT_VITALS } from '../../server/seed';
import { practiceSessions, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let physician = '';
let secondary = '';
let annotator = '';
let stranger = '';
let patientId = 0;
beforeAll(async () => {
  server = await startTestServer();
  ({ physician, secondary, annotator, stranger, patientId } = await practiceSessions(server));
}, 120_000);
afterAll(() => server.close());

interface Entry {
  id: number;
  kind: string;
  timestamp: number;
  symptom_medication_value: string;
  created_by: number;
  created_by_name: string;
  updated_by: number;
  updated_by_name: string;
  created_date: string;
  updated_date: string;
}

const HOUR = 3_600_000;
const now = Date.now();
const post = (url: string, body: object, token = physician) => server.call('POST', url, { token, body });
const fetchList = async (path: string, token = physician) => {
  const res = await server.call('GET', `${path}?patient_id=${patientId}`, { token });
  expect(res.statusCode).toBe(200);
  return res.json().data.entries as Entry[];
};

describe('history entries', () => {
  it('adds entries of each kind to their own list, newest first, with who wrote them', async () => {
    const add = (kind: string, timestamp: number, value: string, token = physician) =>
      post('/patient/add-history-entry', { patient_id: patientId, kind, timestamp, symptom_medication_value: value }, token);
    expect((await add('symptom', now - 48 * HOUR, '  Morning headache ')).statusCode).toBe(201);
    expect((await add('symptom', now - 2 * HOUR, 'Daytime sleepiness')).statusCode).toBe(201);
    // The practice's secondary user writes too.
    expect((await add('medication', now - 24 * HOUR, 'Zolpidem 10 mg at night', secondary)).statusCode).toBe(201);
    expect((await add('diet_plan', now - 72 * HOUR, 'No alcohol after 18:00')).statusCode).toBe(201);

    const symptoms = await fetchList('/patient/fetch-symptoms');
    expect(symptoms.map((e) => e.symptom_medication_value)).toEqual(['Daytime sleepiness', 'Morning headache']);
    expect(symptoms[0]).toMatchObject({ kind: 'symptom', timestamp: now - 2 * HOUR, created_by_name: 'Clara Meier' });
    const meds = await fetchList('/patient/fetch-medications', annotator);
    expect(meds).toHaveLength(1);
    expect(meds[0]!.created_by).not.toBe(symptoms[0]!.created_by);
    expect((await fetchList('/patient/fetch-diet-plan')).map((e) => e.symptom_medication_value)).toEqual(['No alcohol after 18:00']);
  });

  it('edits and removes an entry, keeping who changed it; a removed entry is gone from the list but kept', async () => {
    const [entry] = await fetchList('/patient/fetch-symptoms');
    const edited = await post('/patient/update-history-entry', { patient_id: patientId, id: entry!.id, timestamp: now - 3 * HOUR, symptom_medication_value: 'Severe daytime sleepiness' }, secondary);
    expect(edited.statusCode).toBe(200);
    const after = (edited.json().data.entries as Entry[]).find((e) => e.id === entry!.id)!;
    expect(after).toMatchObject({ symptom_medication_value: 'Severe daytime sleepiness', timestamp: now - 3 * HOUR, created_by: entry!.created_by });
    expect(after.updated_by).not.toBe(entry!.created_by);
    expect(after.updated_date >= after.created_date).toBe(true);

    expect((await post('/patient/delete-history-entry', { patient_id: patientId, id: entry!.id })).statusCode).toBe(200);
    expect((await fetchList('/patient/fetch-symptoms')).map((e) => e.id)).not.toContain(entry!.id);
    const [kept] = await server.db.query<{ delete_flag: number }>('select delete_flag from patient_history_entries where id = $1', [entry!.id]);
    expect(kept!.delete_flag).toBe(1);
    // Removed once: a second removal or an edit finds nothing.
    expect((await post('/patient/delete-history-entry', { patient_id: patientId, id: entry!.id })).statusCode).toBe(404);
    expect((await post('/patient/update-history-entry', { patient_id: patientId, id: entry!.id, timestamp: now, symptom_medication_value: 'x' })).statusCode).toBe(404);
  });

  it('answers bad input with 400 naming the field, and writes nothing', async () => {
    const before = (await fetchList('/patient/fetch-symptoms')).length;
    const cases: Array<[object, string]> = [
      [{ kind: 'symptom', timestamp: now, symptom_medication_value: '   ' }, 'symptom_medication_value'],
      [{ kind: 'symptom', timestamp: now, symptom_medication_value: 'x'.repeat(501) }, 'symptom_medication_value'],
      [{ kind: 'symptom', timestamp: now + 3 * 86_400_000, symptom_medication_value: 'Future' }, 'timestamp'],
      [{ kind: 'symptom', timestamp: 0, symptom_medication_value: '1970' }, 'timestamp'],
      [{ kind: 'symptom', timestamp: 'yesterday', symptom_medication_value: 'Text time' }, 'timestamp'],
      [{ kind: 'allergy', timestamp: now, symptom_medication_value: 'Pollen' }, 'kind'],
      [{ kind: 'symptom', symptom_medication_value: 'No time' }, 'timestamp'],
    ];
    for (const [body, field] of cases) {
      const res = await post('/patient/add-history-entry', { patient_id: patientId, ...body });
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(res.json().data.field, JSON.stringify(body)).toBe(field);
    }
    expect((await server.call('GET', '/patient/fetch-symptoms?patient_id=abc', { token: physician })).statusCode).toBe(400);
    expect((await fetchList('/patient/fetch-symptoms')).length).toBe(before);
  });

  it('refuses annotators for writes and hides the patient from another practice', async () => {
    const body = { patient_id: patientId, kind: 'symptom', timestamp: now, symptom_medication_value: 'Annotator entry' };
    expect((await post('/patient/add-history-entry', body, annotator)).statusCode).toBe(403);
    const [entry] = await fetchList('/patient/fetch-medications');
    expect((await post('/patient/update-history-entry', { patient_id: patientId, id: entry!.id, timestamp: now, symptom_medication_value: 'x' }, annotator)).statusCode).toBe(403);
    expect((await post('/patient/delete-history-entry', { patient_id: patientId, id: entry!.id }, annotator)).statusCode).toBe(403);
    expect((await post('/patient/add-history-entry', body, stranger)).statusCode).toBe(404);
    expect((await server.call('GET', `/patient/fetch-medications?patient_id=${patientId}`, { token: stranger })).statusCode).toBe(404);
    // Another practice's entry id under a patient of ours is not found either.
    const [other] = await server.db.query<{ id: number }>(`select id from patients where patient_code <> 'NCT1001' and physician_id = (select physician_id from patients where id = $1) limit 1`, [patientId]);
    expect((await post('/patient/delete-history-entry', { patient_id: other!.id, id: entry!.id })).statusCode).toBe(404);
    expect(await fetchList('/patient/fetch-medications')).toHaveLength(1);
  });
});

const year = DateTime.now().year;
const DAY = 86_400_000;
const newPatient = (over: Record<string, unknown>) => ({
  patient_code: `Q${Math.floor(Math.random() * 1e8)}`,
  gender: 'F',
  date_of_birth: `${year - 50}-01-01`,
  diseaseIds: '2',
  height: '170',
  weight: '70',
  vital_parameters: JSON.stringify(NEW_PATIENT_VITALS),
  country: 'Switzerland',
  ...over,
});
const PASSING = { implant: 'no', pregnant: 'no', underAge: 'no', infoSheet: 'yes' };

describe('questionnaire answers', () => {
  let freeDevice = 0;
  let deviceRange = { from: 0, to: 0 };
  beforeAll(async () => {
    const today = DateTime.now().setZone('Europe/Zurich').startOf('day').toMillis();
    deviceRange = { from: today + 40 * DAY, to: today + 42 * DAY };
    const res = await server.call('GET', `/physician/available-devices?allocation_time=${deviceRange.from}&deallocation_time=${deviceRange.to}`, { token: physician });
    freeDevice = (res.json().data as Array<{ device_master_id: number }>)[0]!.device_master_id;
  });

  it('keeps the wizard\'s screening answers with the allocation and shows them in /device/qna', async () => {
    const res = await post('/physician/new-patient', newPatient({ device_master_id: freeDevice, device_allocation_date: deviceRange.from, device_deallocation_date: deviceRange.to, screening_answers: PASSING }));
    expect(res.statusCode).toBe(201);
    const id = res.json().patientId as number;
    const qna = await server.call('GET', `/device/qna?patient_id=${id}`, { token: annotator });
    expect(qna.statusCode).toBe(200);
    const [screening] = qna.json().data.questionnaires;
    expect(screening).toMatchObject({ questionnaire: 'screening', answers: PASSING, answered_by_name: 'Clara Meier', checkup_date_id: null });
    expect(screening.device_id).toMatch(/\S/);
    // By day: answered today in the patient's zone, nothing the day before.
    const today = DateTime.now().setZone('Europe/Zurich').toISODate();
    expect((await server.call('GET', `/device/qna?patient_id=${id}&date=${today}`, { token: physician })).json().data.questionnaires).toHaveLength(1);
    const before = await server.call('GET', `/device/qna?patient_id=${id}&date=2001-01-01`, { token: physician });
    expect(before.json()).toMatchObject({ code: 'response_unavailable', data: { questionnaires: [] } });
    expect((await server.call('GET', `/device/qna?patient_id=${id}&date=01.01.2001`, { token: physician })).json().data.field).toBe('date');
    expect((await server.call('GET', `/device/qna?patient_id=${id}`, { token: stranger })).statusCode).toBe(404);
  });

  it('refuses blocking or incomplete screening answers and adds nothing', async () => {
    const code = `Q${Math.floor(Math.random() * 1e8)}`;
    for (const answers of [{ ...PASSING, pregnant: 'yes' }, { implant: 'no' }, { ...PASSING, infoSheet: 'no' }, { ...PASSING, shoeSize: '42' }]) {
      const res = await post('/physician/new-patient', newPatient({ patient_code: code, device_master_id: freeDevice, device_allocation_date: deviceRange.from, device_deallocation_date: deviceRange.to, screening_answers: answers }));
      expect(res.statusCode, JSON.stringify(answers)).toBe(400);
      expect(res.json().data.field).toMatch(/^screening_answers\./);
    }
    expect(await server.db.query('select 1 from patients where patient_code = $1', [code])).toHaveLength(0);
  });

  it('answers the check-up questionnaire of a completed check-up only, by the practice but not annotators', async () => {
    const date = DateTime.utc().plus({ days: 90 }).toISODate();
    await post('/patient/add-checkup', { patient_id: patientId, checkup_date: date });
    const [{ checkup_date_id }] = await server.db.query<{ checkup_date_id: number }>('select checkup_date_id from checkup_dates where patient_id = $1 and checkup_date = $2', [patientId, date]);
    const answers = { sleepQuality: 'poor', daytimeSleepiness: 'yes', medicationChanged: 'no', deviceProblems: 'no', note: '  Wakes at 4 am. ' };
    const answer = (body: object, token = physician) => post('/patient/checkup-questionnaire', { patient_id: patientId, checkup_date_id, answers, ...body }, token);
    expect((await answer({})).statusCode).toBe(409);
    await post('/patient/mark-as-complete', { patient_id: patientId, checkup_date_id });
    expect((await answer({}, annotator)).statusCode).toBe(403);
    expect((await answer({}, stranger)).statusCode).toBe(404);
    const wrong = await answer({ answers: { ...answers, sleepQuality: 'excellent' } });
    expect(wrong.statusCode).toBe(400);
    expect(wrong.json().data.field).toBe('answers.sleepQuality');
    expect((await answer({ answers: { ...answers, deviceProblems: undefined } })).json().data.field).toBe('answers.deviceProblems');
    expect((await answer({ answers: 'yes' })).json().data.field).toBe('answers');
    expect((await answer({ checkup_date_id: 2_000_000_000 })).statusCode).toBe(404);

    const saved = await answer({}, secondary);
    expect(saved.statusCode).toBe(201);
    const [latest] = saved.json().data.questionnaires;
    expect(latest).toMatchObject({ questionnaire: 'checkup', checkup_date_id, checkup_date: date, answers: { ...answers, note: 'Wakes at 4 am.' } });
  });
});
