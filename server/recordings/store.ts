import type { Db, Queryable } from '../db/adapter';
import { joinChunks, joinWire } from './chunks';
import type { ChannelData, EdfRange, Night, NightEvent, RecordingSource, Segment, StorageType } from './model';
import { missingCodesOf } from './missing';
import { isTimeZone, nightKey } from './night-key';
import { gzipWire } from './wire-gzip';
import { validSampleCount } from '../../engine/valid-count';
import { mapStages, STAGES_CODE } from '../../engine/stages';
import { ownBytes } from '../services/buffers';

/** Samples a chunk row holds: 64 Ki samples, 128 KiB for int16. */
export const SAMPLES_PER_CHUNK = 65_536;

export interface SaveNightInput {
  patientId: number;
  deviceId: string | null;
  source: RecordingSource;
  createdBy: number | null;
  night: Night;
  /** Ground-truth events of a simulated night, kept apart from file annotations. */
  truth?: NightEvent[];
  /** The simulator's full truth (typed events with nadirs, stages, cycles), stored as JSON. */
  truthDetail?: { generator: string; truth: unknown };
}

/** A night that cannot be stored, with what was wrong. */
export class InvalidNightError extends Error {}

/** Throws InvalidNightError when a night cannot be stored as it is. */
export function validateNight(night: Night): void {
  if (!Number.isFinite(night.startMs) || !Number.isFinite(night.stopMs) || night.stopMs < night.startMs) {
    throw new InvalidNightError(`start ${night.startMs} and stop ${night.stopMs} are not a valid time range`);
  }
  if (!isTimeZone(night.timezone)) throw new InvalidNightError(`unknown time zone "${night.timezone}"`);
  const seen = new Set<string>();
  for (const c of night.channels) {
    if (!c.code) throw new InvalidNightError('a channel has no code');
    if (seen.has(c.code)) throw new InvalidNightError(`channel ${c.code} appears twice`);
    seen.add(c.code);
    if (!(c.sampleRate > 0) || !Number.isFinite(c.sampleRate)) throw new InvalidNightError(`channel ${c.code}: sample rate ${c.sampleRate} is not positive`);
    if (!Number.isFinite(c.t0)) throw new InvalidNightError(`channel ${c.code}: t0 is not a time`);
    const expected = c.storage === 'int16' ? Int16Array : Float32Array;
    if (!(c.samples instanceof expected)) throw new InvalidNightError(`channel ${c.code}: samples are not ${c.storage}`);
    if (!Number.isFinite(c.scale) || c.scale === 0 || !Number.isFinite(c.offset)) throw new InvalidNightError(`channel ${c.code}: scale/offset invalid`);
  }
}

function chunkBytes(samples: Int16Array | Float32Array, from: number, to: number): Uint8Array {
  const part = samples.subarray(from, to);
  // A view, not a copy: both drivers copy a view's own bytes as they send it (little-endian on
  // every platform Node and browsers run on).
  return new Uint8Array(part.buffer, part.byteOffset, part.byteLength);
}

/** Where a channel row belongs: a recording (visible), or an import stage (invisible until moved). */
export type ChannelOwner = { recordingId: number } | { stageId: number };

/** Valid samples of a stored channel as its chart reads them (stages mapped first, as the screen and the overviews map them). */
function validCountOf(code: string, samples: Int16Array | Float32Array, scale: number, offset: number, missingCodes: readonly number[]): number {
  let read = samples;
  if (code === STAGES_CODE) {
    read = samples.slice();
    mapStages(read, scale, offset);
  }
  return validSampleCount({ code, samples: read, scale, offset, missingCodes });
}

