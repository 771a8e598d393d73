// A live night's analysis and statistics, kept in this process between reads (issue 34
// point 2, decision 0980). A night still recording grows with every committed frame, so its
// figures are never stored in the database; without this, every read of its summary ran the
// detectors over the whole night so far.
import type { Queryable } from '../db/adapter';

/** Default of LIVE_ANALYSIS_SECONDS: a live night's figures are computed again at most this often (ms). */
export const DEFAULT_LIVE_REFRESH_MS = 30_000;
/** Live nights' figures kept at once (the oldest read goes first); a process serves far fewer live nights. */
const MAX_ENTRIES = 500;

interface Entry {
  /** The committed samples (over the night's channels) the value was computed from. */
  progress: number;
  /** The night's corrections revision the value was computed under. */
  rev: number;
  /** When the computation started (Date.now, ms). */
  at: number;
  value: Promise<unknown>;
}

let refreshMs = DEFAULT_LIVE_REFRESH_MS;
const entries = new Map<string, Entry>();

/** Sets how often a live night's figures are computed again at most (ms; 0: on every read, uncached) and forgets what was kept. */
export function configureLiveCache(ms: number): void {
  refreshMs = ms;
  entries.clear();
}

/** A live night's progress: its committed samples over every channel, and its corrections revision. */
export async function liveProgress(db: Queryable, recordingId: number): Promise<{ samples: number; rev: number }> {
  const [row] = await db.query<{ samples: string | number; rev: number }>(
    `select correction_rev as rev, (select coalesce(sum(sample_count), 0) from recording_channels where recording_id = $1) as samples from recordings where id = $1`,
    [recordingId],
  );
  return { samples: Number(row?.samples ?? 0), rev: Number(row?.rev ?? 0) };
}

/**
 * The value kept under `key` when it was computed from the same committed samples, or less
 * than the refresh interval ago, under the same corrections revision (a correction shows at
 * once); otherwise `compute()`'s, kept from its start so that concurrent readers share one
 * computation. A failed computation (engine_busy …) is not kept.
 */
export function liveCached<T>(key: string, progress: number, rev: number, compute: () => Promise<T>): Promise<T> {
  if (refreshMs === 0) return compute();
  const now = Date.now();
  const kept = entries.get(key);
  if (kept && kept.rev === rev && (kept.progress === progress || now - kept.at < refreshMs)) return kept.value as Promise<T>;
  const entry: Entry = { progress, rev, at: now, value: compute() };
  entries.delete(key);
  entries.set(key, entry);
  if (entries.size > MAX_ENTRIES) entries.delete(entries.keys().next().value!);
  entry.value.catch(() => {
    if (entries.get(key) === entry) entries.delete(key);
  });
  return entry.value as Promise<T>;
}
