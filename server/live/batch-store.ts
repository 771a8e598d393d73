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

/** A channel of the batch's frames as its row stands before the batch (locked). */
interface ChannelRow {
  id: number;
  recording_id: number;
  sample_count: number;
  t0_ms: number;
  sample_rate: number;
}

/**
 * Locks the batch's devices (device_live) and channels (recording_channels) in one
 * statement, in one order by every batch and session start (devices, then channels, each by
 * id): no deadlock between processes. Returns both rows as they stand before the batch.
 */
async function lockBatch(tx: Queryable, frames: readonly StoredFrame[]) {
  const ids = [...new Set(frames.map((f) => f.deviceMasterId))].sort((a, b) => a - b);
  const channelIds = [...new Set(frames.flatMap((f) => f.parts.map((p) => p.channelId)))].sort((a, b) => a - b);
  const [row] = await tx.query<{ live: { device_master_id: number; last_seq: number; recording_id: number | null; session_ended: boolean }[]; channels: ChannelRow[] }>(
    `with dl as (select device_master_id, last_seq, recording_id, session_ended from device_live where device_master_id = any($1::int[]) order by device_master_id for update),
          ch as (select id, recording_id, sample_count, t0_ms, sample_rate from recording_channels where id = any($2::int[]) order by id for update)
     select coalesce((select json_agg(dl) from dl), '[]'::json) as live, coalesce((select json_agg(ch) from ch), '[]'::json) as channels`,
    [ids, channelIds],
    'live_lock_batch',
  );
  return { live: row!.live, channels: row!.channels.map((c) => ({ ...c, sample_count: Number(c.sample_count), t0_ms: Number(c.t0_ms), sample_rate: Number(c.sample_rate) })) };
}

/**
 * Which frames of a batch are new, already committed (duplicates) or refused, given each
 * device's last committed seq (`live`, locked): in queue order, so a device's frames in one
 * batch must follow one another; the same (device, seq) twice in a batch is a duplicate when
 * the bytes are the same and a reused seq when not. Frames at or below the last seq are looked
 * up in live_frames; one no longer there (pruned) was committed, as last_seq says: a duplicate.
 */
