import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db/adapter';
import { nightKey } from '../recordings/night-key';
import { compactChannel, listChannels } from '../recordings/store';
import { FrameError, storedBytes, type ValidFrame } from './frames';
import type { FrameLayout, StoredFrame } from './batch-store';
import { LIVE_CHANNELS, type LiveChannelCode } from '../../contract/live-protocol';
import type { AuthenticDevice } from './keys';

/** A channel of the live recording as ingest needs it. */
interface SessionChannel {
  id: number;
  code: string;
  rate: number;
  t0Ms: number;
}

/** A device's open live recording. */
export interface LiveSession {
  device: AuthenticDevice;
  recordingId: number;
  patientId: number;
  startMs: number;
  channels: Map<string, SessionChannel>;
  lastSeq: number;
}

/**
 * A frame of a session whose recording was closed after it opened (compacted when the device
 * seemed offline, or another session took over): nothing stored, no ack; the connection is
 * closed so the device says hello again and resends it into its reopened recording.
 */
export class SessionClosed extends Error {
  constructor(readonly seq: number) {
    super(`the live recording of this session was closed; reconnect and resend from seq ${seq}`);
  }
}

/** What became of a frame of a batch that was not committed. */
export type Refusal = FrameError | SessionClosed;

/**
 * The device's hello names a session it ended itself (its "end" was committed, the "ended"
 * reply lost with the connection): it is told again that the session is over, and no new
 * recording is made of it.
 */
export class SessionAlreadyEnded extends Error {
  constructor(readonly recordingId: number) {
    super(`the session of recording ${recordingId} has ended`);
  }
}

/** A refusal at connect (no patient to record for). */
export class SessionError extends Error {
  constructor(
    readonly code: 'not_deployed',
    message: string,
  ) {
    super(message);
  }
}

async function deployment(tx: Queryable, deviceMasterId: number, atMs: number): Promise<{ patient_id: number; timezone: string } | null> {
  const [row] = await tx.query<{ patient_id: number; timezone: string }>(
    `select patient_id, timezone from device_allocations where device_master_id = $1 and status = 'booked'
     and allocation_ms <= $2 and deallocation_ms > $2 order by allocation_ms desc limit 1`,
    [deviceMasterId, atMs],
  );
  return row ?? null;
}

async function createRecording(tx: Queryable, device: AuthenticDevice, startMs: number, nowMs: number): Promise<{ id: number; patientId: number }> {
  const deployed = (await deployment(tx, device.deviceMasterId, startMs)) ?? (await deployment(tx, device.deviceMasterId, nowMs));
  if (!deployed) throw new SessionError('not_deployed', `Device ${device.deviceId} is not deployed to a patient now; deploy it before it streams.`);
  const [rec] = await tx.query<{ id: number }>(
    `insert into recordings (patient_id, device_id, timezone, start_ms, stop_ms, night_key, source, recording_meta)
     values ($1, $2, $3, $4, $4, $5, 'device', $6) returning id`,
    [deployed.patient_id, device.deviceId, deployed.timezone, startMs, nightKey(startMs, deployed.timezone), JSON.stringify({ timezone: deployed.timezone, live: true, device: device.deviceId })],
  );
  return { id: rec.id, patientId: deployed.patient_id };
}

