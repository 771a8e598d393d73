import { gunzipSync } from 'node:zlib';
import type { AddressInfo } from 'node:net';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ChannelData, Night } from '../../server/recordings/model';
import { nightKey } from '../../server/recordings/night-key';
import { InvalidNightError, SAMPLES_PER_CHUNK, saveNight } from '../../server/recordings/store';
import { decodeWire } from '../../server/recordings/wire';
import { nightInput } from '../../server/analytics/analyse';
import { createUser, DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';
import { channelInputFromWire, loadEngine, ms, px } from '../../engine/index';
import { decodeView, decodeViews } from '../../engine/viewWire';

let server: TestServer;
let physician = '';
let annotator = '';
let patientId = 0;
let recordingId = 0;
const START = Date.UTC(2026, 2, 9, 21, 30); // 22:30 in Zurich on 9 March 2026

function channel(code: string, storage: 'int16' | 'float32', count: number, rate: number, f: (i: number) => number): ChannelData {
  const samples = storage === 'int16' ? new Int16Array(count) : new Float32Array(count);
  for (let i = 0; i < count; i++) samples[i] = f(i);
  return { code, label: code, unit: '', sampleRate: rate, t0: START, storage, scale: storage === 'int16' ? 0.01 : 1, offset: 0, samples };
}

const night = (channels: ChannelData[]): Night => ({
  startMs: START,
  stopMs: START + 8 * 3_600_000,
  timezone: 'Europe/Zurich',
  channels,
  events: [{ onsetMs: START + 60_000, durationMs: 12_000, text: 'Central Apnea' }],
  meta: { source: 'test' },
});

beforeAll(async () => {
  server = await startTestServer();
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  annotator = (await signIn(server, DEMO_ACCOUNTS.annotator)).token;
  const [p] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1001'`);
  patientId = p.id;
  recordingId = await saveNight(server.db, {
    patientId,
    deviceId: 'NCT0001',
    source: 'simulated',
    createdBy: null,
    night: night([
      channel('BR', 'float32', 8 * 3600, 1, (i) => (i % 97 === 0 ? -1 : 14 + Math.sin(i / 50))),
      channel('Y_DIST', 'int16', 3 * SAMPLES_PER_CHUNK + 123, 25, (i) => Math.round(1000 * Math.sin(i / 20))),
    ]),
  });
});
afterAll(() => server.close());

describe('night key', () => {
  it('is 00:00 UTC of the local date the night began, in Unix seconds', () => {
    expect(nightKey(START, 'Europe/Zurich')).toBe(Date.UTC(2026, 2, 9) / 1000);
    // 01:30 local on the 10th still belongs to the night of the 9th.
    expect(nightKey(Date.UTC(2026, 2, 10, 0, 30), 'Europe/Zurich')).toBe(Date.UTC(2026, 2, 9) / 1000);
    // 22:00 UTC is already 03:30 the next day in Kolkata: the night began on the 9th there.
    expect(nightKey(Date.UTC(2026, 2, 9, 22, 0), 'Asia/Kolkata')).toBe(Date.UTC(2026, 2, 9) / 1000);
    expect(() => nightKey(START, 'Mars/Olympus')).toThrow(/time zone/);
  });
});

describe('GET /patient/available-nights', () => {
  it('lists the nights with their channels, for the physician and the annotator', async () => {
    const res = await server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token: physician });
    expect(res.statusCode).toBe(200);
    const [n] = res.json().data.nights;
    expect(n).toMatchObject({
      recording_id: recordingId,
      night: Date.UTC(2026, 2, 9) / 1000,
      recording_date: '2026-03-09',
      device_id: 'NCT0001',
      timezone: 'Europe/Zurich',
      recording_start_time: START,
      recording_stop_time: START + 8 * 3_600_000,
    });
    expect(n.channels.map((c: { code: string }) => c.code)).toEqual(['BR', 'Y_DIST']);
    const asAnnotator = await server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token: annotator });
    expect(asAnnotator.json()).toEqual(res.json());
  });

  it("answers 404 for another physician's patient", async () => {
    const other = await createUser(server);
    const { token } = await signIn(server, other.email);
    const res = await server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token });
    expect(res.statusCode).toBe(404);
    const data = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${recordingId}&code=BR`, { token });
    expect(data.statusCode).toBe(404);
  });
});

describe('a recording asked for by patient and id (one statement)', () => {
  it('answers 404 naming what is missing: a patient the caller may not see, then a recording not of that patient', async () => {
    const url = (patient: number, recording: number) => `/analytics/patient/channel-data?patient_id=${patient}&recording_id=${recording}&code=BR`;
    const [other] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1002'`);
    const [others] = await server.db.query<{ id: number }>('select id from recordings where patient_id = $1 limit 1', [other.id]);
    const cases: [number, number, string][] = [
      [patientId + 100_000, recordingId, 'patient'],
      // Another of the practice's patients with this night's id: the night is not theirs.
      [other.id, recordingId, 'recording'],
      [patientId, recordingId + 100_000, 'recording'],
    ];
    if (others) cases.push([patientId, others.id, 'recording']);
    for (const [patient, recording, thing] of cases) {
      const res = await server.call('GET', url(patient, recording), { token: physician });
      expect(res.statusCode, `${patient}/${recording}`).toBe(404);
      expect(res.json().data.params.thing).toBe(thing);
    }
    // Seen by the annotator of the same physician, the night and its data as for the physician.
    expect((await server.call('GET', url(patientId, recordingId), { token: annotator })).statusCode).toBe(200);
  });
});

