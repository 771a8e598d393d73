import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ChannelData } from '../../server/recordings/model';
import { saveNight } from '../../server/recordings/store';
import { createUser, DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let physician = '';
let annotator = '';
let annotatorId = 0;
let physicianId = 0;
let patientId = 0;
const START = Date.UTC(2026, 2, 9, 21, 30);
const NIGHT = Date.UTC(2026, 2, 9) / 1000;
const at = (offsetS: number) => new Date(START + offsetS * 1000).toISOString().slice(0, 19).replace('T', ' ');

beforeAll(async () => {
  server = await startTestServer();
  ({ token: physician, userId: physicianId } = await signIn(server, DEMO_ACCOUNTS.physician));
  ({ token: annotator, userId: annotatorId } = await signIn(server, DEMO_ACCOUNTS.annotator));
  patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1002'`))[0].id;
  const br: ChannelData = { code: 'BR', label: 'BR', unit: 'br/min', sampleRate: 1, t0: START, storage: 'float32', scale: 1, offset: 0, samples: new Float32Array(8 * 3600).fill(14) };
  await saveNight(server.db, { patientId, deviceId: 'NCT0002', source: 'simulated', createdBy: null, night: { startMs: START, stopMs: START + 8 * 3_600_000, timezone: 'Europe/Zurich', channels: [br], events: [], meta: {} } });
});
afterAll(() => server.close());

const post = (token: string, url: string, body: object) => server.call('POST', url, { token, body });
const add = (token: string, fields: object) => post(token, '/analytics/patient/new-annotations', { patient_id: patientId, night: NIGHT, ...fields });

describe('annotations', () => {
  it('an annotator adds one; the physician is its doctor and sees it', async () => {
    const res = await add(annotator, { kpi: 'BR,SPO2', start_time: at(60), duration: '00:10', label: 1, comment: "O\\'Neill said \\\\ no" });
    expect(res.statusCode).toBe(201);
    const [a] = res.json().data.annotations;
    expect(a).toMatchObject({ type: 'custom', kpi: 'BR,SPO2', kpiList: ['BR', 'SPO2'], duration: '0:00:10', label: 1, color_code: '#DA7171', doctor_id: physicianId, created_by: annotatorId, updated_by: annotatorId, start_time: at(60), end_time: at(70), night: NIGHT, recording_date: '2026-03-09', device_id: 'NCT0002', version: 1 });
    expect(a.comment).toBe("O'Neill said \\ no");
    const list = await post(physician, '/analytics/patient/get-annotations', { patient_id: patientId, night: NIGHT });
    expect(list.json().data.annotations.map((x: { annotation_map_id: number }) => x.annotation_map_id)).toContain(a.annotation_map_id);
  });

  it('expands IQ to I and Q', async () => {
    const res = await add(annotator, { kpi: ['IQ'], start_time: at(100), end_time: at(130), label: 1 });
    expect(res.json().data.annotations[0].kpi).toBe('I,Q');
  });

  it('refuses with the spec messages', async () => {
    const none = await add(annotator, { start_time: at(60) });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('Please select at least one KPI.');
    expect(none.json().data.errors).toEqual(['Please select at least one KPI.', 'Please select valid annotation duration.', 'Please select a category.']);
    for (const duration of ['0', '00:00', '24:00:00', '1:60', '12:5:61', 'ten', '-5']) {
      const res = await add(annotator, { kpi: 'BR', start_time: at(60), duration, label: 1 });
      expect({ duration, message: res.json().message }).toEqual({ duration, message: 'Please select valid annotation duration.' });
    }
    expect((await add(annotator, { kpi: 'BR', start_time: at(60), duration: '23:59:59', label: 1 })).json().message).toBe('The annotation must lie within the recording.');
    expect((await add(annotator, { kpi: 'BR', start_time: at(60), duration: '10', label: 999 })).json().message).toBe('Please select a category.');
    expect((await add(annotator, { kpi: 'BR,XYZ', start_time: at(60), duration: '10', label: 1 })).json().message).toBe('Unknown channel XYZ.');
    expect((await add(annotator, { kpi: 'BR', start_time: at(60), duration: '10', label: 1, color_code: 'red' })).json().message).toBe('Please select a color.');
  });

  it('stores a batch whole, each with its history, or nothing when one of it is refused', async () => {
    const count = async () => (await server.db.query<{ n: number }>('select count(*)::int as n from annotations where patient_id = $1', [patientId]))[0].n;
    const before = await count();
    // Valid until its last: the channels and categories it is checked against are the night's and the patient's, for every one.
    const batch = Array.from({ length: 40 }, (_, i) => ({ kpi: 'BR', start_time: at(1000 + i * 20), duration: '10', label: 1 }));
    for (const [last, message] of [
      [{ kpi: 'BR,XYZ', start_time: at(2000), duration: '10', label: 1 }, 'Unknown channel XYZ.'],
      [{ kpi: 'BR', start_time: at(2000), duration: '10', label: 999 }, 'Please select a category.'],
    ] as const) {
      const refused = await add(annotator, { annotations: [...batch, last] });
      expect({ status: refused.statusCode, message: refused.json().message }).toEqual({ status: 400, message });
      expect(await count()).toBe(before);
    }
    const made = await add(annotator, { annotations: batch });
    expect(made.statusCode).toBe(201);
    const ids = made.json().data.annotations.map((a: { annotation_map_id: number }) => a.annotation_map_id);
    expect(made.json().data.annotations.map((a: { start_time: string }) => a.start_time)).toEqual(batch.map((b) => b.start_time));
    expect(await count()).toBe(before + 40);
    const history = await server.db.query<{ n: number }>(`select count(*)::int as n from annotation_history where action = 'create' and annotation_map_id = any($1::int[])`, [ids]);
    expect(history[0].n).toBe(40);
  });

  it('keeps every change with who and the previous value, and refuses a stale save with 409', async () => {
    const [a] = (await add(annotator, { kpi: 'BR', start_time: at(300), duration: '30', label: 1 })).json().data.annotations;
    const first = await post(physician, '/analytics/patient/update-annotations', { annotation_map_id: a.annotation_map_id, version: 1, comment: 'checked' });
    expect(first.statusCode).toBe(200);
    expect(first.json().data.annotation).toMatchObject({ comment: 'checked', version: 2, updated_by: physicianId, created_by: annotatorId });
    const stale = await post(annotator, '/analytics/patient/update-annotations', { annotation_map_id: a.annotation_map_id, version: 1, comment: 'mine' });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().code).toBe('annotation_changed');
    expect(stale.json().message).toContain('Clara Meier');
    const byDate = await post(annotator, '/analytics/patient/update-annotations', { annotation_map_id: a.annotation_map_id, updated_date: '2020-01-01 00:00:00', comment: 'mine' });
    expect(byDate.statusCode).toBe(409);
    const noVersion = await post(annotator, '/analytics/patient/update-annotations', { annotation_map_id: a.annotation_map_id, comment: 'mine' });
    expect(noVersion.statusCode).toBe(400);
    const history = await server.db.query<{ action: string; changed_by: number; previous: { comment: string } | null }>(
      'select action, changed_by, previous from annotation_history where annotation_map_id = $1 order by id',
      [a.annotation_map_id],
    );
    expect(history.map((h) => [h.action, h.changed_by, h.previous?.comment ?? null])).toEqual([
      ['create', annotatorId, null],
      ['update', physicianId, ''],
    ]);
  });

  it('saves an edit of a system annotation as system-edit, and deletes by delete_flag', async () => {
    const [row] = await server.db.query<{ annotation_map_id: number }>(
      `insert into annotations (patient_id, night, type, kpi, start_ms, end_ms, label, color_code, doctor_id, created_by, updated_by, recording_id)
       values ($1, $2, 'system', 'AP_timing', $3, $4, 1, '#DA7171', $5, $5, $5, (select id from recordings where patient_id = $1 limit 1)) returning annotation_map_id`,
      [patientId, NIGHT, START + 1_000_000, START + 1_020_000, physicianId],
    );
    const edit = await post(annotator, '/analytics/patient/update-annotations', { annotation_map_id: row.annotation_map_id, version: 1, duration: '25' });
    expect(edit.json().data.annotation).toMatchObject({ type: 'system-edit', duration: '0:00:25' });
    const del = await post(annotator, '/analytics/patient/update-annotations', { annotation_map_id: row.annotation_map_id, version: 2, delete_flag: 1 });
    expect(del.json().data.annotation.delete_flag).toBe(1);
    const list = (await post(physician, '/analytics/patient/get-annotations', { patient_id: patientId, night: NIGHT })).json().data.annotations;
    expect(list.some((a: { annotation_map_id: number }) => a.annotation_map_id === row.annotation_map_id)).toBe(false);
    const all = (await post(physician, '/analytics/patient/get-annotations', { patient_id: patientId, night: NIGHT, include_deleted: true })).json().data.annotations;
    expect(all.find((a: { annotation_map_id: number }) => a.annotation_map_id === row.annotation_map_id).delete_flag).toBe(1);
  });

  it('deletes many at once, all or nothing', async () => {
    const created = (await add(annotator, { annotations: [0, 1, 2].map((i) => ({ kpi: 'BR', start_time: at(1000 + i * 40), duration: '20', label: 1 })) })).json().data.annotations;
    expect(created).toHaveLength(3);
    const ids = created.map((a: { annotation_map_id: number }) => a.annotation_map_id);
    const stranger = await createUser(server);
    const { token } = await signIn(server, stranger.email);
    const foreign = await post(token, '/analytics/patient/delete-annotations', { ids });
    expect(foreign.statusCode).toBe(404);
    const res = await post(annotator, '/analytics/patient/delete-annotations', { ids, patient_id: patientId });
    expect(res.json().data.deleted).toBe(3);
  });

  it("another physician's patient is 404, and generation says when a night has no breathing signal", async () => {
    const stranger = await createUser(server);
    const { token } = await signIn(server, stranger.email);
    expect((await post(token, '/analytics/patient/get-annotations', { patient_id: patientId })).statusCode).toBe(404);
    expect((await post(token, '/analytics/patient/new-annotations', { patient_id: patientId, night: NIGHT, kpi: 'BR', start_time: at(5), duration: '5', label: 1 })).statusCode).toBe(404);
    const gen = await post(physician, '/analytics/patient/generate-system-annotations', { patient_id: patientId, type: 'system', night: NIGHT });
    expect(gen.statusCode).toBe(422);
    expect(gen.json().code).toBe('no_breathing_signal');
  });
});

