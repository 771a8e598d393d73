import { createHash } from 'node:crypto';
import type { Db, Queryable } from '../db/adapter';
import { nightKey } from '../recordings/night-key';
import { compactChannel, listChannels } from '../recordings/store';
import { FrameError, storedBytes, type ValidFrame } from './frames';
import { LIVE_CHANNELS, type LiveChannelCode } from './protocol';
import type { AuthenticDevice } from './keys';

/** A channel of the live recording as ingest needs it. */
export interface SessionChannel {
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

async function ensureChannels(tx: Queryable, recordingId: number, codes: readonly LiveChannelCode[], t0Ms: number): Promise<Map<string, SessionChannel>> {
  for (const code of codes) {
    const spec = LIVE_CHANNELS[code];
    await tx.query(
      `insert into recording_channels (recording_id, code, label, unit, sample_rate, t0_ms, storage, scale, offset_value, sample_count, missing_codes)
       values ($1, $2, $2, $3, $4, $5, $6, $7, 0, 0, $8) on conflict (recording_id, code) do nothing`,
      [recordingId, code, spec.unit, spec.rate, t0Ms, spec.storage, spec.scale, JSON.stringify(spec.missing ? [-1, -2] : [])],
    );
  }
  const rows = await tx.query<{ id: number; code: string; sample_rate: number; t0_ms: number }>('select id, code, sample_rate, t0_ms from recording_channels where recording_id = $1', [recordingId]);
  return new Map(rows.map((r) => [r.code, { id: r.id, code: r.code, rate: r.sample_rate, t0Ms: r.t0_ms }]));
}

/**
 * Opens (or resumes) the device's live recording for a session that began at startMs: the
 * same session after a reconnect continues its recording; a new one starts a new night for
 * the patient the device is deployed to. Returns the session with the last committed seq.
 */
export async function openSession(db: Db, device: AuthenticDevice, startMs: number, codes: readonly LiveChannelCode[], nowMs = Date.now()): Promise<LiveSession> {
  return db.transaction(async (tx) => {
    await tx.query('insert into device_live (device_master_id) values ($1) on conflict do nothing', [device.deviceMasterId]);
    const [live] = await tx.query<{ last_seq: number; recording_id: number | null; session_start_ms: number | null; session_ended: boolean }>(
      'select last_seq, recording_id, session_start_ms, session_ended from device_live where device_master_id = $1 for update',
      [device.deviceMasterId],
    );
    let recordingId = live.recording_id;
    let patientId: number;
    if (recordingId !== null && live.session_start_ms === startMs && !live.session_ended) {
      [{ patient_id: patientId }] = await tx.query<{ patient_id: number }>('select patient_id from recordings where id = $1', [recordingId]);
    } else {
      const rec = await createRecording(tx, device, startMs, nowMs);
      recordingId = rec.id;
      patientId = rec.patientId;
      await tx.query('update device_live set recording_id = $2, session_start_ms = $3, session_ended = false where device_master_id = $1', [device.deviceMasterId, recordingId, startMs]);
    }
    const channels = await ensureChannels(tx, recordingId, codes, startMs);
    return { device, recordingId, patientId, startMs, channels, lastSeq: live.last_seq };
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
  layout: Record<string, [at: number, n: number]>;
  /** Physical samples per channel, in layout order. */
  values: Float32Array[];
}

export type IngestResult = { duplicate: true; seq: number } | { duplicate: false; frame: CommittedFrame };

const digestOf = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('base64');

async function checkSequence(tx: Queryable, session: LiveSession, frame: ValidFrame, digest: string): Promise<'new' | 'duplicate'> {
  const [live] = await tx.query<{ last_seq: number }>('select last_seq from device_live where device_master_id = $1 for update', [session.device.deviceMasterId]);
  if (frame.seq === live.last_seq + 1) return 'new';
  if (frame.seq > live.last_seq + 1) throw new FrameError('sequence_gap', `seq ${frame.seq} skips ahead: the next expected is ${live.last_seq + 1}`, frame.seq);
  const [old] = await tx.query<{ digest: string }>('select digest from live_frames where device_master_id = $1 and seq = $2', [session.device.deviceMasterId, frame.seq]);
  if (old?.digest === digest) return 'duplicate';
  throw new FrameError('sequence_reused', `seq ${frame.seq} was already used for another frame`, frame.seq);
}

/** The frame's chunks as a VALUES list (id, seq, data, n) and its parameters; an empty frame gives no rows. */
function chunkRows(session: LiveSession, frame: ValidFrame): { sql: string; params: unknown[] } {
  const parts = frame.parts.filter((p) => p.values.length > 0);
  if (parts.length === 0) return { sql: "select 0::int, 0::int, ''::bytea, 0::int where false", params: [] };
  const params: unknown[] = [];
  const rows = parts.map((p, i) => {
    params.push(session.channels.get(p.code)!.id, frame.seq, storedBytes(p), p.values.length);
    return `($${i * 4 + 1}::int, $${i * 4 + 2}::int, $${i * 4 + 3}::bytea, $${i * 4 + 4}::int)`;
  });
  return { sql: `values ${rows.join(', ')}`, params };
}

/**
 * Everything a frame changes, in one statement (one round trip, on PGlite as on PostgreSQL):
 * its chunks, each channel's sample count, the recording's stop, the frame's row in
 * live_frames with each channel's first sample index, and the device's last seq.
 */
async function storeFrame(tx: Queryable, session: LiveSession, frame: ValidFrame, digest: string, committedMs: number): Promise<CommittedFrame['layout']> {
  const { sql, params } = chunkRows(session, frame);
  const k = params.length;
  const rows = await tx.query<{ code: string; sample_count: number; n: number }>(
    `with v (id, seq, data, n) as (${sql}),
       ins as (insert into recording_chunks (channel_id, seq, data) select id, seq, data from v),
       upd as (update recording_channels c set sample_count = c.sample_count + v.n from v where c.id = v.id
               returning c.code, c.sample_count, v.n, c.t0_ms, c.sample_rate),
       rec as (update recordings set stop_ms = greatest(stop_ms, (select max(round(t0_ms + sample_count * 1000.0 / sample_rate))::bigint from upd)) where id = $${k + 3}),
       lf as (insert into live_frames (device_master_id, seq, recording_id, digest, sent_ms, layout, committed_ms)
              select $${k + 1}::int, $${k + 2}::bigint, $${k + 3}::int, $${k + 4}::text, $${k + 5}::bigint,
                     coalesce((select jsonb_object_agg(code, jsonb_build_array(sample_count - n, n)) from upd), '{}'::jsonb), $${k + 6}::bigint),
       dl as (update device_live set last_seq = $${k + 2}, last_frame_ms = $${k + 6} where device_master_id = $${k + 1})
     select code, sample_count, n from upd`,
    [...params, session.device.deviceMasterId, frame.seq, session.recordingId, digest, Math.round(frame.sentMs), committedMs],
  );
  const layout: CommittedFrame['layout'] = {};
  // In the frame's channel order, as the samples travel.
  for (const p of frame.parts) {
    const row = rows.find((r) => r.code === p.code);
    if (row) layout[p.code] = [row.sample_count - row.n, row.n];
  }
  return layout;
}

/**
 * Stores a valid frame in one transaction and resolves only once it is committed: its
 * samples appended to the live recording's channels, the frame recorded once under
 * (device, seq). A frame already committed is reported as a duplicate and stores nothing;
 * a gap or a reused seq throws FrameError and stores nothing.
 */
export async function commitFrame(db: Db, session: LiveSession, frame: ValidFrame, nowMs = Date.now): Promise<IngestResult> {
  const digest = digestOf(frame.bytes);
  return db.transaction(async (tx) => {
    if ((await checkSequence(tx, session, frame, digest)) === 'duplicate') return { duplicate: true, seq: frame.seq };
    const committedMs = nowMs();
    const layout = await storeFrame(tx, session, frame, digest, committedMs);
    session.lastSeq = frame.seq;
    const values = frame.parts.filter((p) => p.values.length > 0).map((p) => p.values);
    return { duplicate: false, frame: { deviceMasterId: session.device.deviceMasterId, deviceId: session.device.deviceId, recordingId: session.recordingId, seq: frame.seq, sentMs: frame.sentMs, committedMs, layout, values } };
  });
}

/**
 * The device's night is over: its chunks are compacted and its binary form stored, so it
 * reads like any other night; the device's next session starts a new recording.
 */
export async function endSession(db: Db, session: LiveSession): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.query('select 1 from device_live where device_master_id = $1 for update', [session.device.deviceMasterId]);
    await tx.query('update device_live set session_ended = true where device_master_id = $1 and recording_id = $2', [session.device.deviceMasterId, session.recordingId]);
    for (const channel of await listChannels(tx, [session.recordingId])) await compactChannel(tx, channel);
    await tx.query(`update recordings set recording_meta = recording_meta || '{"live": false}'::jsonb where id = $1`, [session.recordingId]);
  });
}