/** Inserts a channel's row (no samples) for its owner; returns its id. */
export async function insertChannelRow(tx: Queryable, owner: ChannelOwner, c: ChannelData, missingCodes: readonly number[]): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `insert into recording_channels (recording_id, stage_id, code, label, unit, sample_rate, t0_ms, storage, scale, offset_value, sample_count,
       missing_codes, transducer, prefiltering, edf_range, valid_count, segments)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) returning id`,
    [
      'recordingId' in owner ? owner.recordingId : null, 'stageId' in owner ? owner.stageId : null,
      c.code, c.label, c.unit, c.sampleRate, Math.round(c.t0), c.storage, c.scale, c.offset, c.samples.length,
      JSON.stringify(missingCodes), c.transducer ?? '', c.prefiltering ?? '', c.edfRange ? JSON.stringify(c.edfRange) : null,
      validCountOf(c.code, c.samples, c.scale, c.offset, missingCodes),
      c.segments && c.segments.length > 1 ? JSON.stringify(c.segments) : null,
    ],
  );
  return row.id;
}

/** Most bytes of samples one chunk insert sends (a whole channel may be tens of MB). */
const BYTES_PER_INSERT = 4 * 1024 * 1024;

/**
 * Inserts chunks [fromSeq, toSeq) of a channel's samples: up to BYTES_PER_INSERT of them in one
 * statement, the chunks cut from one byte parameter by the database (substring), so a staged
 * import's transaction is one round trip instead of one per chunk (and one pause of the event
 * loop each, needed only while PGlite answered in the same thread: decision 1005).
 */
export async function insertChunks(tx: Queryable, channelId: number, samples: Int16Array | Float32Array, fromSeq: number, toSeq: number): Promise<void> {
  const chunkBytesEach = SAMPLES_PER_CHUNK * samples.BYTES_PER_ELEMENT;
  const perInsert = Math.max(1, Math.floor(BYTES_PER_INSERT / chunkBytesEach));
  for (let seq = fromSeq; seq < toSeq; seq += perInsert) {
    const last = Math.min(toSeq, seq + perInsert);
    const from = seq * SAMPLES_PER_CHUNK;
    const to = Math.min(last * SAMPLES_PER_CHUNK, samples.length);
    await tx.query(
      `insert into recording_chunks (channel_id, seq, data)
       select $1, s, substring($2::bytea from (s - $3) * $4 + 1 for $4) from generate_series($3::int, $5::int - 1) as s`,
      [channelId, chunkBytes(samples, from, to), seq, chunkBytesEach, last],
    );
  }
}

/** Chunks a channel of `count` samples is stored in. */
export const chunkCount = (count: number) => Math.ceil(count / SAMPLES_PER_CHUNK);

/** Most bytes of one row of a channel's binary form (decision 1008). */
export const WIRE_PART_BYTES = 1024 * 1024;

/**
 * Stores a channel's binary form (gzip) in parts of WIRE_PART_BYTES, one statement each, after
 * deleting any form it had when `replace`. Outside a transaction (a staged import), other
 * requests run between the parts: on PGlite, one statement of 10 MB held them 50–200 ms.
 */
export async function writeWire(q: Queryable, channelId: number, gzip: Uint8Array, replace = false): Promise<void> {
  if (replace) await q.query('delete from recording_channel_wire where channel_id = $1', [channelId]);
  let part = 0;
  let at = 0;
  do {
    await q.query('insert into recording_channel_wire (channel_id, part, gzip) values ($1, $2, $3)', [channelId, part++, gzip.subarray(at, at + WIRE_PART_BYTES)]);
    at += WIRE_PART_BYTES;
  } while (at < gzip.byteLength);
}

/** Inserts one channel with its chunks and its binary form; `source` gives its missing codes when the channel says none. */
export async function insertChannel(tx: Queryable, recordingId: number, c: ChannelData, source: RecordingSource): Promise<void> {
  const missingCodes = missingCodesOf(c, source);
  const id = await insertChannelRow(tx, { recordingId }, c, missingCodes);
  await insertChunks(tx, id, c.samples, 0, chunkCount(c.samples.length));
  await writeWire(tx, id, await gzipWire({ ...c, missingCodes }));
}

/**
 * Rewrites a channel's chunks as SAMPLES_PER_CHUNK pieces and stores its binary form: a live
 * night, stored frame by frame while it records, reads like any other once it has ended.
 */
