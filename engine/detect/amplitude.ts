import type { Series } from './series';

/**
 * Breath-by-breath amplitude of a breathing signal (flow, nasal pressure, thermistor,
 * effort belt, radar displacement), whatever its rate (0.5 Hz … 256 Hz and beyond).
 *
 * The signal is brought to at most 10 samples/s by block averaging (a low-pass that keeps
 * breathing, 0.1–0.7 Hz), smoothed over 0.8 s (cardiogenic oscillation and sensor noise,
 * ≥ 1 Hz, would otherwise fill in apneas), detrended by its centred 10-s mean (CPAP leak,
 * belt drift, radar body position), and the amplitude at each sample is the peak-to-peak
 * (max − min) over a centred window of `windowS` seconds, longer than one breath.
 *
 * Why peak-to-peak and not an RMS envelope: a window holding one normal breath and the
 * start of an apnea keeps its full peak-to-peak, so the stretch where the amplitude is low
 * is exactly the flat stretch shortened by one window; adding the window back gives the
 * event's real length (an RMS window shortens events by an amount that depends on the
 * breath's shape, which made 10–16 s apneas look shorter than 10 s).
 */
export interface Amplitude {
  /** Peak-to-peak amplitude per grid sample; NaN where the window holds under half valid samples. */
  values: Float32Array;
  /** Grid rate, samples/s. */
  rate: number;
  /** Time of grid sample 0, ms UTC. */
  t0: number;
  /** The peak-to-peak window, s: a low stretch of the amplitude is an event shortened by about this. */
  windowS: number;
  /** The smoothed signal on the same grid (NaN where missing), for locating event edges. */
  signal: Float32Array;
}

/** Highest rate the amplitude is computed at; breathing has nothing above 1 Hz. */
const MAX_GRID_HZ = 10;
const SMOOTH_S = 0.8;
const AMPLITUDE_WINDOW_S = 6;

/**
 * The breathing amplitude of a series (see {@link Amplitude}). Cost O(samples): block
 * averages and running sums, and a monotonic deque for the moving max and min.
 */
export function breathingAmplitude(s: Series, windowS = AMPLITUDE_WINDOW_S): Amplitude {
  const block = Math.max(1, Math.round(s.rate / MAX_GRID_HZ));
  const rate = s.rate / block;
  const n = Math.floor(s.values.length / block);
  const x = new Float64Array(n);
  const ok = new Uint8Array(n);
  for (let i = 0; i < n; i++) {
    let sum = 0;
    let c = 0;
    for (let j = i * block; j < (i + 1) * block; j++) {
      const v = s.values[j];
      if (Number.isFinite(v)) {
        sum += v;
        c++;
      }
    }
    // A block with under half its samples valid is missing: never invent breathing.
    if (c * 2 >= block && c > 0) {
      x[i] = sum / c;
      ok[i] = 1;
    } else x[i] = Number.NaN;
  }
  const smoothed = rate >= 4 ? movingMean(x, ok, Math.round((SMOOTH_S * rate) / 2)) : x;
  // No detrending: max − min ignores a level, and a moving-mean detrend would turn the step
  // of a breath held at end-expiration (radar, belts) into a ramp that fills in the apnea.
  const d = new Float64Array(n);
  for (let i = 0; i < n; i++) d[i] = ok[i] ? smoothed[i] : Number.NaN;
  const half = Math.max(1, Math.round((windowS * rate) / 2));
  const hi = movingExtreme(d, half, (a, b) => a >= b);
  const lo = movingExtreme(d, half, (a, b) => a <= b);
  // Valid-sample counts per window, to refuse windows mostly made of gaps.
  const cnt = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) cnt[i + 1] = cnt[i] + ok[i];
  const values = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - half);
    const b = Math.min(n, i + half + 1);
    const valid = cnt[b] - cnt[a];
    // A lone missing sample does not break the amplitude; a window mostly missing does.
    values[i] = valid * 2 >= b - a && Number.isFinite(hi[i]) ? hi[i] - lo[i] : Number.NaN;
  }
  return { values, rate, t0: s.t0 + ((block - 1) / 2) * (1000 / s.rate), windowS: (2 * half) / rate, signal: Float32Array.from(d) };
}

/** Centred mean of the valid samples within ±half; NaN where none. */
export function movingMean(x: Float64Array, ok: Uint8Array, half: number): Float64Array {
  const n = x.length;
  const sum = new Float64Array(n + 1);
  const cnt = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    sum[i + 1] = sum[i] + (ok[i] ? x[i] : 0);
    cnt[i + 1] = cnt[i] + ok[i];
  }
  const out = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - half);
    const b = Math.min(n, i + half + 1);
    const c = cnt[b] - cnt[a];
    out[i] = c > 0 ? (sum[b] - sum[a]) / c : Number.NaN;
  }
  return out;
}

/** Centred moving max (better = ≥) or min (better = ≤) over ±half, skipping NaN, by a monotonic deque. */
export function movingExtreme(x: Float64Array, half: number, better: (a: number, b: number) => boolean): Float64Array {
  const n = x.length;
  const out = new Float64Array(n);
  const q = new Int32Array(n);
  let head = 0;
  let tail = 0;
  let next = 0;
  for (let i = 0; i < n; i++) {
    const right = Math.min(n - 1, i + half);
    for (; next <= right; next++) {
      if (!Number.isFinite(x[next])) continue;
      while (tail > head && better(x[next], x[q[tail - 1]])) tail--;
      q[tail++] = next;
    }
    while (tail > head && q[head] < i - half) head++;
    out[i] = tail > head ? x[q[head]] : Number.NaN;
  }
  return out;
}
