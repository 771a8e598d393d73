// Per-night statistics computed once, when a night is stored or changed (issue 18 point 4): the
// night's analysis under its practice's settings (with its KPIs and trend indices) and the
// whole-night statistics of every channel, kept in night_analyses and night_channel_stats so
// the trend, the dashboard and the triage table read rows, never samples. Routes that store or
// change a night (import, merge, correction, settings) schedule it here; the work runs after
// their answer, one night at a time. A screen that finds a night's rows missing (the queue not
// there yet, a live night) computes and stores them itself, so what it shows is the same.
import type { Queryable } from '../db/adapter';
import { isLiveRecording, listChannels, type RecordingRow } from '../recordings/store';
import { analysisOf } from './analyse';
import { channelStatsOf } from './channelStats';
import { analyticsSettings } from './settings';
import { patiently } from '../services/engine-pool';

/** Computes and stores an ended night's analysis and every channel's statistics (a no-op for what is stored already). */
async function refreshNightStats(db: Queryable, recordingId: number): Promise<boolean> {
  const [recording] = await db.query<RecordingRow & { physician_id: number }>(
    'select r.*, p.physician_id from recordings r join patients p on p.id = r.patient_id where r.id = $1',
    [recordingId],
  );
  if (!recording || isLiveRecording(recording)) return false;
  await analysisOf(db, recording, await analyticsSettings(db, recording.physician_id));
  await channelStatsOf(db, recording, await listChannels(db, [recording.id]));
  return true;
}

/** Ended nights of a practice (physician): what a settings change schedules. */
export async function practiceNights(db: Queryable, physicianId: number): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `select r.id from recordings r join patients p on p.id = r.patient_id where p.physician_id = $1
     and not (r.source = 'device' and coalesce((r.recording_meta ->> 'live')::boolean, false)) order by r.night_key desc`,
    [physicianId],
  );
  return rows.map((r) => Number(r.id));
}

/** The queue of nights whose statistics are to be computed, worked one at a time in the background. */
export class NightStatsQueue {
  private readonly pending = new Set<number>();
  private running: Promise<void> | null = null;
  private closed = false;
  /** Nights refreshed since the start (tests and logs). */
  done = 0;

  constructor(
    private readonly db: Queryable,
    private readonly log: (message: string) => void,
  ) {}

  /** Adds nights to the queue (after the caller's transaction committed) and starts working it. */
  schedule(ids: Iterable<number>): void {
    if (this.closed) return;
    for (const id of ids) this.pending.add(id);
    this.running ??= this.work().finally(() => {
      this.running = null;
    });
  }

  /** Resolves when the queue is empty. */
  async idle(): Promise<void> {
    while (this.running) await this.running;
  }

  /** Stops taking nights and waits for the one in progress. */
  async close(): Promise<void> {
    this.closed = true;
    this.pending.clear();
    await this.idle();
  }

  private async work(): Promise<void> {
    // After the scheduling request's answer: requests come first.
    await new Promise((r) => setImmediate(r));
    while (!this.closed && this.pending.size > 0) {
      const id = this.pending.values().next().value!;
      this.pending.delete(id);
      try {
        // Background work: waits for room in the engine's pool rather than being refused.
        if (await patiently(() => refreshNightStats(this.db, id))) this.done++;
      } catch (error) {
        // The night's rows stay missing: the screens that read them compute them themselves.
        if (!this.closed) this.log(`Computing the statistics of night ${id} failed: ${(error as Error).message}`);
      }
      await new Promise((r) => setImmediate(r));
    }
  }
}