export async function compactChannel(tx: Queryable, channel: ChannelRow): Promise<void> {
  const samples = await loadSamples(tx, channel);
  await tx.query('delete from recording_chunks where channel_id = $1', [channel.id]);
  await insertChunks(tx, channel.id, samples, 0, chunkCount(samples.length));
  const wire = await gzipWire({ t0: channel.t0_ms, sampleRate: channel.sample_rate, scale: channel.scale, offset: channel.offset_value, storage: channel.storage, missingCodes: channel.missing_codes, samples });
  await tx.query('update recording_channels set valid_count = $2 where id = $1', [channel.id, validCountOf(channel.code, samples, channel.scale, channel.offset_value, channel.missing_codes)]);
  await writeWire(tx, channel.id, wire, true);
}

/** True while a device is still streaming into the recording: its samples grow, so nothing of it may be cached. */
export function isLiveRecording(recording: Pick<RecordingRow, 'source' | 'recording_meta'>): boolean {
  return recording.source === 'device' && recording.recording_meta?.live === true;
}

/** The channel's stored binary form, gzipped, or null for a night stored before it existed. */
export async function loadWireGzip(db: Queryable, channelId: number): Promise<Uint8Array | null> {
  if ('readChannelBytes' in db) return (db as Db).readChannelBytes(channelId, 'wire');
  const rows = await db.query<{ gzip: Uint8Array }>('select gzip from recording_channel_wire where channel_id = $1 order by part', [channelId]);
  return joinWire(rows.map((r) => r.gzip));
}

/** Inserts a recording's file annotations (as written) or a simulator's truth. */
export async function insertEvents(tx: Queryable, recordingId: number, events: NightEvent[], source: 'file' | 'truth'): Promise<void> {
  const BATCH = 500;
  for (let i = 0; i < events.length; i += BATCH) {
    const part = events.slice(i, i + BATCH);
    const params: unknown[] = [];
    const rows = part.map((e, j) => {
      params.push(recordingId, Math.round(e.onsetMs), Math.max(0, Math.round(e.durationMs)), e.text, source);
      const b = j * 5;
      return `($${b + 1}, $${b + 2}, $${b + 3}, $${b + 4}, $${b + 5})`;
    });
    await tx.query(`insert into recording_events (recording_id, onset_ms, duration_ms, text, source) values ${rows.join(', ')}`, params);
  }
}

/**
 * Stores a whole night in one transaction: either all of it is kept or nothing. Returns its id.
 * `alsoInTx` runs in the same transaction once the recording exists (an import keeps its files
 * and device events there, so a failure leaves nothing behind).
 */
export async function saveNight(db: Db, input: SaveNightInput, alsoInTx?: (tx: Queryable, recordingId: number) => Promise<void>): Promise<number> {
  validateNight(input.night);
  return db.transaction(async (tx) => {
    const id = await insertNight(tx, input);
    if (alsoInTx) await alsoInTx(tx, id);
    return id;
  });
}

/** Stores a whole night in the caller's transaction. Returns its id. */
export async function insertNight(tx: Queryable, input: SaveNightInput): Promise<number> {
  const { night } = input;
  validateNight(night);
  const [rec] = await tx.query<{ id: number }>(
    `insert into recordings (patient_id, device_id, timezone, start_ms, stop_ms, night_key, source, recording_meta, created_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9) returning id`,
    [
      input.patientId,
      input.deviceId,
      night.timezone,
      Math.round(night.startMs),
      Math.round(night.stopMs),
      nightKey(night.startMs, night.timezone),
      input.source,
      JSON.stringify({ timezone: night.timezone, ...night.meta }),
      input.createdBy,
    ],
  );
  for (const c of night.channels) await insertChannel(tx, rec.id, c, input.source);
  await insertEvents(tx, rec.id, night.events, 'file');
  if (input.truth) await insertEvents(tx, rec.id, input.truth, 'truth');
  if (input.truthDetail) {
    await tx.query('insert into recording_truth (recording_id, generator, truth) values ($1, $2, $3)', [
      rec.id,
      input.truthDetail.generator,
      JSON.stringify(input.truthDetail.truth),
    ]);
  }
  return rec.id;
}

