import { movingExtreme, movingMean, type Amplitude } from './amplitude';

/**
 * Breath-by-breath segmentation of a breathing signal, for measuring events the AASM way:
 * "from the nadir preceding the first breath that is clearly reduced to the beginning of
 * the first breath that approximates the baseline breathing amplitude".
 *
 * The signal is turned into a flow: a flow signal (CPAP flow, nasal pressure, thermistor)
 * minus its centred 10-s mean (leak), a volume signal (radar displacement, effort belt)
 * differentiated. A breath starts at the start of inspiration: the upward zero crossing of
 * the flow before it rises above +h, once it has been below −h (expiration) since the
 * previous breath; h is a small share of the largest breathing around (±30 s), so noise
 * and the residual wiggles of an apnea make no breaths. Flow within ±h for over a second
 * is a pause from where it became still, up to the next breath (the nadir of AASM's rule
 * is its start). Segments tile the signal: breaths, pauses, and gaps
 * (missing or vetoed samples, never measured). A segment's size is its mean absolute flow
 * (a breath reduced over part of its length reads partly reduced; peak-to-peak would read
 * it whole), compared with the same measure of the stable breaths before.
 */
export interface Breaths {
  /** First grid index of each segment, ascending; segment k ends where k + 1 starts (the last at `end`). */
  start: Int32Array;
  /** Grid index after the last segment. */
  end: number;
  /** Mean absolute flow over each segment; NaN for a gap. */
  size: Float32Array;
  /** What each segment is. */
  kind: Uint8Array;
}

/** Segment kinds. */
export const BREATH = 0;
export const PAUSE = 1;
const GAP = 2;

/** How the signal relates to airflow. */
export type BreathingSignalKind = 'flow' | 'volume';

/** The leak a flow signal carries is its mean over this long, s. */
const LEAK_S = 10;
/** The breathing the hysteresis scales with: the largest peak-to-peak of the flow within ±this, s. */
const SCALE_S = 30;
/** The hysteresis, share of that peak-to-peak: breaths under ~10 % of the largest make no crossing. */
const HYSTERESIS = 0.05;
/** Missing stretches up to this long are bridged (a lone missing sample breaks no breath), s. */
const SHORT_GAP_S = 1;
/** Near-zero flow after an expiration longer than this is a pause, s. */
const PAUSE_MIN_S = 1;

/** Segments a signal's grid (see {@link Breaths}). Cost O(samples). */
export function breathSegments(amp: Pick<Amplitude, 'signal' | 'rate'>, kind: BreathingSignalKind): Breaths {
  const rate = amp.rate;
  const sig = bridgeShortGaps(amp.signal, Math.round(SHORT_GAP_S * rate));
  const n = sig.length;
  const f = flowOf(sig, rate, kind);
  const h = hysteresis(f, rate);
  const cuts: number[] = [];
  const kinds: number[] = [];
  const cut = (k: number, what: number) => {
    if (cuts.length > 0 && cuts[cuts.length - 1] === k) kinds[kinds.length - 1] = what;
    else if (cuts.length === 0 || cuts[cuts.length - 1] < k) {
      cuts.push(k);
      kinds.push(what);
    }
  };
  const pauseN = Math.max(1, Math.round(PAUSE_MIN_S * rate));
  let armed = false;
  let lastNonPos = -1;
  let quietFrom = -1;
  let inGap = false;
  for (let i = 0; i < n; i++) {
    const v = f[i];
    if (!Number.isFinite(v) || !Number.isFinite(h[i])) {
      if (!inGap) cut(i, GAP);
      inGap = true;
      armed = false;
      quietFrom = -1;
      continue;
    }
    if (inGap) {
      // The signal resumes mid-breath: a segment of unknown start, measured but not a breath start.
      cut(i, PAUSE);
      inGap = false;
      lastNonPos = i;
    }
    if (v <= 0) lastNonPos = i;
    // Still flow for over a second is a pause, from where it became still.
    if (Math.abs(v) < h[i]) {
      if (quietFrom < 0) quietFrom = i;
      if (i - quietFrom === pauseN) cut(quietFrom, PAUSE);
    } else {
      // Breathing after a pause starts where the flow left zero, inspiring or expiring.
      if (quietFrom >= 0 && i - quietFrom > pauseN && v > 0) {
        cut(lastNonPos + 1, BREATH);
        armed = false;
        quietFrom = -1;
        continue;
      }
      quietFrom = -1;
    }
    if (v <= -h[i]) armed = true;
    else if (armed && v >= h[i]) {
      cut(lastNonPos + 1, BREATH);
      armed = false;
    }
  }
  if (cuts.length === 0 || cuts[0] > 0) {
    cuts.unshift(0);
    kinds.unshift(PAUSE);
  }
  const start = Int32Array.from(cuts);
  const size = new Float32Array(start.length);
  for (let k = 0; k < start.length; k++) {
    const b = k + 1 < start.length ? start[k + 1] : n;
    size[k] = kinds[k] === GAP ? Number.NaN : meanAbs(f, start[k], b);
  }
  return { start, end: n, size, kind: Uint8Array.from(kinds) };
}

