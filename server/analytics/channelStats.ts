import type { WindowStats } from '../../engine/types';
import { ENGINE_VERSION } from '../../engine/index';
import type { Queryable } from '../db/adapter';
import { isLiveRecording, loadSamples, type ChannelRow, type RecordingRow } from '../recordings/store';
import type { AnalysisWindow } from '../../engine/detect';
import { onEngine } from '../services/engine-pool';
import { storedChannel, type StoredChannel } from '../services/engine-work';
import { correctionState, CURRENT_REV_SQL } from './corrections';
import { liveCached, liveProgress } from './liveCache';

/**
 * Statistics of whole nights' channels, computed by the engine in a worker thread: over the
 * recording, or with a corrections window over [bed-in, bed-out] with the time outside it (and
 * in its invalid spans) read as missing.
 */
async function nightChannelStats(
  db: Queryable,
  recording: Pick<RecordingRow, 'id' | 'start_ms' | 'stop_ms'>,
  channels: readonly ChannelRow[],
  window: AnalysisWindow | null,
): Promise<Map<string, WindowStats>> {
  const [fromMs, toMs] = window ? [window.bedInMs, window.bedOutMs] : [Number(recording.start_ms), Number(recording.stop_ms) + 1];
  const stats = await onEngine(async () => {
    const stored: StoredChannel[] = [];
    for (const c of channels) stored.push(storedChannel(c, await loadSamples(db, c)));
    return { kind: 'stats' as const, label: `night-${recording.id}`, channels: stored, fromMs, toMs, window };
  });
  return new Map(stats);
}

/**
 * Whole-night statistics of a night's channels: computed by the signal engine once, then read
 * from night_channel_stats (cleared when a file joins the night or a correction is made or undone; a live night's never stored). Every screen that shows a
 * night's min, max, mean or percentiles — summary, report, trend, triage — reads them here.
 */
export async function channelStatsOf(
  db: Queryable,
  recording: Pick<RecordingRow, 'id' | 'start_ms' | 'stop_ms' | 'source' | 'recording_meta'>,
  channels: readonly ChannelRow[],
): Promise<Map<string, WindowStats>> {
  const out = new Map<string, WindowStats>();
  if (channels.length === 0) return out;
  // A live night still grows: its statistics are never stored, only kept in this process by its committed samples (liveCache.ts).
  if (isLiveRecording(recording)) {
    const { rev } = await liveProgress(db, recording.id);
    const samples = channels.reduce((n, c) => n + Number(c.sample_count), 0);
    const key = `stats|${recording.id}|${channels.map((c) => c.code).join(',')}`;
    return liveCached(key, samples, rev, async () => nightChannelStats(db, recording, channels, (await correctionState(db, recording)).window));
  }
  const cached = await db.query<{ code: string; stats: WindowStats }>(
    'select code, stats from night_channel_stats where recording_id = $1 and engine_version = $2 and code = any($3::text[])',
    [recording.id, ENGINE_VERSION, channels.map((c) => c.code)],
  );
  for (const row of cached) out.set(row.code, row.stats);
  const missing = channels.filter((c) => !out.has(c.code));
  if (missing.length === 0) return out;
  // The night's manual corrections apply; stored only while they are still those computed from.
  const state = await correctionState(db, recording);
  for (const [code, stats] of await nightChannelStats(db, recording, missing, state.window)) {
    out.set(code, stats);
    await db.query(
      `insert into night_channel_stats (recording_id, code, engine_version, stats) select $1, $2, $3, $4 ${CURRENT_REV_SQL('$1', '$5')}
       on conflict (recording_id, code) do update set engine_version = excluded.engine_version, stats = excluded.stats, computed_at = now()`,
      [recording.id, code, ENGINE_VERSION, JSON.stringify(stats), state.rev],
    );
  }
  // Keep the caller's channel order.
  return new Map(channels.filter((c) => out.has(c.code)).map((c) => [c.code, out.get(c.code)!]));
}

/**
 * The stored whole-night statistics of ended nights' channels with the given codes, in one
 * query: recording id → code → statistics. What is not stored yet is absent (channelStatsOf
 * computes and stores it).
 */
export async function storedChannelStats(db: Queryable, recordingIds: readonly number[], codes: readonly string[]): Promise<Map<number, Map<string, WindowStats>>> {
  const out = new Map<number, Map<string, WindowStats>>();
  if (recordingIds.length === 0 || codes.length === 0) return out;
  const rows = await db.query<{ recording_id: number; code: string; stats: WindowStats }>(
    'select recording_id, code, stats from night_channel_stats where recording_id = any($1::int[]) and engine_version = $2 and code = any($3::text[])',
    [recordingIds, ENGINE_VERSION, codes],
  );
  for (const r of rows) {
    const id = Number(r.recording_id);
    let m = out.get(id);
    if (!m) out.set(id, (m = new Map()));
    m.set(r.code, r.stats);
  }
  return out;
}