async function classify(tx: Queryable, frames: readonly StoredFrame[], live: Awaited<ReturnType<typeof lockBatch>>['live']): Promise<FrameOutcome[]> {
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
 * Stores the new frames of a batch in one statement whatever their number, the transaction's
 * last (on PostgreSQL sent with its COMMIT: Queryable.commitWith): each channel's sample count
 * (its frames' samples added), every chunk, every live_frames row with each channel's first
 * sample index, each recording's stop and each device's last seq. `channels`: the frames'
 * channels as locked before the batch. Returns each frame's layout, in batch order.
 */
async function storeFrames(tx: Queryable, frames: readonly StoredFrame[], channels: readonly ChannelRow[], committedMs: number): Promise<FrameLayout[]> {
  const perChannel = new Map<number, number>();
  for (const f of frames) for (const p of f.parts) perChannel.set(p.channelId, (perChannel.get(p.channelId) ?? 0) + p.n);
  const counted = channels.filter((c) => perChannel.has(c.id));
  // Each channel's next sample index before this batch; frames take theirs in batch order.
  const next = new Map(counted.map((c) => [c.id, c.sample_count]));
  const stops = new Map<number, number>();
  for (const c of counted) {
    const total = c.sample_count + perChannel.get(c.id)!;
    stops.set(c.recording_id, Math.max(stops.get(c.recording_id) ?? 0, Math.round(c.t0_ms + (total * 1000) / c.sample_rate)));
  }
  const blobs: Uint8Array[] = [];
  let offset = 0;
  // The chunks as columns: channel, seq, offset in the batch's bytes, length.
  const chunks = { c: [] as number[], s: [] as number[], o: [] as number[], l: [] as number[] };
  const rows: { m: number; s: number; r: number; d: string; sm: number; l: FrameLayout }[] = [];
  const lastSeq = new Map<number, number>();
  const layouts = frames.map((f) => {
    const layout: FrameLayout = {};
    for (const p of f.parts) {
      const at = next.get(p.channelId);
      // A channel the batch did not lock (gone meanwhile): the whole batch fails, nothing stored, nothing acked.
      if (at === undefined) throw new Error(`live batch: channel ${p.channelId} is not stored`);
      next.set(p.channelId, at + p.n);
      layout[p.code] = [at, p.n];
      blobs.push(p.bytes);
      chunks.c.push(p.channelId);
      chunks.s.push(f.seq);
      chunks.o.push(offset);
      chunks.l.push(p.bytes.byteLength);
      offset += p.bytes.byteLength;
    }
    rows.push({ m: f.deviceMasterId, s: f.seq, r: f.recordingId, d: f.digest, sm: Math.round(f.sentMs), l: layout });
    lastSeq.set(f.deviceMasterId, f.seq);
    return layout;
  });
  // Rows come as arrays (unnest of constants: the planner knows their number) and are looked up
  // by key; jsonb_to_recordset, counted as 100 rows whatever their number, had the planner scan
  // and hash every row of recording_channels for a batch's few (the `= any` lets it probe the
  // key for each, however its statistics lag a table whose counts every batch updates).
  await (tx.commitWith ?? tx.query).call(
    tx,
    `with cnt as (update recording_channels c set sample_count = c.sample_count + v.n
                  from unnest($4::int[], $5::int[]) as v(id, n) where c.id = v.id and c.id = any($4::int[])),
       ins as (insert into recording_chunks (channel_id, seq, data)
               select t.c, t.s, substring($1::bytea from t.o + 1 for t.l) from unnest($6::int[], $7::int[], $8::int[], $9::int[]) as t(c, s, o, l)),
       lf as (insert into live_frames (device_master_id, seq, recording_id, digest, sent_ms, layout, committed_ms)
              select t.m, t.s, t.r, t.d, t.sm, t.l, $2::bigint from jsonb_to_recordset($3::jsonb) as t(m int, s bigint, r int, d text, sm bigint, l jsonb)),
       rec as (update recordings r set stop_ms = greatest(r.stop_ms, v.stop)
               from unnest($10::int[], $11::bigint[]) as v(id, stop) where r.id = v.id),
       dl as (update device_live d set last_seq = v.s, last_frame_ms = $2::bigint
              from unnest($12::int[], $13::bigint[]) as v(m, s) where d.device_master_id = v.m)
     select 1`,
    [
      Buffer.concat(blobs),
      committedMs,
      JSON.stringify(rows),
      [...perChannel.keys()],
      [...perChannel.values()],
      chunks.c,
      chunks.s,
      chunks.o,
      chunks.l,
      [...stops.keys()],
      [...stops.values()],
      [...lastSeq.keys()],
      [...lastSeq.values()],
    ],
    'live_store_frames',
  );
  return layouts;
}

/**
 * Classifies a batch's frames and stores the new ones, in the caller's transaction: on
 * PostgreSQL two round trips (the locks with the BEGIN, the writes with the COMMIT; a third
 * only to look up resent frames), where five each waited for the database's turn on a busy
 * machine (bench:scale). Both statements are named: prepared once per connection, not parsed
 * and planned on every batch (decision 1039).
 */
export async function storeLiveBatch(tx: Queryable, frames: readonly StoredFrame[]): Promise<StoredBatch> {
  const { live, channels } = await lockBatch(tx, frames);
  const outcomes = await classify(tx, frames, live);
  const fresh = frames.filter((_, i) => outcomes[i] === 'new');
  const committedMs = Date.now();
  const layouts = fresh.length ? await storeFrames(tx, fresh, channels, committedMs) : [];
  return { outcomes, layouts, committedMs };
}