/** A copy of the signal with missing stretches of up to `maxN` samples between valid ones filled linearly. */
function bridgeShortGaps(sig: Float32Array, maxN: number): Float32Array {
  const out = Float32Array.from(sig);
  let i = 0;
  while (i < out.length) {
    if (Number.isFinite(out[i])) {
      i++;
      continue;
    }
    let j = i;
    while (j < out.length && !Number.isFinite(out[j])) j++;
    if (i > 0 && j < out.length && j - i <= maxN) {
      for (let k = i; k < j; k++) out[k] = out[i - 1] + ((out[j] - out[i - 1]) * (k - i + 1)) / (j - i + 1);
    }
    i = j;
  }
  return out;
}

/** The flow the breaths are cut on: leak removed (flow) or the derivative (volume). */
function flowOf(sig: Float32Array, rate: number, kind: BreathingSignalKind): Float64Array {
  const n = sig.length;
  const f = new Float64Array(n);
  if (kind === 'volume') {
    for (let i = 0; i < n; i++) {
      const a = sig[Math.max(0, i - 1)];
      const b = sig[Math.min(n - 1, i + 1)];
      f[i] = ((b - a) * rate) / (Math.min(n - 1, i + 1) - Math.max(0, i - 1) || 1);
    }
    return f;
  }
  const x = Float64Array.from(sig);
  const ok = new Uint8Array(n);
  for (let i = 0; i < n; i++) ok[i] = Number.isFinite(x[i]) ? 1 : 0;
  const leak = movingMean(x, ok, Math.round((LEAK_S * rate) / 2));
  for (let i = 0; i < n; i++) f[i] = x[i] - leak[i];
  return f;
}

/** Per-sample hysteresis: a share of the largest breathing peak-to-peak of the flow around. */
function hysteresis(f: Float64Array, rate: number): Float64Array {
  const breathHalf = Math.max(1, Math.round(3 * rate));
  const hi = movingExtreme(f, breathHalf, (a, b) => a >= b);
  const lo = movingExtreme(f, breathHalf, (a, b) => a <= b);
  const p2p = new Float64Array(f.length);
  for (let i = 0; i < f.length; i++) p2p[i] = hi[i] - lo[i];
  const largest = movingExtreme(p2p, Math.round(SCALE_S * rate), (a, b) => a >= b);
  for (let i = 0; i < f.length; i++) largest[i] = largest[i] > 0 ? HYSTERESIS * largest[i] : Number.NaN;
  return largest;
}

/** Mean absolute flow over [a, b): a breath's size, so that a breath reduced over part of its length reads partly reduced. */
function meanAbs(f: Float64Array, a: number, b: number): number {
  let sum = 0;
  let c = 0;
  for (let k = a; k < b; k++) {
    if (Number.isFinite(f[k])) {
      sum += Math.abs(f[k]);
      c++;
    }
  }
  return c > 0 ? sum / c : Number.NaN;
}

/** Index of the segment holding grid index i. */
export function segmentAt(b: Breaths, i: number): number {
  let lo = 0;
  let hi = b.start.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (b.start[mid] <= i) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

/** Grid index after segment k. */
export const segmentEnd = (b: Breaths, k: number) => (k + 1 < b.start.length ? b.start[k + 1] : b.end);

