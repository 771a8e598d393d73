import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWire } from '../../server/recordings/wire';
import { DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';
import { multipartBody } from './multipart';

const REAL = new URL('../fixtures/real/', import.meta.url);
const real = (name: string) => new Uint8Array(readFileSync(new URL(name, REAL)));
const BRP = 'snore_resmed_20250808_010210_BRP.edf';
const EVE = 'snore_resmed_20250808_010203_EVE.edf';
const SA2 = 'snore_resmed_20250808_010210_SA2.edf';

let server: TestServer;
let physician = '';
let annotator = '';
let patientId = 0;

beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  annotator = (await signIn(server, DEMO_ACCOUNTS.annotator)).token;
  patientId = (await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1005'`))[0].id;
});
afterAll(() => server.close());

function upload(token: string, fields: Record<string, string>, files: Array<{ name: string; bytes: Uint8Array }>) {
  const { payload, contentType } = multipartBody(fields, files.map((f) => ({ field: 'files', ...f })));
  return server.app.inject({ method: 'POST', url: '/api/v1/patient/upload-recording', payload, headers: { authorization: `Bearer ${token}`, 'content-type': contentType } });
}

const stored = async () => (await server.db.query<{ n: number }>('select (select count(*) from recordings) + (select count(*) from recording_chunks) as n'))[0].n;