describe('categories', () => {
  const addLabel = (label: string, color_code: string, token = annotator) => post(token, '/patient/add-label', { patient_id: patientId, label, color_code });

  it('lists the built-in categories and validates with the spec messages', async () => {
    const list = (await post(annotator, '/patient/get-label-list', { patient_id: patientId })).json().data.labels;
    // The spec's seven built-ins (spec 2 §3), each with a stable code the screens translate by.
    expect(list.map((l: { label: string; code: string }) => [l.label, l.code])).toEqual([
      ['Apnea', 'apnea'], ['Desaturation', 'desaturation'], ['Hypoapnea', 'hypopnea'], ['Movement', 'movement'],
      ['Central Apnea', 'central_apnea'], ['Obstructive Apnea', 'obstructive_apnea'], ['Irregularities', 'irregularities'],
    ]);
    expect(new Set(list.map((l: { color_code: string }) => l.color_code)).size).toBe(7);
    expect((await addLabel('', '#112233')).json().message).toBe('Please enter category.');
    expect((await addLabel('A'.repeat(21), '#112233')).json().message).toBe('Category length should not exceed 20 characters.');
    expect((await addLabel('Snoring', '')).json().message).toBe('Please select a color.');
    expect((await addLabel('Snoring', '#da7171')).json().message).toBe('This color is already used by another category.');
  });

  it('allows twelve categories and refuses the thirteenth', async () => {
    // Seven built-in categories; five of the patient's own fill the twelve.
    const colors = ['#76D7C4', '#F7DC6F', '#85C1E9', '#F8C471', '#D7BDE2'];
    for (const [i, c] of colors.entries()) {
      const res = await addLabel(`Cat ${i + 1}`, c);
      expect(res.statusCode).toBe(201);
      expect(res.json().data.label).toMatchObject({ doctor_id: physicianId, created_by: annotatorId, type: 'custom' });
    }
    const thirteenth = await addLabel('One more', '#A3E4D7');
    expect(thirteenth.statusCode).toBe(400);
    expect(thirteenth.json().message).toBe('A patient can have at most 12 categories.');
  });

  it('updates with a version, refuses a stale one, deletes custom but not built-in ones', async () => {
    const list = (await post(annotator, '/patient/get-label-list', { patient_id: patientId })).json().data.labels;
    const cat = list.find((l: { label: string }) => l.label === 'Cat 1');
    const ok = await post(physician, '/patient/update-label', { label_id: cat.label_id, label: "Cat\\'s snore", color_code: cat.color_code, version: 1 });
    expect(ok.json().data.label).toMatchObject({ label: "Cat's snore", version: 2 });
    const stale = await post(annotator, '/patient/update-label', { label_id: cat.label_id, label: 'Late', color_code: cat.color_code, version: 1 });
    expect(stale.statusCode).toBe(409);
    expect((await post(annotator, '/patient/delete-label', { label_id: 1 })).statusCode).toBe(403);
    expect((await post(annotator, '/patient/delete-label', { label_id: cat.label_id })).statusCode).toBe(200);
    // A save or a delete based on the version read before the delete: told it changed (409), not "not found".
    const lateSave = await post(annotator, '/patient/update-label', { label_id: cat.label_id, label: 'Too late', color_code: cat.color_code, version: 2 });
    expect([lateSave.statusCode, lateSave.json().code]).toEqual([409, 'category_changed']);
    const lateDelete = await post(annotator, '/patient/delete-label', { label_id: cat.label_id, version: 2 });
    expect([lateDelete.statusCode, lateDelete.json().code]).toEqual([409, 'category_changed']);
    expect((await post(annotator, '/patient/delete-label', { label_id: cat.label_id })).statusCode).toBe(404);
    const after = (await post(annotator, '/patient/get-label-list', { patient_id: patientId })).json().data.labels;
    expect(after.some((l: { label_id: number }) => l.label_id === cat.label_id)).toBe(false);
  });
});

