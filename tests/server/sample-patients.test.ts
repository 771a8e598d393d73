import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { simulateForPatient } from '../../server/simulator/simulated';
import { createUser, DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let physician = '';
let annotator = '';
let secondary = '';
let admin = '';
let stranger = '';
let annotatorId = 0;
let patientId = 0;
let recordingIds: number[] = [];
/** What identifies the source patient (NCT1001, Anna Keller, born 1958, device NCT0001) and its file. */
const IDENTIFYING = ['Anna', 'Keller', '1958', 'NCT1001', 'NCT0001', 'keller_night.edf'];

beforeAll(async () => {
  server = await startTestServer();
  ({ token: physician } = await signIn(server, DEMO_ACCOUNTS.physician));
  ({ token: annotator, userId: annotatorId } = await signIn(server, DEMO_ACCOUNTS.annotator));
  ({ token: secondary } = await signIn(server, DEMO_ACCOUNTS.secondary));
  ({ token: admin } = await signIn(server, DEMO_ACCOUNTS.admin));
  ({ token: stranger } = await signIn(server, (await createUser(server)).email));
  patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1001'`))[0].id;
  recordingIds = await simulateForPatient(server.db, { patientId, patientCode: 'NCT1001', deviceId: 'NCT0001', timezone: 'Europe/Zurich', nights: 2, profile: 'moderate_osa', lastEvening: '2026-03-09', seed: 'sample-patients' });
  // What must stay behind: a file name naming the patient, a scored device event, an annotation with a comment.
  await server.db.query(`insert into recording_files (recording_id, patient_id, file_name, md5, byte_count) values ($1, $2, 'keller_night.edf', $3, 10)`, [recordingIds[0], patientId, 'a'.repeat(32)]);
  await server.db.query(`insert into device_events (recording_id, onset_ms, kind, text, vendor, file_name) select id, start_ms + 60000, 'apnea', 'Apnea', 'edf+', 'keller_night.edf' from recordings where id = $1`, [recordingIds[0]]);
  await server.db.query(`update recordings set recording_meta = recording_meta || '{"files":[{"fileName":"keller_night.edf","patient":"Anna Keller 1958"}]}' where id = $1`, [recordingIds[0]]);
  const night = (await server.db.query<{ night_key: number }>('select night_key::float8 as night_key from recordings where id = $1', [recordingIds[0]]))[0].night_key;
  const at = (await server.db.query<{ t: string }>(`select to_char(to_timestamp(start_ms / 1000.0 + 600) at time zone 'UTC', 'YYYY-MM-DD HH24:MI:SS') as t from recordings where id = $1`, [recordingIds[0]]))[0].t;
  const added = await server.call('POST', '/analytics/patient/new-annotations', { token: physician, body: { patient_id: patientId, night, kpi: 'BR', start_time: at, duration: '00:20', label: 1, comment: 'Anna Keller snores' } });
  expect(added.statusCode).toBe(201);
});
afterAll(() => server.close());

const add = (token: string, body: object) => server.call('POST', '/patient/samplePatient', { token, body });
const sampleCount = async () => (await server.db.query<{ n: number }>('select count(*)::int as n from patients where sample_practice_id is not null'))[0].n;
const noSourceIn = (text: string) => {
  for (const word of IDENTIFYING) expect(text).not.toContain(word);
};

describe('sample patients', () => {
  let sampleId = 0;

  it('an annotator adds a night to a new sample patient: a de-identified copy owned by the system user 2112', async () => {
    const res = await add(annotator, { patient_id: patientId, recording_id: recordingIds[0], name: 'Moderate OSA, teaching' });
    expect(res.statusCode).toBe(201);
    expect(res.json().code).toBe('sample_patient_added');
    const sample = res.json().data.sample_patient;
    expect(sample).toMatchObject({ name: 'Moderate OSA, teaching', created_by: 2112, night_count: 1 });
    expect(sample.patient_code).toMatch(/^SMP[A-Z0-9]{8}$/);
    noSourceIn(res.body);
    sampleId = sample.patient_id;
    const [row] = await server.db.query<Record<string, unknown>>('select * from patients where id = $1', [sampleId]);
    expect(row).toMatchObject({ physician_id: 2112, created_by: 2112, last_name: '', date_of_birth: null, gender: null, height: null, weight: null, email_id: '', address: '' });
    // The copy keeps who added it in the recording's audit column.
    const [rec] = await server.db.query<{ created_by: number; device_id: string | null; recording_meta: unknown }>('select created_by, device_id, recording_meta from recordings where patient_id = $1', [sampleId]);
    expect(rec.created_by).toBe(annotatorId);
    expect(rec.device_id).toBeNull();
    noSourceIn(JSON.stringify(rec.recording_meta));
  });

  it('copies every channel and its samples exactly, and nothing else (files, device events, annotations)', async () => {
    const src = (await server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token: physician })).json().data.nights.find((n: { recording_id: number }) => n.recording_id === recordingIds[0]);
    const res = await server.call('GET', `/patient/available-nights?patient_id=${sampleId}`, { token: physician });
    expect(res.statusCode).toBe(200);
    noSourceIn(res.body);
    const [copy] = res.json().data.nights;
    expect(copy).toMatchObject({ night: src.night, recording_start_time: src.recording_start_time, recording_stop_time: src.recording_stop_time, timezone: src.timezone, device_id: null });
    // The same channels, stored in rows of the copy's own (another version each).
    const stored = (channels: { version: string }[]) => channels.map(({ version: _, ...c }) => c);
    expect(stored(copy.channels)).toEqual(stored(src.channels));
    expect(src.channels.length).toBeGreaterThan(3);
    for (const c of src.channels as { code: string }[]) {
      const a = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${src.recording_id}&code=${c.code}`, { token: physician });
      const b = await server.call('GET', `/analytics/patient/channel-data?patient_id=${sampleId}&recording_id=${copy.recording_id}&code=${c.code}`, { token: annotator });
      expect(b.statusCode).toBe(200);
      expect(Buffer.compare(b.rawPayload, a.rawPayload)).toBe(0);
    }
    // The stored chunks are the same bytes too.
    const differing = await server.db.query(
      `select s.code from recording_channels s join recording_channels c on c.code = s.code and c.recording_id = $2
       where s.recording_id = $1 and (select string_agg(md5(data), ',' order by seq) from recording_chunks where channel_id = s.id)
                                   is distinct from (select string_agg(md5(data), ',' order by seq) from recording_chunks where channel_id = c.id)`,
      [recordingIds[0], copy.recording_id],
    );
    expect(differing).toEqual([]);
    const annotations = await server.call('POST', '/analytics/patient/get-annotations', { token: physician, body: { patient_id: sampleId, night: copy.night } });
    expect(annotations.statusCode).toBe(200);
    expect(annotations.json().data.annotations).toEqual([]);
    noSourceIn(annotations.body);
    expect(await server.db.query('select 1 from recording_files where recording_id = $1 union all select 1 from device_events where recording_id = $1 union all select 1 from recording_events where recording_id = $1', [copy.recording_id])).toEqual([]);
  });

  it("shows the sample's details as a name only, to the practice's physicians and annotators", async () => {
    for (const token of [physician, annotator, secondary]) {
      const res = await server.call('GET', `/patient/details?patient_id=${sampleId}`, { token });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.patient_info).toMatchObject({ patient_id: sampleId, first_name: 'Moderate OSA, teaching', last_name: '', date_of_birth: null, gender: null, device_id: null, is_sample_patient: true, created_by: 2112 });
      noSourceIn(res.body);
    }
    const nights = (await server.call('GET', `/patient/available-nights?patient_id=${sampleId}`, { token: physician })).json().data.nights;
    const summary = await server.call('POST', '/analytics/patient/all-kpi-summary', { token: annotator, body: { patient_id: sampleId, night: nights[0].night } });
    expect(summary.statusCode).toBe(200);
    noSourceIn(summary.body);
    // The other tabs read it too (histories, questionnaire answers, corrections); none of them writes.
    for (const url of [`/patient/fetch-symptoms?patient_id=${sampleId}`, `/patient/fetch-medications?patient_id=${sampleId}`, `/patient/fetch-diet-plan?patient_id=${sampleId}`, `/device/qna?patient_id=${sampleId}`, `/analytics/patient/corrections?patient_id=${sampleId}&night=${nights[0].night}`]) {
      expect((await server.call('GET', url, { token: physician })).statusCode, url).toBe(200);
    }
    const write = await server.call('POST', '/patient/add-history-entry', { token: physician, body: { patient_id: sampleId, kind: 'symptom', timestamp: Date.now() - 3_600_000, symptom_medication_value: 'Snoring' } });
    expect(write.statusCode, write.body).toBe(403);
    expect(write.json().code).toBe('sample_read_only');
  });

  it("lists the practice's samples to its physicians and annotators, none to another practice, and refuses admins", async () => {
    for (const token of [physician, annotator, secondary]) {
      const res = await server.call('GET', '/patient/samplePatients', { token });
      expect(res.statusCode).toBe(200);
      const list = res.json().data.sample_patients;
      expect(list.map((s: { patient_id: number }) => s.patient_id)).toContain(sampleId);
      noSourceIn(res.body);
    }
    const other = await server.call('GET', '/patient/samplePatients', { token: stranger });
    expect(other.statusCode).toBe(200);
    expect(other.json().data.sample_patients).toEqual([]);
    expect((await server.call('GET', `/patient/details?patient_id=${sampleId}`, { token: stranger })).statusCode).toBe(404);
    expect((await server.call('GET', '/patient/samplePatients', { token: admin })).statusCode).toBe(403);
    // Samples stay out of the practice's own patient list.
    const mine = (await server.call('GET', '/physician/patients', { token: physician })).json();
    expect(JSON.stringify(mine)).not.toContain('Moderate OSA, teaching');
  });

  it('refuses physicians and secondary users adding a night (annotators only)', async () => {
    const before = await sampleCount();
    for (const token of [physician, secondary]) {
      const res = await add(token, { patient_id: patientId, recording_id: recordingIds[1], name: 'By a physician' });
      expect(res.statusCode).toBe(403);
    }
    expect(await sampleCount()).toBe(before);
  });

  it('adds a second night to an existing sample, and refuses the same night twice', async () => {
    const res = await add(annotator, { patient_id: patientId, recording_id: recordingIds[1], sample_patient_id: sampleId });
    expect(res.statusCode).toBe(200);
    expect(res.json().data.sample_patient.night_count).toBe(2);
    const again = await add(annotator, { patient_id: patientId, recording_id: recordingIds[1], sample_patient_id: sampleId });
    expect(again.statusCode).toBe(409);
    expect(again.json().code).toBe('sample_night_exists');
    expect((await server.db.query('select 1 from recordings where patient_id = $1', [sampleId])).length).toBe(2);
  });

  it("is read-only: every change to a sample's data, annotations or details is refused", async () => {
    const nights = (await server.call('GET', `/patient/available-nights?patient_id=${sampleId}`, { token: physician })).json().data.nights;
    const night = nights[0].night;
    const refusals = [
      await server.call('POST', '/analytics/patient/new-annotations', { token: annotator, body: { patient_id: sampleId, night, kpi: 'BR', start_time: '2026-03-08 23:00:00', duration: '00:10', label: 1 } }),
      await server.call('POST', '/analytics/patient/new-annotations', { token: physician, body: { patient_id: sampleId, night, kpi: 'BR', start_time: '2026-03-08 23:00:00', duration: '00:10', label: 1 } }),
      await server.call('POST', '/analytics/patient/generate-system-annotations', { token: physician, body: { patient_id: sampleId, night } }),
      await server.call('POST', '/patient/add-label', { token: annotator, body: { patient_id: sampleId, label: 'Teaching', color_code: '#123456' } }),
      await server.call('POST', '/physician/update-patient-info', { token: physician, body: { patient_id: sampleId, first_name: 'Renamed' } }),
      await server.call('POST', '/patient/add-comment', { token: physician, body: { user_id: sampleId, comment: 'A note' } }),
      await server.call('POST', '/patient/disease-operation', { token: physician, body: { patient_id: sampleId, type: 'update', disease_id: 2 } }),
      // A sample's night is not a source for another sample.
      await add(annotator, { patient_id: sampleId, recording_id: nights[0].recording_id, name: 'Copy of a copy' }),
    ];
    for (const res of refusals) {
      expect(res.statusCode, res.body).toBe(403);
    }
    expect(refusals.filter((r) => r.json().code === 'sample_read_only').length).toBeGreaterThanOrEqual(6);
    expect(await server.db.query('select 1 from annotations where patient_id = $1', [sampleId])).toEqual([]);
    expect((await server.db.query<{ first_name: string }>('select first_name from patients where id = $1', [sampleId]))[0].first_name).toBe('Moderate OSA, teaching');
  });

  it('refuses names that carry the source patient, bad bodies, and leaves nothing behind', async () => {
    const before = await sampleCount();
    const cases: Array<[object, number, string]> = [
      [{ name: 'keller teaching' }, 400, 'identifying'],
      [{ name: 'Case ANNA' }, 400, 'identifying'],
      [{ name: 'From nct1001' }, 400, 'identifying'],
      [{ name: '   ' }, 400, 'required'],
      [{ name: 'x'.repeat(31) }, 400, 'max_length'],
      [{ name: 'Both', sample_patient_id: sampleId }, 400, 'one_of'],
      [{}, 400, 'one_of'],
    ];
    for (const [fields, status, rule] of cases) {
      const res = await add(annotator, { patient_id: patientId, recording_id: recordingIds[0], ...fields });
      expect(res.statusCode, JSON.stringify(fields)).toBe(status);
      expect(res.json().data.rule).toBe(rule);
    }
    const taken = await add(annotator, { patient_id: patientId, recording_id: recordingIds[0], name: 'moderate osa, TEACHING' });
    expect(taken.statusCode).toBe(409);
    expect(taken.json().code).toBe('sample_name_taken');
    // A night of another patient, or of another practice's sample: 404, and no empty sample left.
    const other = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1002'`))[0].id;
    expect((await add(annotator, { patient_id: other, recording_id: recordingIds[0], name: 'Wrong night' })).statusCode).toBe(404);
    expect((await add(annotator, { patient_id: patientId, recording_id: recordingIds[0], sample_patient_id: 999_999 })).statusCode).toBe(404);
    expect((await add(annotator, { patient_id: patientId, recording_id: 'x', name: 'Bad id' })).statusCode).toBe(400);
    expect(await sampleCount()).toBe(before);
  });

  it('two annotators naming a new sample alike at once make one sample; the other is told the name is taken', async () => {
    const { token: second } = await signIn(server, (await createUser(server, { role: 'annotator', is_annotator: true, physician_id: (await server.db.query<{ id: number }>('select id from users where email = $1', [DEMO_ACCOUNTS.physician]))[0].id })).email);
    const before = await sampleCount();
    const body = { patient_id: patientId, recording_id: recordingIds[0], name: 'Simultaneous' };
    const answers = await Promise.all([add(annotator, body), add(second, body)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect(answers.find((r) => r.statusCode === 409)!.json().code).toBe('sample_name_taken');
    expect(await sampleCount()).toBe(before + 1);
  });

  it('keeps the system account from signing in', async () => {
    const res = await server.call('POST', '/login', { body: { email: 'system-2112@nocturne.invalid', password: 'anything-at-all' } });
    expect(res.statusCode).toBe(401);
  });
});

describe('sample channel data', () => {
  it('is served gzip-identical bytes (the stored binary form is copied)', async () => {
    const [src] = await server.db.query<{ gzip: Uint8Array }>("select string_agg(w.gzip, ''::bytea order by w.part) as gzip from recording_channel_wire w join recording_channels c on c.id = w.channel_id where c.recording_id = $1 group by c.id order by c.id limit 1", [recordingIds[0]]);
    const [copy] = await server.db.query<{ gzip: Uint8Array }>(
      `select string_agg(w.gzip, ''::bytea order by w.part) as gzip from recording_channel_wire w join recording_channels c on c.id = w.channel_id join recordings r on r.id = c.recording_id
       join patients p on p.id = r.patient_id where p.sample_practice_id is not null and r.night_key = (select night_key from recordings where id = $1) group by c.id order by c.id limit 1`,
      [recordingIds[0]],
    );
    expect(Buffer.compare(gunzipSync(copy.gzip), gunzipSync(src.gzip))).toBe(0);
  });
});