describe('GET /analytics/patient/channel-data', () => {
  it('serves float32 samples with their header, missing codes kept', async () => {
    const res = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${recordingId}&code=BR`, { token: physician });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/octet-stream');
    const wire = decodeWire(new Uint8Array(res.rawPayload));
    expect(wire).toMatchObject({ t0: START, sampleRate: 1, storage: 'float32', scale: 1, offset: 0, missingCodes: [-1, -2] });
    expect(wire.samples.length).toBe(8 * 3600);
    expect(wire.samples[0]).toBe(-1);
    expect(wire.samples[1]).toBeCloseTo(14 + Math.sin(1 / 50), 5);
  });

  it('serves int16 samples across chunk borders, gzip-compressed when asked', async () => {
    const res = await server.app.inject({
      method: 'GET',
      url: `/api/v1/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${recordingId}&code=Y_DIST`,
      headers: { authorization: `Bearer ${physician}`, 'accept-encoding': 'gzip, deflate' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('gzip');
    const raw = gunzipSync(res.rawPayload);
    expect(res.rawPayload.byteLength).toBeLessThan(raw.byteLength);
    const wire = decodeWire(new Uint8Array(raw));
    expect(wire.storage).toBe('int16');
    expect(wire.scale).toBe(0.01);
    expect(wire.samples.length).toBe(3 * SAMPLES_PER_CHUNK + 123);
    for (const i of [0, SAMPLES_PER_CHUNK - 1, SAMPLES_PER_CHUNK, 2 * SAMPLES_PER_CHUNK + 7, 3 * SAMPLES_PER_CHUNK + 122]) {
      expect(wire.samples[i]).toBe(Math.round(1000 * Math.sin(i / 20)));
    }
  });

  it('serves the same bytes for a channel stored before its compressed form existed', async () => {
    const url = `/api/v1/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${recordingId}&code=Y_DIST`;
    const headers = { authorization: `Bearer ${physician}`, 'accept-encoding': 'gzip' };
    const stored = gunzipSync((await server.app.inject({ method: 'GET', url, headers })).rawPayload);
    const [{ n }] = await server.db.query<{ n: number }>(
      `with gone as (delete from recording_channel_wire where channel_id in (select id from recording_channels where recording_id = $1 and code = 'Y_DIST') returning 1) select count(*)::int as n from gone`,
      [recordingId],
    );
    expect(n).toBe(1);
    const rebuilt = gunzipSync((await server.app.inject({ method: 'GET', url, headers })).rawPayload);
    expect(Buffer.compare(rebuilt, stored)).toBe(0);
  });

  it('answers 404 for an unknown channel and 400 for a missing parameter', async () => {
    const unknown = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${recordingId}&code=HR`, { token: physician });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Channel HR not found.');
    const missing = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&code=HR`, { token: physician });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toContain('recording_id');
  });
});

describe('GET /analytics/patient/channel-overview', () => {
  const overviewUrl = (code: string, t0: number, t1: number, pixels: number) =>
    `/analytics/patient/channel-overview?patient_id=${patientId}&recording_id=${recordingId}&code=${code}&t0=${t0}&t1=${t1}&pixels=${pixels}`;

  it("is the browser engine's own view of the raw samples, column for column (float32 with missing codes, int16 across chunks)", async () => {
    const engine = await loadEngine();
    // A window on no column grid of the samples, as a plot width makes it.
    const [t0, t1, pixels] = [START - 61_234.5, START + 8 * 3_600_000 + 777, 997];
    for (const code of ['BR', 'Y_DIST']) {
      const raw = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${recordingId}&code=${code}`, { token: physician });
      const info = engine.load(channelInputFromWire({ night: 'n', code }, decodeWire(new Uint8Array(raw.rawPayload))));
      const expected = engine.view({ night: 'n', code }, ms(t0), ms(t1), px(pixels));
      const res = await server.call('GET', overviewUrl(code, t0, t1, pixels), { token: physician });
      expect(res.statusCode).toBe(200);
      // Asked without the channels' versions: not kept by the browser (decision 1019; night-sessions.test.ts).
      expect(res.headers['cache-control']).toBe('no-cache');
      const { view, channel } = decodeView(new Uint8Array(res.rawPayload));
      expect(res.rawPayload.byteLength).toBe(64 + 21 * pixels);
      expect(channel).toEqual({ min: info.min, max: info.max, count: info.count, validCount: info.validCount });
      expect([view.origin, view.pxMs, view.pixels]).toEqual([expected.origin, expected.pxMs, expected.pixels]);
      for (const k of ['x', 'first', 'min', 'max', 'last', 'flags'] as const) expect(Array.from(view[k]), `${code} ${k}`).toEqual(Array.from(expected[k]));
      // Columns before the recording are empty (NaN), the others hold values.
      expect(Number.isNaN(view.min[0]!) && Number.isNaN(view.max[1]!)).toBe(true);
      expect(view.max.some((v) => v > 0)).toBe(true);
    }
    engine.dispose();
  });

  it('answers several channels in one request, their views one after the other in the order asked', async () => {
    const [t0, t1, pixels] = [START, START + 8 * 3_600_000, 300];
    const one = async (code: string) => (await server.call('GET', overviewUrl(code, t0, t1, pixels), { token: physician })).rawPayload;
    const both = await server.call('GET', `/analytics/patient/channel-overview?patient_id=${patientId}&recording_id=${recordingId}&code=Y_DIST&code=BR&t0=${t0}&t1=${t1}&pixels=${pixels}`, { token: physician });
    expect(both.statusCode).toBe(200);
    expect(Buffer.compare(both.rawPayload, Buffer.concat([await one('Y_DIST'), await one('BR')]))).toBe(0);
    const views = decodeViews(new Uint8Array(both.rawPayload));
    expect(views.map((v) => v.view.pixels)).toEqual([pixels, pixels]);
    // One unknown channel refuses the whole request.
    const unknown = await server.call('GET', `/analytics/patient/channel-overview?patient_id=${patientId}&recording_id=${recordingId}&code=BR&code=HR&t0=${t0}&t1=${t1}&pixels=${pixels}`, { token: physician });
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json().message).toBe('Channel HR not found.');
    const many = Array.from({ length: 65 }, () => '&code=BR').join('');
    expect((await server.call('GET', `/analytics/patient/channel-overview?patient_id=${patientId}&recording_id=${recordingId}${many}&t0=${t0}&t1=${t1}&pixels=${pixels}`, { token: physician })).statusCode).toBe(400);
  });

  it('stops computing when the client leaves: the rest of the channels are not computed and the abort is logged', async () => {
    await server.app.listen({ port: 0, host: '127.0.0.1' });
    const { port } = server.app.server.address() as AddressInfo;
    const logged = server.log.messages;
    const codes = Array.from({ length: 64 }, () => '&code=BR').join('');
    const socket = connect(port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(`GET /api/v1/analytics/patient/channel-overview?patient_id=${patientId}&recording_id=${recordingId}${codes}&t0=${START}&t1=${START + 3_600_000}&pixels=777 HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${physician}\r\n\r\n`);
    socket.destroy();
    await vi.waitFor(() => expect(logged().join('\n')).toMatch(/Request aborted by the client: GET \/api\/v1\/analytics\/patient\/channel-overview \(stopped after (\d+) of 64 channels\)/), { timeout: 10_000 });
    const stoppedAfter = Number(/stopped after (\d+)/.exec(logged().join('\n'))![1]);
    expect(stoppedAfter).toBeLessThan(64);
    expect(logged().filter((l) => l.startsWith('Request aborted'))).toHaveLength(1);
  });

  it('answers 400 for a bad window or column count and 404 for an unknown channel or another physician', async () => {
    const bad = await server.call('GET', overviewUrl('BR', START + 10, START, 100), { token: physician });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toBe(`t1 (${START}) must be after t0 (${START + 10}).`);
    const many = await server.call('GET', overviewUrl('BR', START, START + 1000, 100_000), { token: physician });
    expect(many.statusCode).toBe(400);
    expect(many.json().message).toContain('pixels');
    const unknown = await server.call('GET', overviewUrl('HR', START, START + 1000, 10), { token: physician });
    expect(unknown.statusCode).toBe(404);
    const other = await createUser(server);
    const { token } = await signIn(server, other.email);
    expect((await server.call('GET', overviewUrl('BR', START, START + 1000, 10), { token })).statusCode).toBe(404);
  });
});