describe('annotation export', () => {
  it("a night's annotations as CSV and inside its EDF+ export", async () => {
    const [rec] = await server.db.query<{ id: number }>('select id from recordings where patient_id = $1', [patientId]);
    await add(annotator, { kpi: 'BR', start_time: at(2000), duration: '15', label: 1, comment: '=SUM(A1), "quoted"' });
    const csv = await server.call('GET', `/analytics/patient/annotations-csv?patient_id=${patientId}&recording_id=${rec.id}`, { token: physician });
    expect(csv.statusCode).toBe(200);
    expect(csv.headers['content-disposition']).toContain('annotations_20260309_NCT0002_NCT1002.csv');
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toBe('annotation_map_id,type,start_time,end_time,duration,kpi,label,category,color_code,comment,created_by,updated_by,updated_date,source,vendor,file_name');
    const row = lines.find((l) => l.includes('SUM'))!;
    expect(row).toContain(`${at(2000)},${at(2015)},0:00:15,BR,1,Apnea,#DA7171,"'=SUM(A1), ""quoted""",${DEMO_ACCOUNTS.annotator}`);

    const edf = await server.call('GET', `/analytics/patient/export-edf?patient_id=${patientId}&recording_id=${rec.id}`, { token: physician });
    const text = new TextDecoder('latin1').decode(new Uint8Array(edf.rawPayload));
    expect(text).toContain('Apnea: =SUM(A1), "quoted" [BR]');
  });
});