/** The session's channels, created where missing: one statement whatever their number (a hello storm of 1,000 devices). */
async function ensureChannels(tx: Queryable, recordingId: number, codes: readonly LiveChannelCode[], t0Ms: number): Promise<Map<string, SessionChannel>> {
  const specs = codes.map((code) => {
    const spec = LIVE_CHANNELS[code];
    return { code, unit: spec.unit, rate: spec.rate, storage: spec.storage, scale: spec.scale, missing: spec.missing ? [-1, -2] : [] };
  });
  // The outer select reads the snapshot before the insert: existing channels from it, new ones from ins.
  const rows = await tx.query<{ id: number; code: string; sample_rate: number; t0_ms: number }>(
    `with ins as (
       insert into recording_channels (recording_id, code, label, unit, sample_rate, t0_ms, storage, scale, offset_value, sample_count, missing_codes)
       select $1, t.code, t.code, t.unit, t.rate, $2, t.storage, t.scale, 0, 0, t.missing
       from jsonb_to_recordset($3::jsonb) as t(code text, unit text, rate double precision, storage text, scale double precision, missing jsonb)
       on conflict (recording_id, code) do nothing
       returning id, code, sample_rate, t0_ms)
     select id, code, sample_rate, t0_ms from ins
     union all select id, code, sample_rate, t0_ms from recording_channels where recording_id = $1`,
    [recordingId, t0Ms, JSON.stringify(specs)],
  );
  return new Map(rows.map((r) => [r.code, { id: r.id, code: r.code, rate: r.sample_rate, t0Ms: Number(r.t0_ms) }]));
}

/**
 * Opens (or resumes) the device's live recording for a session that began at startMs: the
 * same session after a reconnect continues its recording; a new one starts a new night for
 * the patient the device is deployed to. Returns the session with the last committed seq.
 */
export async function openSession(db: Db, device: AuthenticDevice, startMs: number, codes: readonly LiveChannelCode[], nowMs = Date.now()): Promise<LiveSession> {
  return db.transaction(async (tx) => {
    // Created if new and locked (on conflict do update locks the row) in one statement.
    const [live] = await tx.query<{ last_seq: number; recording_id: number | null; session_start_ms: number | null; session_ended: boolean }>(
      `insert into device_live (device_master_id) values ($1) on conflict (device_master_id) do update set device_master_id = excluded.device_master_id
       returning last_seq, recording_id, session_start_ms, session_ended`,
      [device.deviceMasterId],
    );
    let recordingId = live.recording_id;
    let patientId: number;
    const sameSession = recordingId !== null && Number(live.session_start_ms) === startMs;
    const [rec] = sameSession ? await tx.query<{ patient_id: number; offline: boolean }>(`select patient_id, recording_meta ? 'offline_at' as offline from recordings where id = $1`, [recordingId]) : [];
    // Ended by the device's own "end" (not closed for being offline): the same session cannot record again.
    if (rec && live.session_ended && !rec.offline) throw new SessionAlreadyEnded(recordingId!);
    if (rec && (!live.session_ended || rec.offline)) {
      patientId = rec.patient_id;
      if (live.session_ended) {
        // Compacted when the device went offline; it is back in the same session: live again.
        await tx.query(`update recordings set recording_meta = (recording_meta - 'offline_at') || '{"live": true}'::jsonb where id = $1`, [recordingId]);
        await tx.query('delete from recording_channel_wire where channel_id in (select id from recording_channels where recording_id = $1)', [recordingId]);
        // Its samples grow again: their valid count is made anew when it ends.
        await tx.query('update recording_channels set valid_count = null where recording_id = $1', [recordingId]);
        await tx.query('update device_live set session_ended = false where device_master_id = $1', [device.deviceMasterId]);
      }
    } else {
      const created = await createRecording(tx, device, startMs, nowMs);
      recordingId = created.id;
      patientId = created.patientId;
      await tx.query('update device_live set recording_id = $2, session_start_ms = $3, session_ended = false, last_heard_ms = $4 where device_master_id = $1', [device.deviceMasterId, recordingId, startMs, nowMs]);
    }
    if (recordingId === live.recording_id) await tx.query('update device_live set last_heard_ms = $2 where device_master_id = $1', [device.deviceMasterId, nowMs]);
    const channels = await ensureChannels(tx, recordingId!, codes, startMs);
    return { device, recordingId: recordingId!, patientId, startMs, channels, lastSeq: live.last_seq };
  });
}

/** What a committed frame adds, for fan-out: each channel's first sample index and count. */
export interface CommittedFrame {
  deviceMasterId: number;
  deviceId: string;
  recordingId: number;
  seq: number;
  sentMs: number;
  committedMs: number;
  layout: FrameLayout;
  /** Physical samples per channel, in layout order. */
  values: Float32Array[];
}

