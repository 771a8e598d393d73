/**
 * Seeded randomness. mulberry32 is small, fast and good enough for synthetic
 * physiology; each part of the simulator draws from its own named stream so a
 * change in one part does not shift the draws of the others.
 */

/** A deterministic random source. */
export interface Rng {
  /** Uniform in [0, 1). */
  next(): number;
  /** Uniform in [lo, hi). */
  uniform(lo: number, hi: number): number;
  /** Uniform in a [lo, hi) pair. */
  between(range: readonly [number, number] | readonly number[]): number;
  /** Integer in [lo, hi]. */
  int(lo: number, hi: number): number;
  /** Standard normal (Box–Muller, second value cached). */
  gauss(): number;
  /** Exponential with the given mean. */
  exp(mean: number): number;
  /** Poisson count with the given mean (Knuth; means here are small). */
  poisson(mean: number): number;
  /** True with probability p. */
  chance(p: number): boolean;
}

/** 32-bit FNV-1a hash of a string, used to turn seeds and stream names into PRNG states. */
function hash32(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** A mulberry32 generator over a 32-bit state. */
function mulberry32(state: number): Rng {
  let a = state >>> 0;
  let spare = 0;
  let hasSpare = false;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const rng: Rng = {
    next,
    uniform: (lo, hi) => lo + (hi - lo) * next(),
    between: (range) => range[0]! + (range[1]! - range[0]!) * next(),
    int: (lo, hi) => lo + Math.floor((hi - lo + 1) * next()),
    gauss: () => {
      if (hasSpare) {
        hasSpare = false;
        return spare;
      }
      let u = next();
      while (u <= 1e-12) u = next();
      const v = next();
      const r = Math.sqrt(-2 * Math.log(u));
      spare = r * Math.sin(2 * Math.PI * v);
      hasSpare = true;
      return r * Math.cos(2 * Math.PI * v);
    },
    exp: (mean) => -mean * Math.log(1 - next()),
    poisson: (mean) => {
      const limit = Math.exp(-mean);
      let k = 0;
      let p = next();
      while (p > limit) {
        k++;
        p *= next();
      }
      return k;
    },
    chance: (p) => next() < p,
  };
  return rng;
}

/** The named stream `name` of the seed `seed`: same pair, same sequence. */
export function stream(seed: number | string, name: string): Rng {
  return mulberry32(hash32(`${String(seed)}\u0000${name}`));
}
