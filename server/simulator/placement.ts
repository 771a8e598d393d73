/** Placing intervals on a per-second grid: a free/taken map and a weighted draw of seconds. */
import type { Rng } from './prng';

/** Which seconds of the night are taken. */
export class Occupancy {
  readonly taken: Uint8Array;
  constructor(readonly length: number) {
    this.taken = new Uint8Array(length);
  }

  /** True when every second of [from, to) is inside the night and free. */
  isFree(from: number, to: number): boolean {
    if (from < 0 || to > this.length) return false;
    for (let s = from; s < to; s++) if (this.taken[s]) return false;
    return true;
  }

  /** Marks [from, to), clipped to the night. */
  take(from: number, to: number): void {
    const a = Math.max(0, from);
    const b = Math.min(this.length, to);
    for (let s = a; s < b; s++) this.taken[s] = 1;
  }
}

/** Draws indices with probability proportional to their weight (cumulative sums + binary search). */
export class WeightedDraw {
  private readonly cumulative: Float64Array;
  readonly total: number;
  constructor(weights: ArrayLike<number>) {
    this.cumulative = new Float64Array(weights.length);
    let sum = 0;
    for (let i = 0; i < weights.length; i++) {
      sum += weights[i]!;
      this.cumulative[i] = sum;
    }
    this.total = sum;
  }

  /** An index, or -1 when every weight is zero. */
  draw(rng: Rng): number {
    if (this.total <= 0) return -1;
    const target = rng.next() * this.total;
    let lo = 0;
    let hi = this.cumulative.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (this.cumulative[mid]! > target) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}