export interface RecordingRow {
  id: number;
  patient_id: number;
  device_id: string | null;
  timezone: string;
  start_ms: number;
  stop_ms: number;
  night_key: number;
  source: RecordingSource;
  recording_meta: Record<string, unknown>;
}

export interface ChannelRow {
  id: number;
  recording_id: number;
  code: string;
  label: string;
  unit: string;
  sample_rate: number;
  t0_ms: number;
  storage: StorageType;
  scale: number;
  offset_value: number;
  sample_count: number;
  /** Valid samples (migration 030); null when not counted: read as sample_count. */
  valid_count: number | null;
  /** Stored values meaning "missing" (missing.ts). */
  missing_codes: number[];
  transducer: string;
  prefiltering: string;
  edf_range: EdfRange | null;
  /** The sessions the channel joins (migration 068); null: one session, from t0_ms. */
  segments: Segment[] | null;
}

/** The nights of a patient, oldest first. */
/** SQL: the recording `r` is live (a device session still streaming). */
export const LIVE_SQL = (r: string) => `(${r}.source = 'device' and coalesce((${r}.recording_meta ->> 'live')::boolean, false))`;

/** SQL: how `r` ranks among recordings of its night, best first: ended before live, then longest, then first stored. */
const NIGHT_RANK_SQL = (r: string) => `(${LIVE_SQL(r)}::int, ${r}.start_ms - ${r}.stop_ms, ${r}.id)`;

/**
 * SQL: the recording `r` is "the night" of its patient's night key. Several recordings can
 * share a key (a device streaming while an imported or simulated night exists, two sessions
 * of one device); lists, counts, trends and reports show the night once, as this recording,
 * and the others are reachable from it. The rule: an ended recording before a live one, then
 * the longest, then the first stored.
 */
export const THE_NIGHT_SQL = (r: string) =>
  `not exists (select 1 from recordings o where o.patient_id = ${r}.patient_id and o.night_key = ${r}.night_key and o.id <> ${r}.id and ${NIGHT_RANK_SQL('o')} < ${NIGHT_RANK_SQL(r)})`;

/** A patient's nights, each as the recording that is the night (THE_NIGHT_SQL), in time order. */
export function listRecordings(db: Queryable, patientId: number): Promise<RecordingRow[]> {
  return db.query<RecordingRow>(`select * from recordings r where r.patient_id = $1 and ${THE_NIGHT_SQL('r')} order by r.start_ms`, [patientId]);
}

/**
 * Every recording of a patient in time order, each saying whether it is the night of its key
 * (THE_NIGHT_SQL) or shares the key with the one that is: a night list in one statement.
 */
export function listRecordingsByNight(db: Queryable, patientId: number): Promise<(RecordingRow & { is_night: boolean })[]> {
  return db.query<RecordingRow & { is_night: boolean }>(`select r.*, ${THE_NIGHT_SQL('r')} as is_night from recordings r where r.patient_id = $1 order by r.start_ms`, [patientId]);
}

/**
 * What the night list says of each channel of a patient's recordings, by recording and id. Read
 * after listRecordingsByNight (not beside it): a night stored between the two is listed on the
 * next read, never without its channels.
 */
export function listPatientChannels(db: Queryable, patientId: number) {
  return db.query<Pick<ChannelRow, 'id' | 'recording_id' | 'code' | 'label' | 'unit' | 'sample_rate' | 'sample_count' | 'valid_count'>>(
    `select c.id, c.recording_id, c.code, c.label, c.unit, c.sample_rate, c.sample_count, c.valid_count
       from recording_channels c join recordings r on r.id = c.recording_id
      where r.patient_id = $1 order by c.recording_id, c.id`,
    [patientId],
  );
}