describe('saving a night', () => {
  const count = async () => (await server.db.query<{ n: number }>('select (select count(*) from recordings) + (select count(*) from recording_channels) + (select count(*) from recording_chunks) + (select count(*) from recording_events) as n'))[0].n;

  it('refuses an invalid night before writing anything', async () => {
    const before = await count();
    const dup = night([channel('BR', 'float32', 10, 1, () => 1), channel('BR', 'float32', 10, 1, () => 2)]);
    await expect(saveNight(server.db, { patientId, deviceId: null, source: 'edf', createdBy: null, night: dup })).rejects.toThrow(InvalidNightError);
    const badRate = night([channel('HR', 'float32', 10, 0, () => 1)]);
    await expect(saveNight(server.db, { patientId, deviceId: null, source: 'edf', createdBy: null, night: badRate })).rejects.toThrow(/sample rate 0/);
    expect(await count()).toBe(before);
  });

  it('leaves nothing behind when the database refuses part of it', async () => {
    const before = await count();
    const broken = channel('HR', 'float32', 100_000, 1, (i) => i);
    (broken as { label: unknown }).label = null; // a NOT NULL column fails after the first channel was written
    const n = night([channel('SPO2', 'float32', 100_000, 1, () => 97), broken]);
    await expect(saveNight(server.db, { patientId, deviceId: null, source: 'edf', createdBy: null, night: n })).rejects.toThrow();
    expect(await count()).toBe(before);
  });
});