describe('POST /patient/upload-recording', () => {
  it('imports a ResMed night (BRP, EVE, SA2) aligned by their start times, with the device events', async () => {
    const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC', device_id: 'RESMED-1' }, [
      { name: BRP, bytes: real(BRP) },
      { name: EVE, bytes: real(EVE) },
      { name: SA2, bytes: real(SA2) },
    ]);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    expect(data.recording_start_time).toBe(Date.UTC(2025, 7, 8, 1, 2, 3));
    const codes = data.channels.map((c: { code: string }) => c.code);
    expect(codes).toEqual(expect.arrayContaining(['NC_PSG', 'Press.40ms', 'PR', 'SPO2_PSG']));
    expect(data.channels.find((c: { code: string }) => c.code === 'NC_PSG')).toMatchObject({ label: 'Flow.40ms', fs: 25, count: 388 * 60 * 25 });

    const nights = (await server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token: annotator })).json().data.nights;
    expect(nights).toHaveLength(1);
    expect(nights[0]).toMatchObject({ device_id: 'RESMED-1', source: 'edf', recording_date: '2025-08-07' });

    const events = await server.db.query<{ onset_ms: number; duration_ms: number; text: string }>(
      `select onset_ms, duration_ms, text from recording_events where recording_id = $1 and text like '%Apnea%' order by onset_ms`,
      [data.recording_id],
    );
    const eveStart = Date.UTC(2025, 7, 8, 1, 2, 3);
    expect(events.filter((e) => e.text === 'Central Apnea').map((e) => [(e.onset_ms - eveStart) / 1000, e.duration_ms / 1000])).toEqual([
      [7199, 10],
      [14936, 14],
      [15334, 10],
      [16619, 10],
    ]);

    const flow = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${data.recording_id}&code=NC_PSG`, { token: physician });
    const wire = decodeWire(new Uint8Array(flow.rawPayload));
    expect(wire.t0).toBe(Date.UTC(2025, 7, 8, 1, 2, 10));
    expect(wire.samples.length).toBe(388 * 60 * 25);
    const spo2 = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${data.recording_id}&code=SPO2_PSG`, { token: physician });
    const oxi = decodeWire(new Uint8Array(spo2.rawPayload));
    expect(Array.from(oxi.samples.slice(0, 5), (v) => v * oxi.scale + oxi.offset)).toEqual([-1, -1, -1, -1, -1]);
  });

  it('refuses a truncated file, naming it and what was wrong, and stores nothing', async () => {
    const before = await stored();
    const bytes = real(BRP);
    const res = await upload(physician, { patient_id: String(patientId) }, [
      { name: EVE, bytes: real(EVE) },
      { name: 'cut_BRP.edf', bytes: bytes.slice(0, Math.floor(bytes.length / 2)) },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_recording_file');
    expect(res.json().message).toMatch(/^cut_BRP\.edf: /);
    expect(await stored()).toBe(before);
  });

  it('refuses a CSV that is neither an oximeter export nor Timestamp,Value', async () => {
    const res = await upload(physician, { patient_id: String(patientId) }, [{ name: 'notes.csv', bytes: new TextEncoder().encode('Name,Comment\nA,B\n') }]);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain('notes.csv');
  });

  it('imports an oximeter CSV in the patient\'s time zone', async () => {
    const csv = ['Time,Oxygen Level,Pulse Rate,Motion', '23:00:00 Mar 10 2026,96,61,0', '23:00:04 Mar 10 2026,95,62,0', '23:00:08 Mar 10 2026,--,--,3', '23:00:12 Mar 10 2026,94,60,0'].join('\n');
    const res = await upload(physician, { patient_id: String(patientId) }, [{ name: 'O2Ring_20260310.csv', bytes: new TextEncoder().encode(csv) }]);
    expect(res.statusCode).toBe(201);
    // NCT1005 lives in Switzerland: 23:00 in Zurich is 22:00 UTC in March.
    expect(res.json().data.recording_start_time).toBe(Date.UTC(2026, 2, 10, 22, 0, 0));
    expect(res.json().data.channels.map((c: { code: string }) => c.code)).toEqual(expect.arrayContaining(['SPO2', 'PR']));
  });

  it('uses the physician\'s label map, and keeps unmapped signals under their own label', async () => {
    const saved = await server.call('POST', '/recordings/label-map', { token: physician, body: { label_map: { 'Press.40ms': 'CPAP_PRESSURE' } } });
    expect(saved.statusCode).toBe(200);
    const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC' }, [{ name: BRP, bytes: real(BRP) }]);
    expect(res.statusCode).toBe(201);
    const codes = res.json().data.channels.map((c: { code: string }) => c.code);
    expect(codes).toContain('CPAP_PRESSURE');
    expect(codes).toContain('Crc16');
  });

  it('is refused to annotators and for another physician\'s patient', async () => {
    const res = await upload(annotator, { patient_id: String(patientId) }, [{ name: EVE, bytes: real(EVE) }]);
    expect(res.statusCode).toBe(403);
    const [other] = await server.db.query<{ id: number }>(`select id from users where email = $1`, [DEMO_ACCOUNTS.admin]);
    expect(other.id).toBeGreaterThan(0);
    const { token } = await signIn(server, DEMO_ACCOUNTS.admin);
    expect((await upload(token, { patient_id: String(patientId) }, [{ name: EVE, bytes: real(EVE) }])).statusCode).toBe(404);
  });
});

describe('npm run import', () => {
  it('says what is wrong with a file and imports nothing', () => {
    const res = spawnSync(process.execPath, ['--import', 'tsx', 'server/cli/import.ts', '--patient', 'NCT1001', '/etc/hostname'], {
      env: { PATH: process.env.PATH ?? '', DATA_DIR: `/tmp/nocturne-import-cli-${process.pid}` },
      encoding: 'utf8',
    });
    // A fresh data directory has no patients: the command says so and exits 2.
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('no patient with code "NCT1001"');
  });
});

