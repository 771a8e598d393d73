import { breathingEnvelope } from './envelope';
import type { DetectedEvent, Series } from './series';

export interface RespiratoryOptions {
  /** Apnea: amplitude down by at least this fraction (AASM 0.9). */
  apneaDrop?: number;
  /** Hypopnea: amplitude down by at least this fraction (AASM 0.3). */
  hypopneaDrop?: number;
  /** Minimum event length, s. */
  minDurationS?: number;
  /** A hypopnea needs a desaturation starting between its onset and this long after its end, s. */
  desaturationLagS?: number;
  /**
   * Score hypopneas on the breathing signal alone (no desaturation needed). Off by default
   * (AASM); for nights recorded without oximetry, as a flow-only estimate.
   */
  flowOnlyHypopneas?: boolean;
}

const DEFAULTS = { apneaDrop: 0.9, hypopneaDrop: 0.3, minDurationS: 10, desaturationLagS: 45, flowOnlyHypopneas: false } as const;
const WINDOW_S = 4;
const BASELINE_S = 180;
const BASELINE_QUANTILE = 0.75;
const MAX_EVENT_S = 120;

function quantile(a: Float32Array, from: number, to: number, q: number): number {
  const v: number[] = [];
  for (let i = Math.max(0, from); i < to; i++) if (Number.isFinite(a[i])) v.push(a[i]);
  if (v.length < (to - from) / 3) return Number.NaN;
  v.sort((x, y) => x - y);
  return v[Math.min(v.length - 1, Math.floor(q * v.length))];
}

/**
 * Apneas and hypopneas (issue 7, AASM): the breathing amplitude (RMS around the local
 * mean, 4-s window) below (1 − apneaDrop) or (1 − hypopneaDrop) of the baseline (75th
 * percentile of the preceding 3 minutes, frozen during an event) for at least
 * `minDurationS`. The window shortens a stretch below the apnea level by its width, which
 * is added back. A hypopnea needs an associated desaturation; without SpO2 data none is scored.
 * Seconds without a valid signal, or with bad signal quality, end a candidate and never
 * count as an event.
 */
export function detectRespiratoryEvents(
  breathing: Series,
  desaturations: readonly DetectedEvent[] = [],
  options: RespiratoryOptions = {},
  quality?: Series,
): DetectedEvent[] {
  const o = { ...DEFAULTS, ...options };
  const env = breathingEnvelope(breathing, WINDOW_S);
  if (quality) {
    for (let t = 0; t < env.length; t++) {
      const qi = Math.floor(((breathing.t0 + t * 1000 - quality.t0) * quality.rate) / 1000);
      if (qi >= 0 && qi < quality.values.length && quality.values[qi] === 0) env[t] = Number.NaN;
    }
  }
  const events: DetectedEvent[] = [];
  const hypo = 1 - o.hypopneaDrop;
  const apnea = 1 - o.apneaDrop;
  let t = 0;
  while (t < env.length) {
    const base = quantile(env, t - BASELINE_S, t, BASELINE_QUANTILE);
    if (!Number.isFinite(base) || base <= 0 || !Number.isFinite(env[t]) || env[t] > hypo * base) {
      t++;
      continue;
    }
    let end = t;
    let lowRun = 0;
    let longestLow = 0;
    let minRatio = 1;
    while (end < env.length && Number.isFinite(env[end]) && env[end] <= hypo * base && end - t <= MAX_EVENT_S) {
      const r = env[end] / base;
      minRatio = Math.min(minRatio, r);
      lowRun = r <= apnea ? lowRun + 1 : 0;
      longestLow = Math.max(longestLow, lowRun);
      end++;
    }
    const interrupted = end < env.length && !Number.isFinite(env[end]);
    // The centred window crosses the hypopnea level when half of it is in the event, so
    // this run spans the event; a stretch below the apnea level is shorter by the window.
    const durationS = end - t;
    if (!interrupted && end - t <= MAX_EVENT_S && durationS >= o.minDurationS) {
      const onsetMs = breathing.t0 + t * 1000;
      const durationMs = durationS * 1000;
      if (longestLow + WINDOW_S >= o.minDurationS) {
        events.push({ kind: 'apnea', onsetMs, durationMs, amplitude: minRatio });
      } else if (o.flowOnlyHypopneas || desaturations.some((d) => d.onsetMs >= onsetMs - 5000 && d.onsetMs <= onsetMs + durationMs + o.desaturationLagS * 1000)) {
        events.push({ kind: 'hypopnea', onsetMs, durationMs, amplitude: minRatio });
      }
    }
    t = end + 1;
  }
  return events;
}