export type IngestResult = { duplicate: true; seq: number } | { duplicate: false; frame: CommittedFrame };

const digestOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

/** A frame waiting in a batch: its session, the frame and its digest. */
export interface BatchItem {
  session: LiveSession;
  frame: ValidFrame;
  digest: string;
}

export const frameDigest = (frame: ValidFrame): string => digestOf(frame.bytes);

/**
 * A live batch's transaction: no data-revision notes for its rows (migration 028), and no
 * sequential scans: every statement of it looks rows up by key, but the planner's statistics
 * of recording_channels, whose counts every batch updates, lag the table (dead row versions
 * by the thousand): it scanned the whole table for a batch's hundred rows (4.5 ms of 7.8).
 */
const LIVE_FRAME_SETTINGS = { 'nocturne.live_frames': 'on', enable_seqscan: 'off' } as const;

/** A frame of the batch as the procedure stores it: plain data, its non-empty parts' stored bytes. */
function storedFrame({ session, frame, digest }: BatchItem): StoredFrame {
  const parts = frame.parts
    .filter((p) => p.values.length > 0)
    .map((p) => ({ code: p.code, channelId: session.channels.get(p.code)!.id, n: p.values.length, bytes: storedBytes(p) }));
  return { deviceMasterId: session.device.deviceMasterId, recordingId: session.recordingId, seq: frame.seq, sentMs: frame.sentMs, digest, parts };
}

/**
 * Group commit: stores a batch of valid frames, from any number of devices, in one
 * transaction, and resolves only once it is committed. Each frame's outcome, in batch order:
 * committed (with what viewers need), a duplicate of a frame committed before (or earlier in
 * the batch: idempotent on (device, seq)) that stores nothing, or a FrameError (a gap, a
 * reused seq) that stores nothing. A database failure rejects the whole batch: nothing of it
 * is stored and no frame of it may be acked. The statements run as a procedure where the
 * database runs (batch-store.ts, decision 1009).
 */
export async function commitBatch(db: Db, items: readonly BatchItem[]): Promise<(IngestResult | Refusal)[]> {
  // Frames of live nights: no data-revision notes for their recordings' rows (migration 028).
  const { outcomes, layouts, committedMs } = await db.procedure('storeLiveBatch', items.map(storedFrame), LIVE_FRAME_SETTINGS);
  let k = 0;
  return items.map(({ session, frame }, i) => {
    const o = outcomes[i]!;
    if (o === 'duplicate') return { duplicate: true, seq: frame.seq };
    if (o !== 'new') return o.refused === 'closed' ? new SessionClosed(frame.seq) : new FrameError(o.refused, o.message, frame.seq);
    session.lastSeq = Math.max(session.lastSeq, frame.seq);
    const values = frame.parts.filter((p) => p.values.length > 0).map((p) => p.values);
    return { duplicate: false, frame: { deviceMasterId: session.device.deviceMasterId, deviceId: session.device.deviceId, recordingId: session.recordingId, seq: frame.seq, sentMs: frame.sentMs, committedMs, layout: layouts[k++]!, values } };
  });
}

/** Frames of a live recording kept in live_frames per device (catch-up of resuming viewers reads them). */
const KEEP_LIVE_FRAMES = 600;

/**
 * Deletes live_frames rows no longer needed, adding them to their recording's totals (the
 * validation call counts both): every frame of a recording that is compacted (no longer
 * live), and of a live one those more than KEEP_LIVE_FRAMES before its device's last seq.
 * `recordingId` limits it to one recording. Returns the rows deleted.
 */