/** One recording of a patient, or null. */
export async function findRecording(db: Queryable, patientId: number, recordingId: number): Promise<RecordingRow | null> {
  const [row] = await db.query<RecordingRow>('select * from recordings where id = $1 and patient_id = $2', [recordingId, patientId]);
  return row ?? null;
}

/** What a night file's link answers besides its channels: the recording's zone, times and whether it is live; null when there is none. */
export async function findNightFileHead(db: Queryable, recordingId: number) {
  const [row] = await db.query<Pick<RecordingRow, 'id' | 'timezone' | 'start_ms' | 'stop_ms' | 'source' | 'recording_meta'>>(
    'select id, timezone, start_ms, stop_ms, source, recording_meta from recordings where id = $1',
    [recordingId],
  );
  return row ?? null;
}

/**
 * What a channel's stored samples are at: its row (a later session joined onto the channel
 * writes a new row; a code taken over by another upload's channel names another row) and
 * its sample count (a live night's grows). The night list gives it, the channel's bytes
 * carry it, and the browser's caches key on it (decision 1019).
 */
export const channelVersion = (c: Pick<ChannelRow, 'id' | 'sample_count'>): string => `${c.id}.${c.sample_count}`;

/** One channel of a recording by code, or null. */
export async function findChannel(db: Queryable, recordingId: number, code: string): Promise<ChannelRow | null> {
  const [row] = await db.query<ChannelRow>('select * from recording_channels where recording_id = $1 and code = $2', [recordingId, code]);
  return row ?? null;
}

export function listChannels(db: Queryable, recordingIds: number[], codes?: readonly string[]): Promise<ChannelRow[]> {
  if (recordingIds.length === 0 || codes?.length === 0) return Promise.resolve([]);
  return codes
    ? db.query<ChannelRow>('select * from recording_channels where recording_id = any($1::int[]) and code = any($2::text[]) order by recording_id, id', [recordingIds, codes])
    : db.query<ChannelRow>('select * from recording_channels where recording_id = any($1::int[]) order by recording_id, id', [recordingIds]);
}

/**
 * A channel's samples, reassembled from its chunks: its first `sample_count` samples, as the
 * row says. A live night's chunks may have grown since the row was read (a batch of frames
 * committed in between adds chunks and count together); those later samples are not part of
 * the state the row belongs to and are left for the next read. Chunks only ever grow at the
 * end (frames in seq order; compaction keeps the bytes in order), so the row's samples are
 * the chunks' first bytes.
 */
export async function loadSamples(db: Queryable, channel: ChannelRow): Promise<Int16Array | Float32Array> {
  const bytesPer = channel.storage === 'int16' ? 2 : 4;
  const expected = channel.sample_count * bytesPer;
  // Outside a transaction, read whole off the event loop (Db.readChannelBytes).
  const out = 'readChannelBytes' in db
    ? ((await (db as Db).readChannelBytes(channel.id, 'samples', expected)) ?? new Uint8Array(0))
    : joinChunks((await db.query<{ data: Uint8Array }>('select data from recording_chunks where channel_id = $1 order by seq', [channel.id])).map((r) => r.data), expected);
  if (out.byteLength !== expected) throw new Error(`channel ${channel.code} of recording ${channel.recording_id}: ${out.byteLength} bytes stored, ${expected} expected`);
  const whole = ownBytes(out);
  return channel.storage === 'int16' ? new Int16Array(whole.buffer) : new Float32Array(whole.buffer);
}

/** A channel's newest samples: [first, first + samples.length) of its indexes, and where they were read. */
export interface ChannelTail {
  first: number;
  samples: Int16Array | Float32Array;
  from: 'frames' | 'channel';
}

/**
 * The channel's last `count` samples as stored (all of them when it holds fewer). A live
 * recording's newest samples are in the frames live_frames still keeps (about two minutes of
 * each device), one chunk a frame at the index its layout gives: they are read in one statement
 * with the channel's count (one snapshot: a batch adds frames and count together), a few KB
 * instead of the night. A tail older than the frames kept, a recording that ended meanwhile
 * (its frames pruned, its chunks compacted) and every other night read the whole channel.
 */
