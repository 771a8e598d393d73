// Staged imports (issue 13): an import writes its samples in short transactions into a stage no
// reader sees, and one short final transaction makes the night visible. Other requests are
// answered while an import is in progress (on PGlite too, which has one connection), no reader
// ever sees a half night, and a failed or killed import leaves nothing behind.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importFiles } from '../../server/recordings/import';
import { writeEdfPlus } from '../../server/recordings/edf';
import type { Night } from '../../server/recordings/model';
import { stageChannels, type StageProgress } from '../../server/recordings/staging';
import { SAMPLES_PER_CHUNK, WIRE_PART_BYTES } from '../../server/recordings/store';
import { decodeWire } from '../../server/recordings/wire';
import { prepare } from '../../server/start';
import { DEMO_ACCOUNTS, signIn, startTestServer, type TestServer } from './helpers';

let server: TestServer;
let physician = '';
let patientId = 0;
let physicianId = 0;

const HOURS = 2;
const RATE = 200;
const CODES = ['CH_A', 'CH_B', 'CH_C'];

/** An EDF+ night of three 200 Hz channels for two hours (22 chunks each), starting `day` days after 1 March 2026; `salt` changes its samples. */
function edfNight(day: number, salt = 0): { bytes: Uint8Array; night: Night } {
  const start = Date.UTC(2026, 2, 1 + day, 22, 0);
  const night: Night = {
    startMs: start,
    stopMs: start + HOURS * 3_600_000,
    timezone: 'UTC',
    channels: CODES.map((code, k) => {
      const samples = new Int16Array(HOURS * 3600 * RATE);
      for (let i = 0; i < samples.length; i++) samples[i] = ((i * (k + 3) + day + salt) % 2000) - 1000;
      return { code, label: code, unit: 'uV', sampleRate: RATE, t0: start, storage: 'int16' as const, scale: 1, offset: 0, samples };
    }),
    events: [],
    meta: {},
  };
  return { bytes: writeEdfPlus(night), night };
}

const CHUNKS_PER_CHANNEL = Math.ceil((HOURS * 3600 * RATE) / SAMPLES_PER_CHUNK);

/** Rows of every table an import writes to (channels with a binary form, whatever its parts), and the stages. */
const counts = async () =>
  (
    await server.db.query<Record<string, number>>(
      `select (select count(*) from recordings)::int as recordings, (select count(*) from recording_channels)::int as channels,
              (select count(*) from recording_chunks)::int as chunks, (select count(distinct channel_id) from recording_channel_wire)::int as wire,
              (select count(*) from recording_files)::int as files, (select count(*) from import_stages)::int as stages`,
    )
  )[0];

const nightsSeen = async () => (await server.call('GET', `/patient/available-nights?patient_id=${patientId}`, { token: physician })).json().data.nights as unknown[];

const importNight = (bytes: Uint8Array, name: string, onStaged?: (p: StageProgress) => unknown) =>
  importFiles(server.db, { patientId, deviceId: null, createdBy: physicianId, timezone: 'UTC', files: [{ name, bytes }], onStaged });

beforeAll(async () => {
  server = await startTestServer();
  const signedIn = await signIn(server, DEMO_ACCOUNTS.physician);
  physician = signedIn.token;
  physicianId = signedIn.userId;
  [{ id: patientId }] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1003'`);
});
afterAll(() => server.close());