describe('GET /analytics/patient/type={type}', () => {
  it('answers the JSON series of the night, by Unix seconds or date, with SQB when multiple', async () => {
    const key = Date.UTC(2026, 2, 9) / 1000;
    const from = (START + 60_000) / 1000;
    const res = await server.call('GET', `/analytics/patient/type=BR?patient_id=${patientId}&recording_date=${key}&device_start_time=${from}&device_stop_time=${from + 10}&multiple=true`, { token: annotator });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.BR.ts).toEqual(Array.from({ length: 10 }, (_, i) => from + i));
    expect(data.BR.dataset[0]).toBeCloseTo(14 + Math.sin(60 / 50), 5);
    expect(data.BR.fs).toBe(1);
    expect(data.SQB).toEqual({ ts: [], dataset: [] });
    expect(data.recording_meta.timezone).toBe('Europe/Zurich');
    expect(data.recording_start_time).toBe(START);
    const byDate = await server.call('GET', `/analytics/patient/type=BR?patient_id=${patientId}&recording_date=2026-03-09&device_start_time=${from}&device_stop_time=${from + 10}`, { token: physician });
    expect(byDate.json().data.BR).toEqual(data.BR);
  });

  it('keeps the missing codes and refuses an unparsable date or a night that does not exist', async () => {
    const all = await server.call('GET', `/analytics/patient/type=BR?patient_id=${patientId}&recording_date=20260309`, { token: physician });
    expect(all.json().data.BR.dataset.length).toBe(8 * 3600);
    expect(all.json().data.BR.dataset[97]).toBe(-1);
    const bad = await server.call('GET', `/analytics/patient/type=BR?patient_id=${patientId}&recording_date=yesterday!`, { token: physician });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().message).toContain('recording_date');
    const none = await server.call('GET', `/analytics/patient/type=BR?patient_id=${patientId}&recording_date=2026-03-01`, { token: physician });
    expect(none.statusCode).toBe(404);
  });
});

