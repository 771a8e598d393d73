import { readFileSync } from 'node:fs';
import md5 from 'md5-wasm';
import { CURRENT_REV_SQL } from '../../server/analytics/corrections';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';
import { uploadFiles } from './multipart';

const REAL = new URL('../fixtures/real/', import.meta.url);
const real = (name: string) => new Uint8Array(readFileSync(new URL(name, REAL)));
const BRP = 'snore_resmed_20250808_010210_BRP.edf';
const EVE = 'snore_resmed_20250808_010203_EVE.edf';
const SA2 = 'snore_resmed_20250808_010210_SA2.edf';
const OTHER_EVE = 'snore_resmed_20251025_005805_EVE.edf';
const EVE_START = Date.UTC(2025, 7, 8, 1, 2, 3);

let server: TestServer;
let physician = '';
let annotator = '';
let patientId = 0;

/** A Timestamp,Value SpO2 CSV at 1 Hz from `fromMs` for `seconds`, with a dip every 5 minutes. */
function spo2Csv(fromMs: number, seconds: number, base = 96): Uint8Array {
  const lines = ['Timestamp,Value'];
  for (let s = 0; s < seconds; s++) lines.push(`${new Date(fromMs + s * 1000).toISOString()},${s % 300 < 30 ? base - 5 : base}`);
  return new TextEncoder().encode(lines.join('\n'));
}

const upload = (token: string, fields: Record<string, string>, files: Array<{ name: string; bytes: Uint8Array }>) => uploadFiles(server, token, fields, files);

const counts = async () =>
  (
    await server.db.query<{ r: number; c: number; k: number; f: number; d: number }>(
      `select (select count(*) from recordings)::int as r, (select count(*) from recording_channels)::int as c, (select count(*) from recording_chunks)::int as k,
              (select count(*) from recording_files)::int as f, (select count(*) from device_events)::int as d`,
    )
  )[0];

beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  annotator = (await signIn(server, DEMO_ACCOUNTS.annotator)).token;
  patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1005'`))[0].id;
});
afterAll(() => server.close());

/** The night's revision (corrections and joined files), as analysisOf reads it before analysing. */
const revOf = async (recordingId: number) => Number((await server.db.query<{ r: number }>('select correction_rev as r from recordings where id = $1', [recordingId]))[0]!.r);

