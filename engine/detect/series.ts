import { nonPositiveIsMissing } from '../constants';

/**
 * A channel as the detectors read it: physical values with NaN for every missing sample,
 * on a regular clock. Detectors are plain TypeScript over typed arrays, so the browser
 * worker and the server run the same code.
 */
export interface Series {
  /** Physical values; NaN where missing. */
  values: Float32Array;
  /** Samples per second. */
  rate: number;
  /** Time of sample 0, ms UTC. */
  t0: number;
}

/** Stored samples (int16 or float32 with scale/offset) to a Series, applying spec 2 §5's missing rules. */
export function toSeries(
  code: string,
  stored: Int16Array | Float32Array,
  rate: number,
  t0: number,
  scale = 1,
  offset = 0,
  missingCodes: readonly number[] = [-1, -2],
): Series {
  const values = new Float32Array(stored.length);
  const positiveOnly = nonPositiveIsMissing(code, missingCodes);
  for (let i = 0; i < stored.length; i++) {
    const s = stored[i];
    const v = s * scale + offset;
    values[i] = missingCodes.includes(s) || !Number.isFinite(v) || (positiveOnly && v <= 0) ? Number.NaN : v;
  }
  return { values, rate, t0 };
}

/** Time of sample i. */
export const timeAt = (s: Series, i: number) => s.t0 + (i * 1000) / s.rate;

/** A detected event. */
export interface DetectedEvent {
  onsetMs: number;
  durationMs: number;
  kind: 'apnea' | 'hypopnea' | 'desaturation';
  /** Desaturation: baseline and nadir (%); breathing: amplitude during the event as a fraction of baseline. */
  baseline?: number;
  nadir?: number;
  amplitude?: number;
  /** Apneas: obstructive or central from effort channels where present, else unclassified. */
  apneaType?: 'obstructive' | 'central' | 'mixed' | 'unclassified';
  /** Hypopneas scored on the breathing signal alone, without oximetry (labelled as such). */
  flowOnly?: boolean;
  /** Why the event was scored: the measured drop, its length and the associated desaturation. */
  reason?: EventReason;
}

/** What a detector measured when it scored an event. */
interface EventReason {
  /** Breathing amplitude drop from baseline, % (apnea, hypopnea). */
  dropPct?: number;
  /** Length of the event, s. */
  durationS: number;
  /** Associated desaturation, % points from baseline (hypopnea with SpO2; desaturation itself). */
  desaturationPct?: number;
  /** The rule applied, e.g. 'AASM apnea ≥90 % ≥10 s', 'AASM hypopnea ≥30 % ≥10 s + 3 % desaturation', 'flow-only hypopnea ≥30 % ≥10 s'. */
  rule: string;
}

/** Median of the finite values of a[from, to); NaN when none. Sorts a copy: callers keep windows small. */
export function medianOf(a: ArrayLike<number>, from: number, to: number): number {
  const v: number[] = [];
  for (let i = Math.max(0, from); i < Math.min(a.length, to); i++) if (Number.isFinite(a[i])) v.push(a[i]);
  if (v.length === 0) return Number.NaN;
  v.sort((x, y) => x - y);
  const m = v.length >> 1;
  return v.length % 2 ? v[m] : (v[m - 1] + v[m]) / 2;
}
