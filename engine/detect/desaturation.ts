import { medianOf, timeAt, type DetectedEvent, type Series } from './series';

export interface DesaturationOptions {
  /** Minimum drop from baseline, % points (3 or 4; spec: per-physician setting, default 3). */
  dropPct?: 3 | 4;
  /** Minimum event length, s. */
  minDurationS?: number;
  /** Baseline window before each sample, s. */
  baselineS?: number;
}

const DEFAULTS = { dropPct: 3, minDurationS: 10, baselineS: 120 } as const;
/** An event ends when SpO2 is back within this many points of its baseline. */
const RECOVERED_PCT = 1;
/** A desaturation longer than this is a level change, not an event. */
const MAX_EVENT_S = 180;

/**
 * Desaturations (issue 7): SpO2 at least `dropPct` below the baseline (median of the
 * preceding `baselineS`, frozen during an event), the event running from the start of the
 * fall to the recovery within 1 point of baseline, at least `minDurationS` long. Missing
 * samples never start or extend an event; `quality` (SQB, 1 good) can veto samples.
 */
export function detectDesaturations(spo2: Series, options: DesaturationOptions = {}, quality?: Series): DetectedEvent[] {
  const { dropPct, minDurationS, baselineS } = { ...DEFAULTS, ...options };
  const v = spo2.values;
  const perS = spo2.rate;
  const baseN = Math.max(1, Math.round(baselineS * perS));
  const good = (i: number) => Number.isFinite(v[i]) && (!quality || qualityAt(quality, timeAt(spo2, i)));
  const events: DetectedEvent[] = [];
  // The baseline is the median of the preceding window, refreshed every 10 s for speed,
  // and every second where a fall may start.
  const step = Math.max(1, Math.round(perS));
  let baseline = Number.NaN;
  let refreshed = -Infinity;
  let i = 0;
  while (i < v.length) {
    if (i % step === 0 && (i - refreshed >= 10 * step || !Number.isFinite(baseline) || v[i] <= baseline - dropPct + 1)) {
      baseline = medianOf(v, i - baseN, i);
      refreshed = i;
    }
    if (!good(i) || !Number.isFinite(baseline) || v[i] > baseline - dropPct) {
      i++;
      continue;
    }
    // Back to the start of the fall: the last good sample within 1 point of baseline.
    let start = i;
    while (start > 0 && good(start - 1) && v[start - 1] < baseline - RECOVERED_PCT && i - start < MAX_EVENT_S * perS) start--;
    let end = i;
    let nadir = v[i];
    while (end < v.length && end - start < MAX_EVENT_S * perS && good(end) && v[end] < baseline - RECOVERED_PCT) {
      nadir = Math.min(nadir, v[end]);
      end++;
    }
    const durationS = (end - start) / perS;
    if (durationS >= minDurationS && end - start < MAX_EVENT_S * perS) {
      events.push({ kind: 'desaturation', onsetMs: timeAt(spo2, start), durationMs: durationS * 1000, baseline, nadir });
    }
    i = Math.max(end, i + 1);
  }
  return events;
}

function qualityAt(q: Series, t: number): boolean {
  const i = Math.floor(((t - q.t0) * q.rate) / 1000);
  return i < 0 || i >= q.values.length || !(q.values[i] === 0);
}
