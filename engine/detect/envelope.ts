import type { Series } from './series';

/**
 * Breathing amplitude once a second: the RMS of the signal around its 10-s moving mean,
 * over a centred window of `windowS` seconds. NaN where the window holds fewer than half
 * valid samples. Cost O(samples) through running sums.
 */
export function breathingEnvelope(s: Series, windowS = 4, detrendS = 10, smoothS = 1): Float32Array {
  const n = s.values.length;
  const seconds = Math.floor(n / s.rate);
  const sum = new Float64Array(n + 1);
  const cnt = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const v = s.values[i];
    const ok = Number.isFinite(v);
    sum[i + 1] = sum[i] + (ok ? v : 0);
    cnt[i + 1] = cnt[i] + (ok ? 1 : 0);
  }
  const halfD = Math.round((detrendS * s.rate) / 2);
  // A 1-s moving average first: keeps breathing (0.1–0.5 Hz), removes cardiogenic
  // oscillation and sensor noise (≥ 1 Hz), which would otherwise fill in apneas.
  const halfS = Math.max(0, Math.round((smoothS * s.rate) / 2));
  const smooth = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const a = Math.max(0, i - halfS);
    const b = Math.min(n, i + halfS + 1);
    const c = cnt[b] - cnt[a];
    smooth[i] = Number.isFinite(s.values[i]) && c > 0 ? (sum[b] - sum[a]) / c : Number.NaN;
  }
  // Squared deviation from the local mean, and its running sums.
  const sq = new Float64Array(n + 1);
  const sqCnt = new Float64Array(n + 1);
  for (let i = 0; i < n; i++) {
    const v = smooth[i];
    const a = Math.max(0, i - halfD);
    const b = Math.min(n, i + halfD + 1);
    const c = cnt[b] - cnt[a];
    const ok = Number.isFinite(v) && c > 0;
    const d = ok ? v - (sum[b] - sum[a]) / c : 0;
    sq[i + 1] = sq[i] + d * d;
    sqCnt[i + 1] = sqCnt[i] + (ok ? 1 : 0);
  }
  const env = new Float32Array(seconds);
  const halfW = Math.round((windowS * s.rate) / 2);
  for (let t = 0; t < seconds; t++) {
    const centre = Math.round((t + 0.5) * s.rate);
    const a = Math.max(0, centre - halfW);
    const b = Math.min(n, centre + halfW);
    const c = sqCnt[b] - sqCnt[a];
    env[t] = c >= (b - a) / 2 && c > 0 ? Math.sqrt((sq[b] - sq[a]) / c) : Number.NaN;
  }
  return env;
}
