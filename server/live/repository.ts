import type { Queryable } from '../db/adapter';
import type { TileLayout } from '../../contract/live';

/** A physician's recording hours and country, as the practice's window is made of them. */
export interface PracticeHoursRow {
  window_start_time: string | null;
  window_end_time: string | null;
  country: string | null;
}

/** The physician's recording hours and country (undefined: no such user). */
export async function practiceHours(db: Queryable, physicianId: number): Promise<PracticeHoursRow | undefined> {
  const [row] = await db.query<PracticeHoursRow>(
    'select window_start_time, window_end_time, country from users where id = $1',
    [physicianId],
  );
  return row;
}

/** The live dashboard's tile layout a user saved (undefined: none saved). */
export async function savedLayout(db: Queryable, userId: number): Promise<TileLayout[] | undefined> {
  const [row] = await db.query<{ layout: TileLayout[] }>('select layout from realtime_layouts where user_id = $1', [userId]);
  return row?.layout;
}

/** Saves (or replaces) a user's live dashboard layout. */
export async function saveLayout(db: Queryable, userId: number, layout: readonly TileLayout[]): Promise<void> {
  await db.query(
    `insert into realtime_layouts (user_id, layout) values ($1, $2) on conflict (user_id) do update set layout = excluded.layout, updated_at = now()`,
    [userId, JSON.stringify(layout)],
  );
}

/** A live recording's committed frames in a time range: how many, their seq range and commit times. */
export interface FrameStats {
  device_master_id: number;
  recording_id: number;
  frames: number;
  first_seq: number;
  last_seq: number;
  first_ms: number;
  last_ms: number;
}

/** Per recording of these devices, the frames committed in [from, to], in recording order. */
export function frameStats(db: Queryable, deviceMasterIds: readonly number[], from: number, to: number): Promise<FrameStats[]> {
  return db.query<FrameStats>(
    // Frames still in live_frames and those pruned into their recording's totals (live_frame_totals).
    `select device_master_id, recording_id, sum(frames)::int as frames, min(first_seq) as first_seq, max(last_seq) as last_seq, min(first_ms) as first_ms, max(last_ms) as last_ms
     from (select device_master_id, recording_id, count(*) as frames, min(seq) as first_seq, max(seq) as last_seq, min(committed_ms) as first_ms, max(committed_ms) as last_ms
           from live_frames where device_master_id = any($1::int[]) and committed_ms between $2 and $3 group by device_master_id, recording_id
           union all
           select device_master_id, recording_id, frames, first_seq, last_seq, first_ms, last_ms
           from live_frame_totals where device_master_id = any($1::int[]) and last_ms >= $2 and first_ms <= $3) f
     group by device_master_id, recording_id order by recording_id`,
    [deviceMasterIds, from, to],
  );
}

/** A live channel as a viewer's subscription names it. */
export interface LiveChannel {
  code: string;
  rate: number;
  unit: string;
  t0Ms: number;
}

/** A recording's channels in their stored order, as the viewer's subscription answers them. */
export function liveChannels(db: Queryable, recordingId: number): Promise<LiveChannel[]> {
  return db.query<LiveChannel>(
    'select code, sample_rate as rate, unit, t0_ms as "t0Ms" from recording_channels where recording_id = $1 order by id',
    [recordingId],
  );
}