describe('a staged import', () => {
  it('answers other requests while it writes, and no reader sees the night until it is whole', async () => {
    const { bytes, night } = edfNight(0);
    const before = await counts();
    const nightsBefore = (await nightsSeen()).length;
    const seen: { chunks: number; totalChunks: number; nights: number; staged: number; stagedChunks: number; patientListed: boolean; patientLastNight: unknown; analytics: number }[] = [];
    const result = await importNight(bytes, 'staged.edf', async (p) => {
      if (p.chunks === p.totalChunks) return;
      // The import waits here, between two of its transactions, until these requests are answered:
      // with the night written in one transaction, PGlite (one connection) would never answer them.
      const nights = (await nightsSeen()).length;
      const list = (await server.call('GET', '/physician/patients', { token: physician })).json().data;
      const patient = (Array.isArray(list) ? list : list.patients ?? list.items).find((x: { id?: number; patient_id?: number }) => (x.id ?? x.patient_id) === patientId);
      const analytics = (await server.call('GET', `/analytics/patient/type=CH_A?patient_id=${patientId}&recording_date=2026-03-01`, { token: physician })).statusCode;
      const [staged] = await server.db.query<{ channels: number; chunks: number }>(
        `select count(distinct c.id)::int as channels, count(k.seq)::int as chunks from recording_channels c left join recording_chunks k on k.channel_id = c.id where c.stage_id = $1`,
        [p.stageId],
      );
      seen.push({ chunks: p.chunks, totalChunks: p.totalChunks, nights, staged: staged.channels, stagedChunks: staged.chunks, patientListed: patient !== undefined, patientLastNight: patient?.last_night ?? null, analytics });
    });
    // Requests were answered at several points while the import was still writing …
    expect(seen.length).toBeGreaterThanOrEqual(2);
    expect(seen.every((s) => s.chunks < s.totalChunks && s.totalChunks === CODES.length * CHUNKS_PER_CHANNEL)).toBe(true);
    // … its samples were in the database by then (staged) …
    expect(seen.map((s) => s.stagedChunks)).toEqual(seen.map((s) => s.chunks));
    expect(seen.every((s) => s.staged >= 1)).toBe(true);
    // … and no reader saw any of it: no new night, no last night in the list, no series.
    expect(seen.map((s) => s.nights)).toEqual(seen.map(() => nightsBefore));
    expect(seen.every((s) => s.patientListed && s.patientLastNight === null && s.analytics === 404)).toBe(true);

    // Then the whole night at once, with every sample; no stage left.
    expect(result.merged).toBe(false);
    expect((await nightsSeen()).length).toBe(nightsBefore + 1);
    const after = await counts();
    expect(after).toEqual({
      ...before,
      recordings: before.recordings + 1,
      channels: before.channels + CODES.length,
      chunks: before.chunks + CODES.length * CHUNKS_PER_CHANNEL,
      wire: before.wire + CODES.length,
      files: before.files + 1,
      stages: 0,
    });
    const res = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${result.recordingId}&code=CH_B`, { token: physician });
    expect(res.statusCode).toBe(200);
    const [row] = await server.db.query<{ sample_count: number; stage_id: number | null }>('select sample_count, stage_id from recording_channels where recording_id = $1 and code = $2', [result.recordingId, 'CH_B']);
    expect(row).toEqual({ sample_count: night.channels[1].samples.length, stage_id: null });
  });

  it("keeps a channel's binary form in parts of at most 1 MB, and serves it whole, byte for byte (decision 1008)", async () => {
    // Noise: a form that gzip cannot shrink below several parts (2 h at 200 Hz, 2.9 MB of samples).
    const { night } = edfNight(9);
    let seed = 7;
    for (const c of night.channels) for (let i = 0; i < c.samples.length; i++) c.samples[i] = ((seed = (seed * 1103515245 + 12345) >>> 0) >>> 16) - 32768;
    const result = await importNight(writeEdfPlus(night), 'noise.edf');
    const parts = await server.db.query<{ code: string; id: number; part: number; bytes: number }>(
      `select c.code, c.id, w.part, octet_length(w.gzip)::int as bytes from recording_channel_wire w join recording_channels c on c.id = w.channel_id
       where c.recording_id = $1 order by c.code, w.part`,
      [result.recordingId],
    );
    for (const [k, code] of CODES.entries()) {
      const own = parts.filter((p) => p.code === code);
      expect(own.length, code).toBeGreaterThanOrEqual(3);
      expect(own.map((p) => p.part)).toEqual(own.map((_, i) => i));
      expect(Math.max(...own.map((p) => p.bytes))).toBeLessThanOrEqual(WIRE_PART_BYTES);
      // Read whole off the event loop, and served: every sample as the file holds it.
      const stored = await server.db.readChannelBytes(own[0]!.id, 'wire');
      expect(stored!.byteLength).toBe(own.reduce((n, p) => n + p.bytes, 0));
      const res = await server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${result.recordingId}&code=${code}`, { token: physician });
      expect(res.statusCode).toBe(200);
      const served = decodeWire(new Uint8Array(res.rawPayload));
      expect(served.samples.length).toBe(night.channels[k]!.samples.length);
      expect(Buffer.compare(Buffer.from(served.samples.buffer, served.samples.byteOffset, served.samples.byteLength), Buffer.from(night.channels[k]!.samples.buffer)), code).toBe(0);
    }
  });

  it('a file added to that night later is staged too and joins it whole, under codes of its own', async () => {
    // The same night's signals again, as another file (other samples, another hash): they join the night under their labels#2.
    const { bytes: other } = edfNight(0, 1);
    const before = await counts();
    const result = await importNight(other, 'staged-again.edf');
    expect(result.merged).toBe(true);
    expect(result.night.channels.map((c) => c.code)).toEqual(CODES.map((c) => `${c}#2`));
    expect(await counts()).toEqual({ ...before, channels: before.channels + 3, chunks: before.chunks + 3 * CHUNKS_PER_CHANNEL, wire: before.wire + 3, files: before.files + 1 });
  });

  it('a failure midway leaves no visible rows and no staged rows', async () => {
    const { bytes } = edfNight(3);
    const before = await counts();
    const nightsBefore = (await nightsSeen()).length;
    let calls = 0;
    await expect(
      importNight(bytes, 'fails.edf', () => {
        if (++calls === 2) throw new Error('disk full (simulated)');
      }),
    ).rejects.toThrow('disk full (simulated)');
    expect(calls).toBe(2);
    expect(await counts()).toEqual(before);
    expect((await nightsSeen()).length).toBe(nightsBefore);
    // The same file imports afterwards: nothing of the failed attempt was kept (not even its hash).
    const ok = await importNight(bytes, 'fails.edf');
    expect(ok.merged).toBe(false);
    expect((await counts()).stages).toBe(0);
  });

  it('the same file imported twice at once gives one night; the refused one leaves no staged rows', async () => {
    const { bytes } = edfNight(5);
    const before = await counts();
    const outcomes = await Promise.allSettled([importNight(bytes, 'twice.edf'), importNight(bytes, 'twice.edf')]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(refused.reason).toMatchObject({ status: 409, code: 'duplicate_file' });
    expect(await counts()).toEqual({ ...before, recordings: before.recordings + 1, channels: before.channels + 3, chunks: before.chunks + 3 * CHUNKS_PER_CHANNEL, wire: before.wire + 3, files: before.files + 1 });
  });

  it('a killed import (staged, never made visible) is invisible, and its rows are removed at the next start', async () => {
    const { night } = edfNight(7);
    const before = await counts();
    const nightsBefore = (await nightsSeen()).length;
    // What a server killed before its final transaction leaves: a stage with some of the samples.
    const staged = await stageChannels(server.db, patientId, night.channels, 'edf');
    await server.db.query('delete from recording_chunks where channel_id = $1 and seq >= 10', [staged.channelIds[2]]);
    expect((await counts()).stages).toBe(1);
    expect((await nightsSeen()).length).toBe(nightsBefore);
    // Another server on PostgreSQL may be importing: at start-up only stages untouched for a while
    // are a crash's leftovers. On PGlite the server owns the database: every stage is.
    if (server.db.kind === 'postgres') {
      const fresh = await prepare(server.config, server.db);
      await fresh.app.close();
      expect((await counts()).stages).toBe(1);
      await server.db.query(`update import_stages set touched_at = now() - interval '1 hour' where id = $1`, [staged.stageId]);
    }
    const restarted = await prepare(server.config, server.db);
    await restarted.app.close();
    expect(await counts()).toEqual(before);
    expect((await nightsSeen()).length).toBe(nightsBefore);
  });
});