describe('GET /s3/analytics/patient and its link', () => {
  it('answers the night meta and a signed link whose JSON text has NaN as null', async () => {
    const start = Date.UTC(2026, 2, 11, 21, 0);
    const hr = channel('HR', 'float32', 600, 1, (i) => (i === 3 ? Number.NaN : 60 + (i % 5)));
    await saveNight(server.db, { patientId, deviceId: 'NCT0001', source: 'simulated', createdBy: null, night: { ...night([{ ...hr, t0: start }]), startMs: start, stopMs: start + 600_000 } });
    const res = await server.call('GET', `/s3/analytics/patient?recording_date=20260311&patient_id=${patientId}&device_id=NCT0001`, { token: annotator });
    expect(res.statusCode).toBe(200);
    const { meta, link } = res.json().data;
    expect(meta).toMatchObject({ night: Date.UTC(2026, 2, 11) / 1000, channels: ['HR'], recording_start_time: start });
    const file = await server.app.inject({ method: 'GET', url: link });
    expect(file.statusCode).toBe(200);
    const body = JSON.parse(file.body);
    expect(body.HR.dataset.slice(0, 5)).toEqual([60, 61, 62, null, 64]);
    expect(body.HR.ts[1]).toBe(start / 1000 + 1);
    expect(body.recording_meta.timezone).toBe('Europe/Zurich');

    const tampered = link.replace(/sig=[^&]+/, 'sig=AAAA');
    expect((await server.app.inject({ method: 'GET', url: tampered })).statusCode).toBe(403);
    const otherNight = link.replace(/night-file\/\d+/, `night-file/${recordingId}`);
    expect((await server.app.inject({ method: 'GET', url: otherNight })).statusCode).toBe(403);
  });

  it('answers 404 for a day without a night, so a range loop skips it', async () => {
    const res = await server.call('GET', `/s3/analytics/patient?recording_date=20260310&patient_id=${patientId}`, { token: physician });
    expect(res.statusCode).toBe(404);
  });

  it('leaves raw waveforms to the binary endpoint', async () => {
    const res = await server.call('GET', `/s3/analytics/patient?recording_date=20260309&patient_id=${patientId}`, { token: physician });
    expect(res.json().data.meta.channels).toEqual(['BR']);
  });
});

describe('GET /analytics/patient-trendview/type={type}', () => {
  it('gives one point per night with the engine\'s statistics, missing values left out', async () => {
    const from = Date.UTC(2026, 2, 8, 8) / 1000;
    const to = Date.UTC(2026, 2, 12, 8) / 1000;
    const res = await server.call('GET', `/analytics/patient-trendview/type=BR,HR?patient_id=${patientId}&device_start_time=${from}&device_stop_time=${to}`, { token: annotator });
    expect(res.statusCode).toBe(200);
    const { BR, HR } = res.json().data;
    expect(BR).toHaveLength(1);
    expect(BR[0]).toMatchObject({ date: '2026-03-09', recording_id: recordingId });
    // BR is 14 + sin(i/50) with every 97th sample missing (-1): never below 13, never above 15.
    expect(BR[0].min).toBeGreaterThanOrEqual(13);
    expect(BR[0].max).toBeLessThanOrEqual(15);
    expect(BR[0].medianPercentile).toBeGreaterThan(13.5);
    expect(BR[0].missing_fraction).toBeCloseTo(1 / 97, 3);
    expect(BR[0].lowerPercentile).toBeLessThan(BR[0].upperPercentile);
    expect(HR).toHaveLength(1);
    expect(HR[0].date).toBe('2026-03-11');
    expect(HR[0].max).toBe(64);
  });

  it('refuses a range that ends before it starts', async () => {
    const res = await server.call('GET', `/analytics/patient-trendview/type=BR?patient_id=${patientId}&device_start_time=200&device_stop_time=100`, { token: physician });
    expect(res.statusCode).toBe(400);
  });
});