export async function loadTail(db: Queryable, channel: ChannelRow, live: boolean, count: number): Promise<ChannelTail> {
  if (live) {
    const rows = await db.query<{ sample_count: number; at: number; n: number; data: Uint8Array }>(
      `select c.sample_count, (f.layout->c.code->>0)::bigint as at, (f.layout->c.code->>1)::int as n, k.data
       from recording_channels c
       join live_frames f on f.recording_id = c.recording_id and f.layout ? c.code
       join recording_chunks k on k.channel_id = c.id and k.seq = f.seq
       where c.id = $1 and (f.layout->c.code->>0)::bigint + (f.layout->c.code->>1)::int > c.sample_count - $2::int
       order by f.seq`,
      [channel.id, count],
    );
    const tail = rows.length > 0 ? tailOfFrames(rows, channel.storage, count) : null;
    if (tail) return tail;
  }
  const samples = await loadSamples(db, channel);
  const first = Math.max(0, samples.length - count);
  return { first, samples: samples.slice(first), from: 'channel' };
}

/** The tail assembled from frames' chunks, or null where they leave a slot of it uncovered. */
function tailOfFrames(rows: readonly { sample_count: number; at: number; n: number; data: Uint8Array }[], storage: StorageType, count: number): ChannelTail | null {
  const total = Number(rows[0]!.sample_count);
  const first = Math.max(0, total - count);
  const bytesPer = storage === 'int16' ? 2 : 4;
  const bytes = new Uint8Array((total - first) * bytesPer);
  let covered = 0;
  let next = first;
  for (const r of rows) {
    const at = Number(r.at);
    if (at > next || r.data.byteLength !== r.n * bytesPer) return null;
    const from = Math.max(at, first);
    const to = Math.min(at + r.n, total);
    if (to > from) {
      bytes.set(r.data.subarray((from - at) * bytesPer, (to - at) * bytesPer), (from - first) * bytesPer);
      covered += to - from;
      next = Math.max(next, to);
    }
  }
  if (next !== total || covered !== total - first) return null;
  return { first, samples: storage === 'int16' ? new Int16Array(bytes.buffer) : new Float32Array(bytes.buffer), from: 'frames' };
}

/** The events of a recording from files or the simulator's truth. */
export function loadEvents(db: Queryable, recordingId: number, source: 'file' | 'truth'): Promise<NightEvent[]> {
  return db.query<NightEvent>(
    `select onset_ms as "onsetMs", duration_ms as "durationMs", text from recording_events
     where recording_id = $1 and source = $2 order by onset_ms, id`,
    [recordingId, source],
  );
}

/** A channel row with its samples, as the model's ChannelData. */
export async function loadChannelData(db: Queryable, channel: ChannelRow): Promise<ChannelData> {
  return {
    code: channel.code,
    label: channel.label,
    unit: channel.unit,
    sampleRate: channel.sample_rate,
    t0: channel.t0_ms,
    storage: channel.storage,
    scale: channel.scale,
    offset: channel.offset_value,
    samples: await loadSamples(db, channel),
    missingCodes: channel.missing_codes,
    transducer: channel.transducer,
    prefiltering: channel.prefiltering,
    ...(channel.edf_range ? { edfRange: channel.edf_range } : {}),
    ...(channel.segments ? { segments: channel.segments } : {}),
  };
}

/** A whole stored night with its file events (not the simulator's truth). */
export async function loadNight(db: Queryable, recording: RecordingRow): Promise<Night> {
  const channels = await listChannels(db, [recording.id]);
  return {
    startMs: recording.start_ms,
    stopMs: recording.stop_ms,
    timezone: recording.timezone,
    channels: await Promise.all(channels.map((c) => loadChannelData(db, c))),
    events: await loadEvents(db, recording.id, 'file'),
    meta: recording.recording_meta,
  };
}