describe('one night from many files', () => {
  let recordingId = 0;
  const csvName = 'oximeter_spo2.csv';
  // 12 minutes before the CPAP's first file, for 2 hours.
  const csv = spo2Csv(Date.UTC(2025, 7, 8, 0, 50, 0), 7200);

  it('an event file alone, with no night to attach to, is refused naming the file, and nothing is stored', async () => {
    const before = await counts();
    const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC' }, [{ name: EVE, bytes: real(EVE) }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('no_night_for_events');
    expect(res.json().message).toBe(
      `${EVE}: holds events but no signal, and this patient has no night of 2025-08-07 to attach them to; import it together with the night's signal files, or after them.`,
    );
    expect(await counts()).toEqual(before);
  });

  it('a CPAP night (BRP + EVE) is stored with its files hashed and the device events in real time', async () => {
    const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC', device_id: 'RESMED-1' }, [
      { name: BRP, bytes: real(BRP) },
      { name: EVE, bytes: real(EVE) },
    ]);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.merged).toBe(false);
    expect(data.device_events).toBe(7);
    expect(data.files).toEqual([
      { name: BRP, md5: await md5(real(BRP)) },
      { name: EVE, md5: await md5(real(EVE)) },
    ]);
    recordingId = data.recording_id;
    const files = await server.db.query<{ file_name: string; byte_count: number }>('select file_name, byte_count from recording_files where recording_id = $1 order by id', [recordingId]);
    expect(files.map((f) => [f.file_name, Number(f.byte_count)])).toEqual([
      [BRP, real(BRP).byteLength],
      [EVE, real(EVE).byteLength],
    ]);
  });

  it('an oximeter CSV imported later joins that night: one night, its channel added with its own clock, the span widened, analyses recomputed', async () => {
    // The summary is read (and its analysis cached) before the oximeter arrives.
    const q = `patient_id=${patientId}&recording_date=2025-08-07`;
    const before = (await server.call('GET', `/analytics/patient/summary/kpi=ML_KPI_SUMMARY?${q}`, { token: physician })).json().data;
    expect(before.desaturations).toBe(0);
    expect((await server.db.query('select 1 from night_analyses where recording_id = $1', [recordingId])).length).toBeGreaterThan(0);
    // What a request analysing the night meanwhile read it at.
    const revBefore = await revOf(recordingId);

    const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC', channel: 'SPO2', md5: JSON.stringify({ [csvName]: await md5(csv) }) }, [{ name: csvName, bytes: csv }]);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data).toMatchObject({ recording_id: recordingId, merged: true, night: Date.UTC(2025, 7, 7) / 1000, night_start_time: Date.UTC(2025, 7, 8, 0, 50, 0) });
    expect(data.channels.map((c: { code: string }) => c.code)).toEqual(['SPO2']);
    expect(res.json().message).toBe('Imported 1 file into the night it belongs to.');
    // The join is a new revision of the night: an analysis of the night before it, finished after
    // it, is not stored over the emptied rows (the store's guard, as analysisOf writes it).
    expect(await revOf(recordingId)).toBe(revBefore + 1);
    const stale = await server.db.query(
      `insert into night_analyses (recording_id, params, engine_version, result, kpis) select $1, 'stale', 'stale', '{}'::jsonb, '{}'::jsonb ${CURRENT_REV_SQL('$1', '$2')} returning recording_id`,
      [recordingId, revBefore],
    );
    expect(stale).toEqual([]);

    const nights = (await server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token: annotator })).json().data.nights;
    expect(nights).toHaveLength(1);
    const [rec] = await server.db.query<{ start_ms: number; stop_ms: number; device_id: string }>('select start_ms, stop_ms, device_id from recordings where id = $1', [recordingId]);
    expect(Number(rec.start_ms)).toBe(Date.UTC(2025, 7, 8, 0, 50, 0));
    expect(Number(rec.stop_ms)).toBeGreaterThan(Date.UTC(2025, 7, 8, 7, 0, 0));
    expect(rec.device_id).toBe('RESMED-1');
    const channels = await server.db.query<{ code: string; t0_ms: number }>('select code, t0_ms from recording_channels where recording_id = $1 order by id', [recordingId]);
    expect(channels.map((c) => c.code)).toEqual(expect.arrayContaining(['NC_PSG', 'SPO2']));
    expect(Number(channels.find((c) => c.code === 'SPO2')!.t0_ms)).toBe(Date.UTC(2025, 7, 8, 0, 50, 0));
    expect(Number(channels.find((c) => c.code === 'NC_PSG')!.t0_ms)).toBe(Date.UTC(2025, 7, 8, 1, 2, 10));

    // The summary now reads the oximeter too: the 24 dips of 5 points are desaturations.
    const after = (await server.call('GET', `/analytics/patient/summary/kpi=ML_KPI_SUMMARY?${q}`, { token: physician })).json().data;
    expect(after.desaturations).toBeGreaterThanOrEqual(20);
    const samples = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${recordingId}&code=SPO2`, { token: physician });
    expect(samples.statusCode).toBe(200);
  });

  it('a channel code the night already has is kept under its own label, the first one untouched', async () => {
    const second = spo2Csv(Date.UTC(2025, 7, 8, 2, 0, 0), 600, 93);
    const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC', channel: 'SPO2' }, [{ name: 'second_spo2.csv', bytes: second }]);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.channels.map((c: { code: string }) => c.code)).toEqual(['SPO2#2']);
    const spo2 = await server.db.query<{ t0_ms: number; sample_count: number }>(`select t0_ms, sample_count from recording_channels where recording_id = $1 and code = 'SPO2'`, [recordingId]);
    expect(spo2.map((c) => [Number(c.t0_ms), c.sample_count])).toEqual([[Date.UTC(2025, 7, 8, 0, 50, 0), 7200]]);
  });

  it('a file already imported is skipped with a line naming it and its night, under any name; the rest is imported; an upload of known files only is refused', async () => {
    const before = await counts();
    const again = await upload(physician, { patient_id: String(patientId), timezone: 'UTC', channel: 'SPO2' }, [{ name: csvName, bytes: csv }]);
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({ code: 'duplicate_file', message: `${csvName}: already imported for the night of 2025-08-07; nothing was stored.` });
    expect(await counts()).toEqual(before);
    const renamed = await upload(physician, { patient_id: String(patientId), timezone: 'UTC' }, [
      { name: SA2, bytes: real(SA2) },
      { name: 'copy.edf', bytes: real(BRP) },
    ]);
    expect(renamed.statusCode).toBe(201);
    expect(renamed.json().data.recording_id).toBe(recordingId);
    expect(renamed.json().data.files.map((f: { name: string }) => f.name)).toEqual([SA2]);
    expect(renamed.json().data.skipped_files).toEqual([{ name: 'copy.edf', reason: 'already_stored', same_as: BRP, night: expect.any(Number) }]);
    const after = await counts();
    expect(after.f).toBe(before.f + 1);
    const twice = await upload(physician, { patient_id: String(patientId), timezone: 'UTC' }, [
      { name: 'SA2_copy.edf', bytes: real(SA2) },
      { name: SA2, bytes: real(SA2) },
    ]);
    expect(twice.statusCode).toBe(409);
    // Byte-identical files of one upload are kept once, the first by name ('S' before 's'): that one is stored already.
    expect(twice.json().message).toBe(`SA2_copy.edf: already imported (as ${SA2}) for the night of 2025-08-07; nothing was stored. Every file of this upload is already stored.`);
    expect(await counts()).toEqual(after);
  });

  it('a file whose md5 differs from the one the client computed is refused as damaged', async () => {
    const before = await counts();
    const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC', md5: JSON.stringify({ [SA2]: '0'.repeat(32) }) }, [{ name: SA2, bytes: real(SA2) }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('upload_damaged');
    expect(res.json().message).toContain(`${SA2}: the file changed in transfer`);
    const bad = await upload(physician, { patient_id: String(patientId), md5: '{"x":"nothex"}' }, [{ name: SA2, bytes: real(SA2) }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe('md5: "x" is not 32 hex digits.');
    expect(await counts()).toEqual(before);
  });

  it('the same file may be imported for another patient (hashes are per patient)', async () => {
    const [other] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1003'`);
    const res = await upload(physician, { patient_id: String(other.id), timezone: 'UTC', channel: 'SPO2' }, [{ name: csvName, bytes: csv }]);
    expect(res.statusCode).toBe(201);
    expect(res.json().data.merged).toBe(false);
  });

  it('an event file for a night the patient has is attached to it', async () => {
    // Remove the EVE file and its events, then bring it alone.
    await server.db.query('delete from device_events where recording_id = $1', [recordingId]);
    await server.db.query('delete from recording_files where recording_id = $1 and file_name = $2', [recordingId, EVE]);
    const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC' }, [{ name: EVE, bytes: real(EVE) }]);
    expect(res.statusCode).toBe(201);
    expect(res.json().data).toMatchObject({ recording_id: recordingId, merged: true, channels: [], device_events: 7 });
  });

  it('get-annotations returns the device events as read-only annotations of type device, at their real times', async () => {
    const res = await server.call('POST', '/analytics/patient/get-annotations', { token: annotator, body: { patient_id: patientId, night: Date.UTC(2025, 7, 7) / 1000 } });
    expect(res.statusCode).toBe(200);
    const device = res.json().data.annotations.filter((a: { type: string }) => a.type === 'device');
    expect(device).toHaveLength(7);
    expect(device.every((a: { vendor: string; file_name: string; read_only: boolean }) => a.vendor === 'resmed' && a.file_name === EVE && a.read_only)).toBe(true);
    // ResMed marks an event at its end: Central Apnea written at +7199 s lasting 10 s spans 7189–7199 s.
    const central = device.filter((a: { comment: string }) => a.comment === 'Central Apnea').map((a: { start_ms: number; end_ms: number }) => [(a.start_ms - EVE_START) / 1000, (a.end_ms - EVE_START) / 1000]);
    expect(central[0]).toEqual([7189, 7199]);
    expect(device.find((a: { comment: string }) => a.comment === 'Central Apnea')).toMatchObject({ kpi: 'NC_PSG', label: 1, device_kind: 'central_apnea', color_code: '#5D6D7E' });
    expect(device[0].annotation_map_id).toBeLessThan(0);

    const edit = await server.call('POST', '/analytics/patient/update-annotations', { token: physician, body: { annotation_map_id: device[0].annotation_map_id, version: 1, comment: 'x' } });
    expect(edit.statusCode).toBe(400);
    const del = await server.call('POST', '/analytics/patient/delete-annotations', { token: physician, body: { ids: [device[0].annotation_map_id] } });
    expect(del.statusCode).toBe(400);
    expect((await server.db.query('select 1 from device_events where recording_id = $1', [recordingId])).length).toBe(7);
  });

  it('the list as columns (decision 0994) carries the same device events, whole, beside the columns', async () => {
    const body = { patient_id: patientId, night: Date.UTC(2025, 7, 7) / 1000 };
    const listed = (await server.call('POST', '/analytics/patient/get-annotations', { token: annotator, body })).json().data.annotations.filter((a: { type: string }) => a.type === 'device');
    const res = await server.call('POST', '/analytics/patient/get-annotation-columns', { token: annotator, body });
    expect(res.statusCode).toBe(200);
    const byId = (list: { annotation_map_id: number }[]) => [...list].sort((a, b) => a.annotation_map_id - b.annotation_map_id);
    expect(byId(res.json().data.device)).toEqual(byId(listed));
    expect(res.json().data.columns.type).not.toContain('device');
  });

  it('the annotation CSV lists the device events after Nocturne\'s own, as type device with their vendor and file', async () => {
    const res = await server.call('GET', `/analytics/patient/annotations-csv?patient_id=${patientId}&recording_id=${recordingId}`, { token: physician });
    expect(res.statusCode).toBe(200);
    const [header, ...lines] = res.body.trim().split('\r\n');
    expect(header.split(',').slice(-3)).toEqual(['source', 'vendor', 'file_name']);
    const device = lines.filter((l) => l.split(',')[1] === 'device');
    expect(device).toHaveLength(7);
    for (const l of device) expect(l.endsWith(`,device,resmed,${EVE}`)).toBe(true);
    // Central Apnea marked at +7199 s (its end), 10 s long.
    const central = device.find((l) => l.includes('Central Apnea'))!.split(',');
    const utc = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace('T', ' ');
    expect([central[2], central[3], central[7]]).toEqual([utc(EVE_START + 7189_000), utc(EVE_START + 7199_000), 'central_apnea']);
    // Nocturne's own rows come first, never marked device.
    const first = lines.findIndex((l) => l.split(',')[1] === 'device');
    expect(lines.slice(first).every((l) => l.split(',')[1] === 'device')).toBe(true);
    expect(lines.slice(0, first).every((l) => l.includes(',nocturne,,'))).toBe(true);
  });

  it('the agreement route gives Nocturne against the device: matched, missed, extra, sensitivity, PPV and both AHIs', async () => {
    const res = await server.call('GET', `/analytics/patient/agreement?patient_id=${patientId}&recording_date=2025-08-07`, { token: physician });
    expect(res.statusCode).toBe(200);
    const a = res.json().data;
    expect(a).toMatchObject({ has_reference: true, vendors: ['resmed'], files: [EVE], tolerance_s: 5 });
    const reference = a.device.apneas + a.device.hypopneas;
    expect(reference).toBe(7);
    expect(a.matched + a.missed).toBe(reference);
    const detected = a.nocturne.apneas + a.nocturne.hypopneas;
    expect(a.matched + a.extra).toBe(detected);
    expect(a.sensitivity).toBe(Math.round((a.matched / reference) * 100) / 100);
    expect(a.ppv).toBe(detected ? Math.round((a.matched / detected) * 100) / 100 : null);
    expect(a.index_hours).toBeGreaterThan(6);
    // The device's AHI is its events over its own recording time (the CPAP's session, 388 min: not the oximeter's lead before it).
    expect(a.device_hours).toBe(Math.round((388 / 60) * 100) / 100);
    expect(a.device_ahi).toBe(Math.round((reference / (388 / 60)) * 100) / 100);
    expect(a.device_ahi_basis).toBe('device_recording_time');
    // Apneas and hypopneas compared by kind too, each side's rule named.
    expect(a.by_kind.apneas.device).toBe(a.device.apneas);
    expect(a.by_kind.hypopneas.device).toBe(a.device.hypopneas);
    expect(a.by_kind.apneas.nocturne).toBe(a.nocturne.apneas);
    expect(a.by_kind.apneas.matched + a.by_kind.apneas.missed).toBe(a.device.apneas);
    expect(a.rules.device).toBe('device');
    expect(['aasm', 'flow_only']).toContain(a.rules.nocturne);
    expect(typeof a.nocturne_ahi).toBe('number');

    const missing = await server.call('GET', `/analytics/patient/agreement?patient_id=${patientId}&recording_date=2025-01-01`, { token: physician });
    expect(missing.statusCode).toBe(404);
    const bad = await server.call('GET', `/analytics/patient/agreement?patient_id=${patientId}&night=abc`, { token: physician });
    expect(bad.statusCode).toBe(400);
    const { token } = await signIn(server, DEMO_ACCOUNTS.admin);
    expect((await server.call('GET', `/analytics/patient/agreement?patient_id=${patientId}&recording_date=2025-08-07`, { token })).statusCode).toBe(404);
  });

  it('paid memberships get the agreement without the AHIs (spec 2 §1)', async () => {
    await server.db.query(`update users set membership_type = 'paid' where email = $1`, [DEMO_ACCOUNTS.physician]);
    try {
      const res = await server.call('GET', `/analytics/patient/agreement?patient_id=${patientId}&recording_date=2025-08-07`, { token: physician });
      expect(res.statusCode).toBe(200);
      expect(res.json().data).toMatchObject({ has_reference: true, device: { apneas: expect.any(Number) } });
      expect(res.json().data).not.toHaveProperty('device_ahi');
      expect(res.json().data).not.toHaveProperty('nocturne_ahi');
    } finally {
      await server.db.query(`update users set membership_type = 'non-paid' where email = $1`, [DEMO_ACCOUNTS.physician]);
    }
  });

  it('a night without device events has no reference', async () => {
    const [other] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1003'`);
    const res = await server.call('GET', `/analytics/patient/agreement?patient_id=${other.id}&recording_date=2025-08-07`, { token: physician });
    expect(res.statusCode).toBe(200);
    expect(res.json().data).toMatchObject({ has_reference: false, matched: 0, missed: 0, sensitivity: null });
  });

  it('another night\'s event file is refused while this night exists', async () => {
    const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC' }, [{ name: OTHER_EVE, bytes: real(OTHER_EVE) }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toMatch(new RegExp(`^${OTHER_EVE.replace(/\./g, '\\.')}: holds events but no signal, and this patient has no night of 2025-10-2[45]`));
  });
});

