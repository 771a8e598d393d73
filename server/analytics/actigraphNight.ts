// One night's actigraph (spec 2 §3): movement density per minute with the night's sleep and
// wake bands and times. Made once with the night's analysis and stored with it (migration 062,
// decision 0982); the actigraph route reads the stored rows.
import type { NightAnalysis } from '../../engine/detect';
import type { Queryable } from '../db/adapter';
import { listChannels, loadSamples, type ChannelRow, type RecordingRow } from '../recordings/store';
import { sleepFigures } from './figures';

/** One night of GET /analytics/patient/actigraph, as stored in night_analyses.actigraph. */
export interface ActigraphNight {
  line_data: Array<[number, number | null]>;
  sleep_bands: NightAnalysis['sleep']['sleepBands'];
  awake_bands: NightAnalysis['sleep']['awakeBands'];
  undefined_bands: NightAnalysis['sleep']['undefinedBands'];
  meta_data: {
    graph_start_time: number;
    graph_stop_time: number;
    waso: number | null;
    total_sleep_time: number | null;
    sol: number | null;
    bed_in_time: string | null;
    bed_out_time: string | null;
  };
  timezone: string;
}

/** A UTC instant as HH:MM in the night's time zone (null stays null). */
export const hhmm = (msUtc: number | null, zone: string) => (msUtc === null ? null : new Date(msUtc).toLocaleTimeString('en-GB', { timeZone: zone, hour: '2-digit', minute: '2-digit' }));

/** Movement density: the mean MOV of each minute, [minute start ms, mean or null where no valid sample]. */
function movementPerMinute(mov: ChannelRow, samples: ArrayLike<number>): Array<[number, number | null]> {
  const line: Array<[number, number | null]> = [];
  const perMin = Math.max(1, Math.round(60 * mov.sample_rate));
  for (let i = 0; i < samples.length; i += perMin) {
    let sum = 0;
    let n = 0;
    for (let j = i; j < Math.min(samples.length, i + perMin); j++) {
      const v = samples[j] * mov.scale + mov.offset_value;
      if (v >= 0) {
        sum += v;
        n++;
      }
    }
    line.push([Math.round(mov.t0_ms + (i * 1000) / mov.sample_rate), n ? Math.round((sum / n) * 1000) / 1000 : null]);
  }
  return line;
}

/** The night's actigraph from its analysis and its stored MOV channel. */
export async function actigraphNight(db: Queryable, recording: RecordingRow, a: NightAnalysis): Promise<ActigraphNight> {
  const channels = await listChannels(db, [recording.id]);
  const sleep = sleepFigures(a, channels.map((c) => c.code));
  const mov = channels.find((c) => c.code === 'MOV');
  const s = a.sleep;
  const zone = recording.timezone;
  return {
    line_data: mov ? movementPerMinute(mov, await loadSamples(db, mov)) : [],
    sleep_bands: s.sleepBands,
    awake_bands: s.awakeBands,
    undefined_bands: s.undefinedBands,
    meta_data: {
      graph_start_time: recording.start_ms,
      graph_stop_time: recording.stop_ms,
      waso: sleep.wasoMin,
      total_sleep_time: sleep.totalSleepH,
      sol: sleep.solMin,
      bed_in_time: hhmm(s.bedInMs, zone),
      bed_out_time: hhmm(s.bedOutMs, zone),
    },
    timezone: zone,
  };
}
