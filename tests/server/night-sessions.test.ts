import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS, finishedReport, signIn, startTestServer, type TestServer } from './helpers';
import { uploadFiles } from './multipart';
import { HMC, PSG, REAL_DIR, patchFixed, real } from '../unit/edf-build';
import { decodeWire } from '../../engine/wire';
import { decodeViews } from '../../engine/viewWire';
import { NEW_PATIENT_VITALS } from '../../server/seed';
import { importFiles } from '../../server/recordings/import';
import { nightDate } from '../../server/recordings/night-key';
import { ApiError } from '../../server/errors';
import { readEdf } from '../../server/recordings/edf/reader';

/** The shared four-session ResMed night (22:36, 23:26, 01:48, 02:30): 20 files, as its DATALOG folder holds them. */
const FOUR = readdirSync(REAL_DIR).filter((n) => /^snore_resmed_2025091[01]_/.test(n)).sort();
const SESSION_1 = FOUR.filter((n) => n.startsWith('snore_resmed_20250910_2236'));

let server: TestServer;
let physician = '';
const patients: Record<string, number> = {};

beforeAll(async () => {
  // A limit above the 20 files of this night, below the 21 of the refusal below.
  server = await startTestServer({ UPLOAD_MAX_FILES: '20' });
  physician = (await signIn(server, DEMO_ACCOUNTS.physician)).token;
  for (const r of await server.db.query<{ id: number; patient_code: string }>(`select id, patient_code from patients`)) patients[r.patient_code] = r.id;
});
afterAll(() => server.close());

const upload = (patientId: number, names: readonly string[], bytes: (name: string) => Uint8Array = real, timezone = 'Europe/Zurich') =>
  uploadFiles(server, physician, { patient_id: String(patientId), timezone }, names.map((name) => ({ name, bytes: bytes(name) })));

/** A new patient of the physician's, with no night yet: its id. */
async function newPatient(code: string): Promise<number> {
  const res = await server.call('POST', '/physician/new-patient', {
    token: physician,
    body: { patient_code: code, first_name: 'New', last_name: 'Patient', gender: 'F', date_of_birth: '1966', height: '165', weight: '70', diseaseIds: '2', vital_parameters: JSON.stringify(NEW_PATIENT_VITALS), country: 'Switzerland' },
  });
  expect(res.statusCode).toBe(201);
  return res.json().data.patient_id as number;
}

/** What a physician sees of the patient's only night: channels, sessions, monitoring time, REI. */
async function nightFigures(patientId: number) {
  const nights = (await server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token: physician })).json().data.nights;
  expect(nights).toHaveLength(1);
  const [n] = nights;
  const summary = (await server.call('POST', '/analytics/patient/all-kpi-summary', { token: physician, body: { patient_id: patientId, night: n.night } })).json().data;
  return {
    night: n.night,
    span: [n.recording_start_time, n.recording_stop_time],
    // Each channel as stored, not which row holds it (its version names the row).
    channels: n.channels.map(({ version: _, ...c }: { version: string }) => c),
    sessions: n.sessions,
    monitoring: summary.monitoring_time,
    ahi: summary.ahi,
    apneas: summary.apneas,
    hypopneas: summary.hypopneas,
  };
}