describe('imports at the same time', () => {
  it('two files of one night sent together make one night; one file sent twice at once is stored once', async () => {
    const [p] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1004'`);
    const fields = { patient_id: String(p.id), timezone: 'UTC' };
    const [a, b] = await Promise.all([upload(physician, fields, [{ name: BRP, bytes: real(BRP) }]), upload(physician, fields, [{ name: SA2, bytes: real(SA2) }])]);
    expect([a.statusCode, b.statusCode]).toEqual([201, 201]);
    expect(a.json().data.recording_id).toBe(b.json().data.recording_id);
    expect([a.json().data.merged, b.json().data.merged].sort()).toEqual([false, true]);
    const csv = spo2Csv(Date.UTC(2025, 7, 8, 3, 0, 0), 60);
    const same = await Promise.all([1, 2].map(() => upload(physician, { ...fields, channel: 'SPO2' }, [{ name: 'same.csv', bytes: csv }])));
    expect(same.map((r) => r.statusCode).sort()).toEqual([201, 409]);
    expect((await server.db.query('select 1 from recordings where patient_id = $1', [p.id])).length).toBe(1);
  });
});

describe('migration 014', () => {
  it('turns the scored file events of nights imported before into device events (ResMed: mark = end)', async () => {
    const { mkdtemp, readdir, copyFile } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const path = await import('node:path');
    const { freshDb } = await import('./helpers');
    const { migrate, MIGRATIONS_DIR } = await import('../../server/db/migrate');
    const dir = await mkdtemp(path.join(tmpdir(), 'mig-'));
    for (const f of (await readdir(MIGRATIONS_DIR)).filter((f) => f < '014')) await copyFile(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
    const { db, drop } = await freshDb();
    try {
      await migrate(db, dir);
      const [u] = await db.query<{ id: number }>(`insert into users (email, password_hash, first_name, last_name, country, role) values ('m@x.test', 'x', 'M', 'X', 'CH', 'physician') returning id`);
      const [p] = await db.query<{ id: number }>(`insert into patients (patient_code, physician_id, created_by) values ('MIG1', $1, $1) returning id`, [u.id]);
      const meta = (name: string) => JSON.stringify({ files: [{ fileName: 'x_BRP.edf' }, { fileName: name }] });
      const [resmed] = await db.query<{ id: number }>(`insert into recordings (patient_id, timezone, start_ms, stop_ms, night_key, source, recording_meta) values ($1, 'UTC', 0, 3600000, 0, 'edf', $2) returning id`, [p.id, meta('20250808_010203_EVE.edf')]);
      const [psg] = await db.query<{ id: number }>(`insert into recordings (patient_id, timezone, start_ms, stop_ms, night_key, source, recording_meta) values ($1, 'UTC', 0, 3600000, 86400, 'edf', $2) returning id`, [p.id, meta('psg.edf')]);
      for (const [rid, onset, text] of [[resmed.id, 60_000, 'Obstructive Apnea'], [resmed.id, 90_000, 'Recording starts'], [psg.id, 60_000, 'Hypopnea'], [psg.id, 0, 'Sleep stage W']] as const) {
        await db.query(`insert into recording_events (recording_id, onset_ms, duration_ms, text, source) values ($1, $2, 12000, $3, 'file')`, [rid, onset, text]);
      }
      await migrate(db);
      const rows = await db.query<{ recording_id: number; onset_ms: number; kind: string; vendor: string; file_name: string }>('select recording_id, onset_ms, kind, vendor, file_name from device_events order by recording_id');
      expect(rows.map((r) => [r.recording_id, Number(r.onset_ms), r.kind, r.vendor, r.file_name])).toEqual([
        [resmed.id, 48_000, 'obstructive_apnea', 'resmed', '20250808_010203_EVE.edf'],
        [psg.id, 60_000, 'hypopnea', 'edf+', 'x_BRP.edf'],
      ]);
      expect((await db.query('select 1 from recording_events')).length).toBe(4);
    } finally {
      await db.close();
      await drop();
    }
  });
});
