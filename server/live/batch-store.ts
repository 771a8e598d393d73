// The statements of a live batch's group commit (issue 15), as a procedure (decision 1009): it
// runs where the database runs — in PGlite's own thread, its statements without a trip to the
// event loop and back each; here, on PostgreSQL. Everything in and out is plain data, so it
// crosses threads as it is; ingest.ts turns it into frames and refusals.
import type { Queryable } from '../db/adapter';

/** Where a committed frame's samples went: each channel's first sample index and count. */
export type FrameLayout = Record<string, [at: number, n: number]>;

/** A frame of a batch as stored: its device, session's recording, seq, digest, and each channel's stored bytes. */
export interface StoredFrame {
  deviceMasterId: number;
  recordingId: number;
  seq: number;
  sentMs: number;
  digest: string;
  /** Non-empty parts only: the channel's id, its sample count and its stored bytes (frames.ts storedBytes). */
  parts: { code: string; channelId: number; n: number; bytes: Uint8Array }[];
}

/**
 * What became of a frame: new (committed now), a duplicate of one committed before, or
 * refused — its recording closed meanwhile ('closed'), a gap or a reused seq.
 */
export type FrameOutcome = 'new' | 'duplicate' | { refused: 'closed' } | { refused: 'sequence_gap' | 'sequence_reused'; message: string };

export interface StoredBatch {
  outcomes: FrameOutcome[];
  /** The new frames' layouts, in batch order. */
  layouts: FrameLayout[];
  committedMs: number;
}

/**
 * Which frames of a batch are new, already committed (duplicates) or refused, given each
 * device's last committed seq: in queue order, so a device's frames in one batch must follow
 * one another; the same (device, seq) twice in a batch is a duplicate when the bytes are the
 * same and a reused seq when not. Frames at or below the last seq are looked up in
 * live_frames; one no longer there (pruned) was committed, as last_seq says: a duplicate.
 */
async function classify(tx: Queryable, frames: readonly StoredFrame[]): Promise<FrameOutcome[]> {
  const ids = [...new Set(frames.map((f) => f.deviceMasterId))].sort((a, b) => a - b);
  // Locked in one order by every batch and session start: no deadlock between processes.
  const live = await tx.query<{ device_master_id: number; last_seq: number; recording_id: number | null; session_ended: boolean }>(
    'select device_master_id, last_seq, recording_id, session_ended from device_live where device_master_id = any($1::int[]) order by device_master_id for update',
    [ids],
  );
  const expected = new Map(live.map((r) => [r.device_master_id, Number(r.last_seq) + 1]));
  const open = new Map(live.map((r) => [r.device_master_id, r.session_ended ? null : r.recording_id]));
  const inBatch = new Map<string, string>();
  const older: number[] = [];
  const reused = (seq: number): FrameOutcome => ({ refused: 'sequence_reused', message: `seq ${seq} was already used for another frame` });
  const out = frames.map((f, i): FrameOutcome | null => {
    const m = f.deviceMasterId;
    // Its recording was closed meanwhile (offline, ended, another session): the device must say hello again.
    if (open.get(m) !== f.recordingId) return { refused: 'closed' };
    const key = `${m}:${f.seq}`;
    const seen = inBatch.get(key);
    if (seen !== undefined) return seen === f.digest ? 'duplicate' : reused(f.seq);
    const next = expected.get(m) ?? 0;
    if (f.seq === next) {
      expected.set(m, next + 1);
      inBatch.set(key, f.digest);
      return 'new';
    }
    if (f.seq > next) return { refused: 'sequence_gap', message: `seq ${f.seq} skips ahead: the next expected is ${next}` };
    older.push(i);
    return null;
  });
  if (older.length > 0) {
    const rows = await tx.query<{ device_master_id: number; seq: number; digest: string }>(
      `select f.device_master_id, f.seq, f.digest from live_frames f
       join (select * from jsonb_to_recordset($1::jsonb) as t(m int, s bigint)) o on o.m = f.device_master_id and o.s = f.seq`,
      [JSON.stringify(older.map((i) => ({ m: frames[i]!.deviceMasterId, s: frames[i]!.seq })))],
    );
    const stored = new Map(rows.map((r) => [`${r.device_master_id}:${Number(r.seq)}`, r.digest]));
    for (const i of older) {
      const f = frames[i]!;
      const old = stored.get(`${f.deviceMasterId}:${f.seq}`);
      out[i] = old === undefined || old === f.digest ? 'duplicate' : reused(f.seq);
    }
  }
  return out as FrameOutcome[];
}

