// The stored rows the dashboard's triage table reads for one night: its analysis (KPIs) and
// its whole-night channel statistics (lowest SpO2 …). Made once per night and settings;
// the triage's prepare call and the demo seed both use this one function.
import type { Queryable } from '../db/adapter';
import { listChannels, type RecordingRow } from '../recordings/store';
import { analysisOf } from './analyse';
import { channelStatsOf } from './channelStats';
import { STATS_CODES } from './figures';
import { analyticsSettings, type AnalyticsSettings } from './settings';
import { patiently } from '../services/engine-pool';

export async function prepareTriageNight(db: Queryable, recording: RecordingRow, settings: AnalyticsSettings): Promise<void> {
  await analysisOf(db, recording, settings);
  const channels = (await listChannels(db, [recording.id])).filter((c) => (STATS_CODES as readonly string[]).includes(c.code));
  await channelStatsOf(db, recording, channels);
}

/** Ended nights with no stored analysis yet (any settings), oldest patient first, each patient's latest night first. */
export async function unanalysedNights(db: Queryable): Promise<number[]> {
  const rows = await db.query<{ id: number }>(
    `select r.id from recordings r
     where not exists (select 1 from night_analyses a where a.recording_id = r.id)
       and not (r.source = 'device' and coalesce((r.recording_meta ->> 'live')::boolean, false))
     order by r.patient_id, r.night_key desc`,
  );
  return rows.map((r) => r.id);
}

/**
 * Prepares the given nights with their physician's settings, one after the other, until
 * `stop()` says so (the server closing). Returns how many were prepared.
 */
export async function prepareTriageNights(db: Queryable, recordingIds: readonly number[], stop: () => boolean = () => false): Promise<number> {
  const settingsOf = new Map<number, AnalyticsSettings>();
  let done = 0;
  for (const id of recordingIds) {
    if (stop()) break;
    const [recording] = await db.query<RecordingRow & { physician_id: number }>(
      'select r.*, p.physician_id from recordings r join patients p on p.id = r.patient_id where r.id = $1',
      [id],
    );
    if (!recording) continue;
    let settings = settingsOf.get(recording.physician_id);
    if (!settings) {
      settings = await analyticsSettings(db, recording.physician_id);
      settingsOf.set(recording.physician_id, settings);
    }
    // Background work: waits for room in the engine's pool rather than being refused.
    await patiently(() => prepareTriageNight(db, recording, settings));
    done++;
    // Requests that came in meanwhile go first: one night's analysis at a time holds the event loop.
    await new Promise((r) => setImmediate(r));
  }
  return done;
}
