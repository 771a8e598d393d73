// Deterministic synthetic signals for tests and benchmarks (seeded PRNG).

/** A seeded xorshift32 generator of floats in [0, 1). */
export function rng(seed: number): () => number {
  let x = seed >>> 0 || 0x9e3779b9;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x / 0x1_0000_0000;
  };
}

/** Options of a synthetic signal. */
export interface SyntheticOptions {
  samples: number;
  seed: number;
  /** Share of samples inside missing runs (approximate). */
  missingShare?: number;
  /** Mean length of a missing run, in samples. */
  missingRun?: number;
  /** Stored value written for missing samples; default -1 or -2 at random. */
  missingCode?: number;
  /** int16 samples (rounded) instead of float32. */
  int16?: boolean;
  /** Array to fill instead of a new one (benchmarks reuse one buffer). */
  into?: Float32Array | Int16Array;
}

/**
 * A breathing-like signal (slow sine, drift and noise) with runs of missing
 * codes. Values stay well away from -1 and -2 so only the runs are missing.
 */
export function syntheticSignal(options: SyntheticOptions): Float32Array | Int16Array {
  const { samples, seed, missingShare = 0, missingRun = 50, int16 = false } = options;
  const random = rng(seed);
  const out = options.into?.subarray(0, samples) ?? (int16 ? new Int16Array(samples) : new Float32Array(samples));
  const period = 20 + random() * 200;
  const amplitude = 50 + random() * 500;
  const base = 1000 + random() * 1000;
  let drift = 0;
  const startRun = missingShare > 0 ? missingShare / (missingRun * (1 - missingShare)) : 0;
  let runLeft = 0;
  for (let i = 0; i < samples; i++) {
    if (runLeft === 0 && random() < startRun) runLeft = 1 + Math.floor(random() * 2 * missingRun);
    if (runLeft > 0) {
      runLeft--;
      out[i] = options.missingCode ?? (random() < 0.5 ? -1 : -2);
      continue;
    }
    drift += (random() - 0.5) * 2;
    const v = base + drift + amplitude * Math.sin((2 * Math.PI * i) / period) + (random() - 0.5) * amplitude * 0.2;
    out[i] = int16 ? Math.round(v) : v;
  }
  return out;
}