/**
 * Stores the new frames of a batch in three statements whatever their number: each
 * channel's sample count (one update per channel, its frames' samples summed), then in one
 * statement every chunk, every live_frames row with each channel's first sample index, each
 * recording's stop and each device's last seq. Returns each frame's layout, in batch order.
 */
async function storeFrames(tx: Queryable, frames: readonly StoredFrame[], committedMs: number): Promise<FrameLayout[]> {
  const perChannel = new Map<number, number>();
  for (const f of frames) for (const p of f.parts) perChannel.set(p.channelId, (perChannel.get(p.channelId) ?? 0) + p.n);
  const counted = perChannel.size === 0 ? [] : await tx.query<{ id: number; recording_id: number; sample_count: number; t0_ms: number; sample_rate: number }>(
    `update recording_channels c set sample_count = c.sample_count + v.n
     from (select * from jsonb_to_recordset($1::jsonb) as t(id int, n int)) v where c.id = v.id
     returning c.id, c.recording_id, c.sample_count, c.t0_ms, c.sample_rate`,
    [JSON.stringify([...perChannel].map(([id, n]) => ({ id, n })))],
  );
  // Each channel's next sample index before this batch; frames take theirs in batch order.
  const next = new Map(counted.map((c) => [c.id, c.sample_count - perChannel.get(c.id)!]));
  const stops = new Map<number, number>();
  for (const c of counted) stops.set(c.recording_id, Math.max(stops.get(c.recording_id) ?? 0, Math.round(Number(c.t0_ms) + (c.sample_count * 1000) / c.sample_rate)));
  const blobs: Uint8Array[] = [];
  let offset = 0;
  const chunks: { c: number; s: number; o: number; l: number }[] = [];
  const rows: { m: number; s: number; r: number; d: string; sm: number; l: FrameLayout }[] = [];
  const lastSeq = new Map<number, number>();
  const layouts = frames.map((f) => {
    const layout: FrameLayout = {};
    for (const p of f.parts) {
      const at = next.get(p.channelId)!;
      next.set(p.channelId, at + p.n);
      layout[p.code] = [at, p.n];
      blobs.push(p.bytes);
      chunks.push({ c: p.channelId, s: f.seq, o: offset, l: p.bytes.byteLength });
      offset += p.bytes.byteLength;
    }
    rows.push({ m: f.deviceMasterId, s: f.seq, r: f.recordingId, d: f.digest, sm: Math.round(f.sentMs), l: layout });
    lastSeq.set(f.deviceMasterId, f.seq);
    return layout;
  });
  await tx.query(
    `with ins as (insert into recording_chunks (channel_id, seq, data)
                  select t.c, t.s, substring($1::bytea from t.o + 1 for t.l) from jsonb_to_recordset($2::jsonb) as t(c int, s int, o int, l int)),
       lf as (insert into live_frames (device_master_id, seq, recording_id, digest, sent_ms, layout, committed_ms)
              select t.m, t.s, t.r, t.d, t.sm, t.l, $3::bigint from jsonb_to_recordset($4::jsonb) as t(m int, s bigint, r int, d text, sm bigint, l jsonb)),
       rec as (update recordings r set stop_ms = greatest(r.stop_ms, v.stop)
               from (select * from jsonb_to_recordset($5::jsonb) as t(id int, stop bigint)) v where r.id = v.id),
       dl as (update device_live d set last_seq = v.s, last_frame_ms = $3::bigint
              from (select * from jsonb_to_recordset($6::jsonb) as t(m int, s bigint)) v where d.device_master_id = v.m)
     select 1`,
    [
      Buffer.concat(blobs),
      JSON.stringify(chunks),
      committedMs,
      JSON.stringify(rows),
      JSON.stringify([...stops].map(([id, stop]) => ({ id, stop }))),
      JSON.stringify([...lastSeq].map(([m, s]) => ({ m, s }))),
    ],
  );
  return layouts;
}

/** Classifies a batch's frames and stores the new ones, in the caller's transaction. */
export async function storeLiveBatch(tx: Queryable, frames: readonly StoredFrame[]): Promise<StoredBatch> {
  const outcomes = await classify(tx, frames);
  const fresh = frames.filter((_, i) => outcomes[i] === 'new');
  const committedMs = Date.now();
  const layouts = fresh.length ? await storeFrames(tx, fresh, committedMs) : [];
  return { outcomes, layouts, committedMs };
}