/** A seeded shuffle. */
function shuffled<T>(list: readonly T[], seed: number): T[] {
  const out = [...list];
  let s = seed;
  for (let i = out.length - 1; i > 0; i--) {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    const j = s % (i + 1);
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

describe('a night of four mask sessions, uploaded as its folder', () => {
  let reference: Awaited<ReturnType<typeof nightFigures>>;

  it('20 files in one upload: one night, four sessions, one channel per signal, monitoring time = the sessions\' flow time; identical EVE/CSL files kept once', async () => {
    const res = await upload(patients.NCT1002, FOUR);
    expect(res.statusCode).toBe(201);
    const data = res.json().data;
    // Each event-free session wrote byte-identical EVE and CSL files: one of each pair is kept, the other listed.
    expect(data.skipped_files).toHaveLength(4);
    for (const s of data.skipped_files) expect(s).toMatchObject({ reason: 'same_in_upload', name: expect.stringMatching(/_EVE\.edf$/), same_as: s.name.replace('_EVE', '_CSL') });
    expect(data.files).toHaveLength(16);
    reference = await nightFigures(patients.NCT1002);
    expect(reference.sessions).toHaveLength(4);
    // BRP, PLD, SA2, CSL of each session (its EVE, the same bytes as its CSL, is not stored twice).
    expect(reference.sessions.map((s: { files: string[] }) => s.files.length)).toEqual([4, 4, 4, 4]);
    const codes = reference.channels.map((c: { code: string }) => c.code);
    expect(codes.filter((c: string) => c.includes('#') || c === 'Flow.40ms')).toEqual([]);
    expect(reference.monitoring).toBeGreaterThan(5.2);
    expect(reference.monitoring).toBeLessThan(5.6);
    const sessionHours = reference.sessions.reduce((h: number, s: { duration_ms: number }) => h + s.duration_ms, 0) / 3_600_000;
    expect(Math.abs(sessionHours - reference.monitoring)).toBeLessThan(0.05);
    // The index is per hour of every session's flow.
    expect(reference.ahi).toBeCloseTo((reference.apneas + reference.hypopneas) / reference.monitoring, 1);
  });

  it("the breathing rate is every session's rate, not the 0 a ResMed writes before its first breaths (decision 1043); the file's zeros are stored as it holds them", async () => {
    // What the PLD files hold: RespRate 0 for the first seconds of each session only.
    const rates = FOUR.filter((n) => n.endsWith('_PLD.edf')).map((n) => {
      const s = readEdf(real(n), n).signals.find((x) => x.label === 'RespRate.2s')!;
      return Array.from(s.digital, (d) => d * s.scale + s.offset);
    });
    const zeros = rates.map((r) => r.filter((v) => v === 0).length);
    for (const [i, r] of rates.entries()) {
      expect(zeros[i]).toBeGreaterThan(0);
      expect(r.slice(0, zeros[i]).every((v) => v === 0)).toBe(true);
    }
    const positive = rates.flat().filter((v) => v > 0);
    const summary = (await server.call('POST', '/analytics/patient/all-kpi-summary', { token: physician, body: { patient_id: patients.NCT1002, night: reference.night } })).json().data;
    const br = summary.percentiles.BR;
    expect(br.count).toBe(positive.length);
    expect(br.min).toBeCloseTo(Math.min(...positive), 2);
    expect(br.min).toBeGreaterThan(0);
    expect(br.max).toBeCloseTo(Math.max(...positive), 2);
    // The night list counts the rates as valid samples; the channel's bytes keep every zero.
    const brRow = reference.channels.find((c: { code: string }) => c.code === 'BR');
    expect(brRow.valid).toBe(positive.length);
    const [night] = (await server.call('GET', `/patient/available-nights?patient_id=${patients.NCT1002}`, { token: physician })).json().data.nights;
    const wire = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patients.NCT1002}&recording_id=${night.recording_id}&code=BR`, { token: physician });
    expect(wire.statusCode).toBe(200);
    const stored = decodeWire(new Uint8Array(wire.rawPayload));
    const physical = Array.from(stored.samples, (d) => d * stored.scale + stored.offset).filter((v) => !Number.isNaN(v));
    expect(physical.filter((v) => v === 0)).toHaveLength(zeros.reduce((a, b) => a + b, 0));
  });

  it("the trend and the dashboard give the merged night's figures: every session's events over every session's hours", async () => {
    const night = Number(reference.night);
    const trend = (await server.call('GET', `/analytics/patient-trendview/type=AHI?patient_id=${patients.NCT1002}&device_start_time=${night - 86_400}&device_stop_time=${night + 2 * 86_400}`, { token: physician })).json().data;
    expect(trend.AHI).toHaveLength(1);
    expect(trend.AHI[0].value).toBe(reference.ahi);
    let remaining = 1;
    for (let i = 0; i < 40 && remaining > 0; i++) remaining = (await server.call('POST', '/physician/triage/prepare', { token: physician, body: {} })).json().data.remaining;
    const row = (await server.call('GET', '/physician/triage', { token: physician })).json().data.patients.find((p: { patient_id: number }) => p.patient_id === patients.NCT1002);
    expect(row.last).toMatchObject({ ahi: reference.ahi });
    // Not the first session's alone: its 0.8 h of flow cannot carry the night's events per hour.
    expect(reference.monitoring).toBeGreaterThan(5.2);
  }, 120_000);

  it('the night report lists the four sessions with their times and files', async () => {
    const night = (await server.call('GET', `/patient/available-nights?patient_id=${patients.NCT1002}`, { token: physician })).json().data.nights.at(-1).night;
    const res = await server.call('POST', '/reports', { token: physician, body: { patient_id: patients.NCT1002, order_id: 'NCT1002', language: 'en', version: 1, report_type: 'en-pyn', dates: [{ numDate: night, checked: true }] } });
    expect(res.statusCode).toBe(202);
    const job = await finishedReport(server, res.json().data.id, physician);
    expect(job.status, job.error).toBe('done');
    const dir = mkdtempSync(path.join(tmpdir(), 'nocturne-sessions-'));
    try {
      const file = path.join(dir, 'night.pdf');
      writeFileSync(file, (await server.call('GET', `/reports/${job.id}/file`, { token: physician })).rawPayload);
      const text = execFileSync('/usr/bin/pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
      expect(text).toMatch(/Sessions: 4 \(5:2\d:\d\d in all\)/);
      // No Nocturne device recorded it: the line says so instead of a bare dash.
      expect(text).toContain('Device: – (no Nocturne device: imported from 16 files)');
      for (const start of ['22:36', '23:26', '01:49', '02:30']) expect(text).toContain(start);
      expect(text).toContain('snore_resmed_20250911_023029_BRP.edf');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('any file order gives the same night and the same figures', async () => {
    for (const [code, order] of [['NCT1003', [...FOUR].reverse()], ['NCT1004', shuffled(FOUR, 7)]] as const) {
      expect((await upload(patients[code], order)).statusCode).toBe(201);
      expect(await nightFigures(patients[code])).toEqual(reference);
    }
  });

  it('session 1 today and sessions 2–4 tomorrow make the same night as one upload', async () => {
    const id = patients.NCT1005;
    expect((await upload(id, SESSION_1)).statusCode).toBe(201);
    const flow = async () => {
      const [night] = (await server.call('GET', `/patient/available-nights?patient_id=${id}`, { token: physician })).json().data.nights;
      return { recording: night.recording_id as number, channel: night.channels.find((c: { code: string }) => c.code === 'NC_PSG') as { count: number; version: string } };
    };
    const bytes = (recording: number, v?: string) =>
      server.call('GET', `/analytics/patient/channel-data?patient_id=${id}&recording_id=${recording}&code=NC_PSG${v === undefined ? '' : `&v=${v}`}`, { token: physician });
    const before = await flow();
    const first = await bytes(before.recording, before.channel.version);
    // Kept by the browser for a day under the version it is; without one, never.
    expect(first.headers['x-channel-version']).toBe(before.channel.version);
    expect(first.headers['cache-control']).toBe('private, max-age=86400');
    expect((await bytes(before.recording)).headers['cache-control']).toBe('no-cache');
    const rest = await upload(id, FOUR.filter((n) => !SESSION_1.includes(n)));
    expect(rest.statusCode).toBe(201);
    expect(rest.json().data.merged).toBe(true);
    expect(await nightFigures(id)).toEqual(reference);
    // The joined channel is another version (decision 1019): asked for with the old one (a list
    // read before the upload), it answers the joined samples, says their version, and is not kept.
    const after = await flow();
    expect(after.recording).toBe(before.recording);
    expect(after.channel.count).toBeGreaterThan(before.channel.count);
    expect(after.channel.version).not.toBe(before.channel.version);
    const stale = await bytes(after.recording, before.channel.version);
    expect(stale.headers['x-channel-version']).toBe(after.channel.version);
    expect(stale.headers['cache-control']).toBe('no-cache');
    expect(decodeWire(new Uint8Array(stale.rawPayload)).samples.length).toBe(after.channel.count);
    expect((await bytes(after.recording, after.channel.version)).headers['cache-control']).toBe('private, max-age=86400');
  });

  // Each session on its own nearest sample of the night, never rounded twice (decision 1026).
  it.each([
    ['1–2', '3–4', 'HALVES1', /_20250910_/],
    ['3–4', '1–2', 'HALVES2', /_20250911_/],
  ])('sessions %s one day and %s the next: the same night as one upload', async (_first, _then, code, day) => {
    const id = await newPatient(code);
    const first = FOUR.filter((n) => day.test(n));
    expect((await upload(id, first)).statusCode).toBe(201);
    const rest = await upload(id, FOUR.filter((n) => !first.includes(n)));
    expect(rest.statusCode).toBe(201);
    expect(rest.json().data.merged).toBe(true);
    expect(await nightFigures(id)).toEqual(reference);
  });

  it("sessions 2–4 picked in another time zone than session 1's night are refused naming both zones, nothing stored; in a zone of the same offset they join", async () => {
    const id = await newPatient('ZONES1');
    expect((await upload(id, SESSION_1)).statusCode).toBe(201);
    const before = await nightFigures(id);
    const rest = FOUR.filter((n) => !SESSION_1.includes(n));
    // London is an hour behind Zurich in September: the sessions' local clock times would land an hour late.
    const refused = await upload(id, rest, real, 'Europe/London');
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({ code: 'timezone_mismatch', data: { params: { night: '2025-09-10', zone: 'Europe/Zurich', picked: 'Europe/London' } } });
    expect(refused.json().message).toContain('Pick Europe/Zurich');
    expect(await nightFigures(id)).toEqual(before);
    expect(await server.db.query('select 1 from import_stages')).toHaveLength(0);
    // Berlin keeps Zurich's offset: the same times, the night of all four sessions.
    const joined = await upload(id, rest, real, 'Europe/Berlin');
    expect(joined.statusCode).toBe(201);
    expect(joined.json().data.merged).toBe(true);
    expect(await nightFigures(id)).toEqual(reference);
  });

  it("sessions 1 and 4 one day, 2 and 3 (inside their span) the next: the same night as one upload; the overviews of its unchanged window kept only under the channels' new versions", async () => {
    const id = await newPatient('GAPS1');
    const outer = FOUR.filter((n) => /_20250910_2236|_20250911_0230/.test(n));
    expect((await upload(id, outer)).statusCode).toBe(201);
    const night = async () => (await server.call('GET', `/patient/available-nights?patient_id=${id}`, { token: physician })).json().data.nights[0];
    const codes = ['NC_PSG', 'Press.2s'];
    const overview = (n: { recording_id: number; recording_start_time: number; recording_stop_time: number }, versions: readonly string[]) =>
      server.call(
        'GET',
        `/analytics/patient/channel-overview?patient_id=${id}&recording_id=${n.recording_id}${codes.map((c) => `&code=${c}`).join('')}${versions.map((v) => `&v=${v}`).join('')}&t0=${n.recording_start_time}&t1=${n.recording_stop_time}&pixels=600`,
        { token: physician },
      );
    const versionsOf = (n: { channels: { code: string; version: string }[] }) => codes.map((c) => n.channels.find((ch) => ch.code === c)!.version);
    const before = await night();
    const first = await overview(before, versionsOf(before));
    expect(first.statusCode).toBe(200);
    // Kept for a day under the versions asked; without them, or with one of them only, never.
    expect(first.headers['cache-control']).toBe('private, max-age=86400');
    expect(first.headers['x-channel-versions']).toBe(versionsOf(before).join(','));
    expect((await overview(before, [])).headers['cache-control']).toBe('no-cache');
    expect((await overview(before, versionsOf(before).slice(0, 1))).headers['cache-control']).toBe('no-cache');
    const inner = await upload(id, FOUR.filter((n) => !outer.includes(n)));
    expect(inner.statusCode).toBe(201);
    expect(inner.json().data.merged).toBe(true);
    // Each signal's sessions 2 and 3 fill its gap between 1 and 4: no second flow channel.
    expect(await nightFigures(id)).toEqual(reference);
    const after = await night();
    // The same window (its URL unchanged but for the versions), other samples within it.
    expect([after.recording_id, after.recording_start_time, after.recording_stop_time]).toEqual([before.recording_id, before.recording_start_time, before.recording_stop_time]);
    expect(versionsOf(after)).not.toEqual(versionsOf(before));
    const stale = await overview(after, versionsOf(before));
    expect(stale.headers['cache-control']).toBe('no-cache');
    expect(stale.headers['x-channel-versions']).toBe(versionsOf(after).join(','));
    const covered = (bytes: Buffer) => decodeViews(new Uint8Array(bytes)).map(({ view }) => Array.from(view.max).filter((v) => !Number.isNaN(v)).length);
    // The gap between the outer sessions now holds the inner ones: more columns with samples.
    for (const [i, n] of covered(stale.rawPayload).entries()) expect(n, codes[i]).toBeGreaterThan(covered(first.rawPayload)[i]!);
    expect((await overview(after, versionsOf(after))).headers['cache-control']).toBe('private, max-age=86400');
  });

  it('more files than the limit are refused with their count, never "reach files limit"', async () => {
    const res = await upload(patients.NCT1001, [...FOUR, PSG]);
    expect(res.statusCode).toBe(413);
    expect(res.json()).toMatchObject({ code: 'too_many_files' });
    expect(res.json().message).toMatch(/at most 20 files/);
  });
});

describe("a card's DATALOG folder of several nights, in one upload (decision 1021)", () => {
  const CARD = readdirSync(REAL_DIR).filter((n) => /^snore_resmed_(20250110|20251025)_/.test(n)).sort();
  const nightsOf = async (id: number) => (await server.call('GET', `/patient/available-nights?patient_id=${id}`, { token: physician })).json().data.nights as { night: number; channels: { code: string }[]; sessions: unknown[] }[];

  it('imports each night as its own, as uploads of each would, and answers every one', async () => {
    const id = await newPatient('CARD1');
    const res = await upload(id, CARD);
    expect(res.statusCode).toBe(201);
    const answer = res.json();
    expect(answer.message).toMatch(/^Imported \d+ files as 2 nights/);
    expect(answer.data.other_nights).toHaveLength(1);
    const [first, second] = [answer.data, answer.data.other_nights[0]];
    expect(first.night).toBeLessThan(second.night);
    expect(first.files.map((f: { name: string }) => f.name).every((n: string) => n.includes('_20250110_'))).toBe(true);
    expect(second.files.map((f: { name: string }) => f.name).every((n: string) => n.includes('_20251025_'))).toBe(true);
    const nights = await nightsOf(id);
    expect(nights.map((n) => n.night)).toEqual([first.night, second.night]);
    // The same nights as two uploads of one night each.
    const apart = await newPatient('CARD2');
    for (const day of ['20250110', '20251025']) expect((await upload(apart, CARD.filter((n) => n.includes(`_${day}_`)))).statusCode).toBe(201);
    const strip = (list: Awaited<ReturnType<typeof nightsOf>>) => list.map(({ night, channels, sessions }) => ({ night, sessions, channels: channels.map(({ version: _, ...c }: { code: string; version?: string }) => c) }));
    expect(strip(nights)).toEqual(strip(await nightsOf(apart)));
  });

  it("a night of event files alone, with no night to join, refuses the upload before any night is stored", async () => {
    const id = await newPatient('CARD3');
    const eventsAlone = readdirSync(REAL_DIR).filter((n) => /^snore_resmed_20250808_.*_EVE\.edf$/.test(n));
    const res = await upload(id, [...CARD.filter((n) => n.includes('_20251025_')), ...eventsAlone]);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('no_night_for_events');
    expect(await nightsOf(id)).toEqual([]);
  });

  it('a later night that cannot join the stored night it falls on refuses the upload before the earlier night is stored', async () => {
    const id = await newPatient('CARD4');
    // October's flow file, its header naming a person (EDF+ patient field), is stored first.
    const october = CARD.find((n) => n.includes('_20251025_') && n.endsWith('_BRP.edf'))!;
    const as = (person: string) => (name: string) => (name === october ? patchFixed(real(name), 8, 80, person) : real(name));
    expect((await upload(id, [october], as('P-0001 F 01-JAN-1960 Anna_A'))).statusCode).toBe(201);
    const before = await nightsOf(id);
    // The card again, its October file now naming someone else: January is new, October cannot join.
    const res = await upload(id, CARD, as('P-0002 M 02-FEB-1970 Bruno_B'));
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('files_not_one_night');
    expect(res.json().message).toMatch(/differs .*files of two people are not one night/);
    expect(await nightsOf(id)).toEqual(before);
  });

  it("another upload storing the later night's file while the card is written: the earlier night stays, and the refusal says so, never that nothing was stored (decision 1028)", async () => {
    const id = await newPatient('CARD5');
    const octoberFlow = CARD.find((n) => n.includes('_20251025_') && n.endsWith('_BRP.edf'))!;
    const stages = new Set<number>();
    let raced = false;
    const card = importFiles(server.db, {
      patientId: id,
      deviceId: null,
      createdBy: null,
      timezone: 'Europe/Zurich',
      files: CARD.map((name) => ({ name, bytes: real(name) })),
      onStaged: async ({ stageId }) => {
        stages.add(stageId);
        // October's samples are being staged (the second night's stage): another upload stores its flow file first.
        if (stages.size === 2 && !raced) {
          raced = true;
          expect((await upload(id, [octoberFlow])).statusCode).toBe(201);
        }
      },
    });
    const err = await card.then(() => null, (e: unknown) => e);
    expect(raced).toBe(true);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).code).toBe('import_partly_stored');
    expect((err as ApiError).status).toBe(409);
    expect((err as ApiError).params).toEqual({ stored: '2025-01-09', night: '2025-10-24' });
    expect((err as ApiError).message).toMatch(/^The night of 2025-01-09 was stored; the night of 2025-10-24 was not, .*already imported/);
    expect((err as ApiError).message).not.toMatch(/nothing was stored/i);
    // January from the card, October from the other upload (its flow file alone).
    const nights = await nightsOf(id);
    expect(nights.map((n) => nightDate(n.night))).toEqual(['2025-01-09', '2025-10-24']);
    expect(await server.db.query('select 1 from import_stages')).toHaveLength(0);
  });
});

describe('files that cannot be one night', () => {
  const stored = async () => (await server.db.query<{ n: number }>('select count(*)::int as n from recordings'))[0].n;

  it('Sleep-EDF (1989) and HMC (2001), two people, are refused naming both files; nothing is stored', async () => {
    const before = await stored();
    const res = await upload(patients.NCT1001, [PSG, HMC]);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: 'files_not_one_night', data: { errors: [PSG, HMC] } });
    expect(res.json().message).toContain(PSG);
    expect(res.json().message).toContain(HMC);
    expect(await stored()).toBe(before);
  });

  it('several header-only files (records −1) are refused naming every one', async () => {
    const headerOnly = (name: string) => {
      const bytes = real(name);
      const headerBytes = Number(new TextDecoder().decode(bytes.subarray(184, 192)).trim());
      return patchFixed(bytes.subarray(0, headerBytes), 236, 8, '-1');
    };
    const names = FOUR.filter((n) => n.endsWith('_BRP.edf')).slice(0, 3);
    const res = await upload(patients.NCT1001, names, headerOnly);
    expect(res.statusCode).toBe(400);
    expect(res.json().code).toBe('invalid_recording_file');
    const errors: string[] = res.json().data.errors;
    expect(errors).toHaveLength(3);
    names.forEach((name, i) => expect(errors[i]).toMatch(new RegExp(`^${name.replace(/\./g, '\\.')}: number of data records: `)));
  });
});

describe('channels chosen by content', () => {
  it("a CPAP's all-missing pulse gives up PR to the oximeter imported the next day; the summary names each code's source", async () => {
    const id = patients.NCT1003;
    const brp = 'snore_resmed_20250808_010210_BRP.edf';
    const sa2 = 'snore_resmed_20250808_010210_SA2.edf';
    const first = await uploadFiles(server, physician, { patient_id: String(id), timezone: 'UTC' }, [brp, sa2].map((name) => ({ name, bytes: real(name) })));
    expect(first.statusCode).toBe(201);
    const pr = first.json().data.summary.sources.find((s: { code: string }) => s.code === 'PR');
    expect(pr).toEqual({ code: 'PR', label: 'Pulse.1s', files: [sa2], valid: 0 });
    // An oximeter export of the same night, 1 Hz with a pulse.
    const rows = ['Time,Oxygen Level,Pulse Rate,Motion'];
    for (let s = 0; s < 600; s++) {
      const d = new Date(Date.UTC(2025, 7, 8, 1, 30, s));
      const month = d.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
      rows.push(`${d.toISOString().slice(11, 19)} ${month} ${d.getUTCDate()} ${d.getUTCFullYear()},95,${60 + (s % 5)},0`);
    }
    const oximeter = await uploadFiles(server, physician, { patient_id: String(id), timezone: 'UTC' }, [{ name: 'O2Ring.csv', bytes: new TextEncoder().encode(rows.join('\n')) }]);
    expect(oximeter.statusCode).toBe(201);
    expect(oximeter.json().data.merged).toBe(true);
    const stored = await server.db.query<{ code: string; label: string; valid_count: number }>(
      `select code, label, valid_count from recording_channels where recording_id = $1 and label in ('Pulse.1s', 'Pulse Rate') order by code`,
      [first.json().data.recording_id],
    );
    expect(stored.map((c) => [c.code, c.label, Number(c.valid_count) > 0])).toEqual([
      ['PR', 'Pulse Rate', true],
      ['Pulse.1s', 'Pulse.1s', false],
    ]);
  });
});