describe('export', () => {
  it('a night to EDF+ and back gives the same samples within a quantisation step and the same annotations', async () => {
    const up = await upload(physician, { patient_id: String(patientId), timezone: 'UTC', device_id: 'RT-1' }, [
      { name: BRP, bytes: real(BRP) },
      { name: EVE, bytes: real(EVE) },
    ]);
    expect(up.statusCode).toBe(201);
    const first = up.json().data.recording_id;
    const res = await server.call('GET', `/analytics/patient/export-edf?patient_id=${patientId}&recording_id=${first}`, { token: physician });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain('NCT1005_20250807_RT-1.edf');
    const edf = new Uint8Array(res.rawPayload);
    expect(new TextDecoder().decode(edf.slice(192, 197))).toBe('EDF+C');

    const again = await upload(physician, { patient_id: String(patientId), timezone: 'UTC' }, [{ name: 'roundtrip.edf', bytes: edf }]);
    expect(again.statusCode).toBe(201);
    const second = again.json().data.recording_id;
    const codes = (await server.db.query<{ code: string }>('select code from recording_channels where recording_id = $1', [first])).map((c) => c.code);
    expect(codes.length).toBeGreaterThanOrEqual(3);
    for (const code of codes) {
      const get = async (rid: number) => {
        const r = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${rid}&code=${encodeURIComponent(code)}`, { token: physician });
        expect(r.statusCode).toBe(200);
        return decodeWire(new Uint8Array(r.rawPayload));
      };
      const a = await get(first);
      const b = await get(second);
      // A 1/60 Hz channel cannot start 7 s into a record: EDF places samples on the record grid.
      if (a.sampleRate >= 1) expect({ code, t0: b.t0 }).toEqual({ code, t0: a.t0 });
      else expect(Math.abs(b.t0 - a.t0)).toBeLessThanOrEqual(500 / a.sampleRate);
      expect(b.samples.length).toBe(a.samples.length);
      let worst = 0;
      for (let i = 0; i < a.samples.length; i++) worst = Math.max(worst, Math.abs(a.samples[i] * a.scale + a.offset - (b.samples[i] * b.scale + b.offset)));
      expect(worst).toBeLessThanOrEqual(Math.max(a.scale, b.scale) + 1e-9);
    }
    const events = async (rid: number) =>
      (await server.db.query<{ onset_ms: number; duration_ms: number; text: string }>(`select onset_ms, duration_ms, text from recording_events where recording_id = $1 order by onset_ms, text`, [rid])).map(
        (e) => `${e.onset_ms}/${e.duration_ms}/${e.text}`,
      );
    expect(await events(second)).toEqual(await events(first));
  });

  it('one channel as the spec\'s data-point CSV, not for annotators', async () => {
    const [rec] = await server.db.query<{ id: number }>(`select id from recordings where patient_id = $1 order by id limit 1`, [patientId]);
    const res = await server.call('GET', `/analytics/patient/data-points?patient_id=${patientId}&recording_id=${rec.id}&code=NC_PSG`, { token: physician });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toContain('NC_PSG_20250807_RESMED-1_NCT1005.csv');
    const lines = res.body.split('\r\n');
    expect(lines[0]).toBe('Timestamp,Value');
    expect(lines[1]).toMatch(/^2025-08-08T01:02:10\.000Z,-?\d/);
    expect(lines.filter(Boolean).length).toBe(1 + 388 * 60 * 25);
    const denied = await server.call('GET', `/analytics/patient/data-points?patient_id=${patientId}&recording_id=${rec.id}&code=NC_PSG`, { token: annotator });
    expect(denied.statusCode).toBe(403);
  });
});

describe('every real recording imports', () => {
  for (const file of ['sleepedf_SC4001E0_short_psg.edf', 'hmc_SN001_hypnogram_test_edfann.edf', 'snore_resmed_20250808_010210_PLD.edf']) {
    it(file, async () => {
      const res = await upload(physician, { patient_id: String(patientId), timezone: 'UTC' }, [{ name: file, bytes: real(file) }]);
      expect(res.statusCode).toBe(201);
      const data = res.json().data;
      if (file.startsWith('sleepedf')) {
        expect(data.recording_start_time).toBe(Date.UTC(1989, 3, 24, 16, 13, 0));
        expect(data.channels.find((c: { code: string }) => c.code === 'EEG Fpz-Cz')).toMatchObject({ fs: 100, count: 300 * 100 });
      } else if (file.startsWith('hmc')) {
        expect(data.channels).toEqual([]);
        expect(data.events).toBe(856);
      } else {
        expect(data.channels.filter((c: { fs: number }) => c.fs === 0.5).length).toBe(9);
      }
    });
  }
});