describe('GET /s3/analytics/patient/range', () => {
  it('loops day by day and skips the days without a night', async () => {
    const res = await server.call('GET', `/s3/analytics/patient/range?start_date=20260308&end_date=20260312&patient_id=${patientId}`, { token: annotator });
    expect(res.statusCode).toBe(200);
    const days = res.json().data.days as Array<{ recording_date: string; link: string }>;
    expect(days.map((d) => d.recording_date)).toEqual(['20260309', '20260311']);
    const file = await server.app.inject({ method: 'GET', url: days[1].link });
    expect(JSON.parse(file.body).HR.dataset.length).toBe(600);
    const bad = await server.call('GET', `/s3/analytics/patient/range?start_date=20260312&end_date=20260308&patient_id=${patientId}`, { token: annotator });
    expect(bad.statusCode).toBe(400);
  });
});

describe('missing-value codes per channel', () => {
  it('our device keeps -1/-2 (not on coded channels); another tool\'s file has none; the detectors and the wire honour it', async () => {
    const start = START + 30 * 86_400_000;
    const flow = (code: string): ChannelData => ({ ...channel(code, 'int16', 600, 1, (i) => (i % 10 === 0 ? -1 : 200)), t0: start });
    const base = { ...night([]), startMs: start, stopMs: start + 600_000 };
    const device = await saveNight(server.db, { patientId, deviceId: 'NCT0001', source: 'simulated', createdBy: null, night: { ...base, channels: [flow('Y_DIST'), { ...flow('SQB'), scale: 1 }] } });
    const edf = await saveNight(server.db, { patientId, deviceId: null, source: 'edf', createdBy: null, night: { ...base, startMs: start + 86_400_000, stopMs: start + 86_400_000 + 600_000, channels: [{ ...flow('NC_PSG'), t0: start + 86_400_000 }] } });
    const codes = await server.db.query<{ recording_id: number; code: string; missing_codes: number[] }>(
      'select recording_id, code, missing_codes from recording_channels where recording_id = any($1::int[]) order by recording_id, id',
      [[device, edf]],
    );
    expect(codes.map((c) => [c.code, c.missing_codes])).toEqual([['Y_DIST', [-1, -2]], ['SQB', []], ['NC_PSG', []]]);

    const settings: Parameters<typeof nightInput>[2] = { desaturationRule: 3, riiDivisor: 'TBT' };
    const rec = async (id: number) => (await server.db.query<import('../../server/recordings/store').RecordingRow>('select * from recordings where id = $1', [id]))[0];
    const onDevice = await nightInput(server.db, await rec(device), settings);
    expect(Number.isNaN(onDevice.channels.Y_DIST!.values[0])).toBe(true);
    expect(onDevice.channels.Y_DIST!.values[1]).toBeCloseTo(2, 6);
    // The EDF flow's digital -1 is a flow of -0.01: data, not missing.
    const fromEdf = await nightInput(server.db, await rec(edf), settings);
    expect(fromEdf.channels.NC_PSG!.values[0]).toBeCloseTo(-0.01, 6);

    const wire = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${edf}&code=NC_PSG`, { token: physician });
    expect(decodeWire(new Uint8Array(wire.rawPayload)).missingCodes).toEqual([]);
  });
});

describe('EDF+ export of a night no EDF record can hold', () => {
  it('answers 422 naming why, not a 500', async () => {
    const start = START + 40 * 86_400_000;
    const slow: ChannelData = { ...channel('WEIGHT_X', 'float32', 3, 1 / 7200, () => 70), t0: start };
    const id = await saveNight(server.db, { patientId, deviceId: null, source: 'edf', createdBy: null, night: { ...night([slow]), startMs: start, stopMs: start + 6 * 3_600_000 } });
    const res = await server.call('GET', `/analytics/patient/export-edf?patient_id=${patientId}&recording_id=${id}`, { token: physician });
    expect(res.statusCode).toBe(422);
    expect(res.json().message).toBe('This night cannot be written as EDF+/BDF+: sample rate 0.0001388888888888889 Hz gives no whole number of samples in any record up to 3600 s');
  });
});

