/** Per-second series helpers: coloured noise and first-order smoothing, on typed arrays. */
import type { Rng } from './prng';

/** AR(1) noise of n samples with time constant `tau` (samples) and stationary standard deviation `sigma`. */
export function ar1Noise(n: number, rng: Rng, tau: number, sigma: number): Float32Array {
  const out = new Float32Array(n);
  const a = Math.exp(-1 / tau);
  const drive = sigma * Math.sqrt(1 - a * a);
  let x = sigma * rng.gauss();
  for (let i = 0; i < n; i++) {
    x = a * x + drive * rng.gauss();
    out[i] = x;
  }
  return out;
}

/** First-order low-pass with time constant `tau` (samples), in place; starts at the first value. */
export function smooth(x: Float32Array, tau: number): Float32Array {
  if (x.length === 0) return x;
  const k = 1 - Math.exp(-1 / tau);
  let y = x[0]!;
  for (let i = 0; i < x.length; i++) {
    y += (x[i]! - y) * k;
    x[i] = y;
  }
  return x;
}

/** Raised-cosine ramp from 0 (u ≤ 0) to 1 (u ≥ 1). */
export function ramp(u: number): number {
  if (u <= 0) return 0;
  if (u >= 1) return 1;
  return 0.5 - 0.5 * Math.cos(Math.PI * u);
}