export async function pruneFrames(tx: Queryable, recordingId: number | null = null): Promise<number> {
  const [row] = await tx.query<{ n: number }>(
    `with gone as (
       delete from live_frames f using device_live d, recordings r
       where f.device_master_id = d.device_master_id and r.id = f.recording_id and ($2::int is null or f.recording_id = $2)
         and (r.recording_meta->>'live' is distinct from 'true' or f.seq < d.last_seq - $1)
       returning f.recording_id, f.device_master_id, f.seq, f.committed_ms),
     totals as (
       insert into live_frame_totals as t (recording_id, device_master_id, frames, first_seq, last_seq, first_ms, last_ms)
       select recording_id, min(device_master_id), count(*), min(seq), max(seq), min(committed_ms), max(committed_ms) from gone group by recording_id
       on conflict (recording_id) do update set frames = t.frames + excluded.frames, first_seq = least(t.first_seq, excluded.first_seq),
         last_seq = greatest(t.last_seq, excluded.last_seq), first_ms = least(t.first_ms, excluded.first_ms), last_ms = greatest(t.last_ms, excluded.last_ms))
     select count(*)::int as n from gone`,
    [KEEP_LIVE_FRAMES, recordingId],
  );
  return row?.n ?? 0;
}

/** Compacts a live recording's chunks and stores its binary form, so it reads like any other night; prunes its frames. */
async function closeRecording(tx: Queryable, recordingId: number, meta: Record<string, unknown>): Promise<void> {
  for (const channel of await listChannels(tx, [recordingId])) await compactChannel(tx, channel);
  await tx.query('update recordings set recording_meta = recording_meta || $2::jsonb where id = $1', [recordingId, JSON.stringify({ ...meta, live: false })]);
  await pruneFrames(tx, recordingId);
}

/**
 * The device's night is over: its chunks are compacted and its binary form stored, so it
 * reads like any other night; the device's next session starts a new recording.
 */
export async function endSession(db: Db, session: LiveSession): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('select 1 from device_live where device_master_id = $1 for update', [session.device.deviceMasterId]);
    await tx.query('update device_live set session_ended = true where device_master_id = $1 and recording_id = $2', [session.device.deviceMasterId, session.recordingId]);
    await closeRecording(tx, session.recordingId, {});
  });
}

/**
 * Live recordings whose device was not heard from (no frame, no heartbeat, no hello) for
 * OFFLINE_AFTER_MS are closed as if the device had ended them: compacted, frames pruned,
 * marked offline_at. Each is checked again under its device's lock, so two server processes
 * never close one twice. A device back in the same session reopens it (openSession).
 * Returns the recordings closed.
 */
export async function closeOfflineSessions(db: Db, offlineAfterMs: number, nowMs = Date.now()): Promise<number[]> {
  const cutoff = nowMs - offlineAfterMs;
  const stale = await db.query<{ device_master_id: number; recording_id: number }>(
    `select device_master_id, recording_id from device_live
     where not session_ended and recording_id is not null and greatest(coalesce(last_frame_ms, 0), coalesce(last_heard_ms, 0)) < $1`,
    [cutoff],
  );
  const closed: number[] = [];
  for (const s of stale) {
    const done = await db.transaction(async (tx) => {
      const [still] = await tx.query(
        `select 1 from device_live where device_master_id = $1 and recording_id = $2 and not session_ended
         and greatest(coalesce(last_frame_ms, 0), coalesce(last_heard_ms, 0)) < $3 for update skip locked`,
        [s.device_master_id, s.recording_id, cutoff],
      );
      if (!still) return false;
      await tx.query('update device_live set session_ended = true where device_master_id = $1', [s.device_master_id]);
      await closeRecording(tx, s.recording_id, { offline_at: nowMs });
      return true;
    });
    if (done) closed.push(s.recording_id);
  }
  return closed;
}

/** A connected device that streams nothing (live streaming off) is still there. */
export async function heardFrom(db: Queryable, deviceMasterId: number, nowMs = Date.now()): Promise<void> {
  await db.query('update device_live set last_heard_ms = greatest(coalesce(last_heard_ms, 0), $2) where device_master_id = $1', [deviceMasterId, nowMs]);
}
