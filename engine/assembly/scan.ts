// SIMD min/max scans into two v128 accumulators. pmin/pmax keep the
// accumulator when the other operand is NaN, so missing samples (NaN) drop
// out without a branch. Min and max are idempotent, so a range of 4 or more
// is covered with overlapping loads (the last load ends exactly at `to`) and
// needs no scalar tail.

let accMin: v128 = f32x4.splat(Infinity);
let accMax: v128 = f32x4.splat(-Infinity);

/** Result of scanFinish (AssemblyScript has no tuples). */
export let scanMin: f32 = Infinity;
export let scanMax: f32 = -Infinity;

/** Starts a new min/max accumulation. */
@inline
export function scanReset(): void {
  accMin = f32x4.splat(Infinity);
  accMax = f32x4.splat(-Infinity);
}

/**
 * Folds mins[from..to) into the min accumulator and maxs[from..to) into the
 * max accumulator (for raw samples both point at the values).
 */
@inline
export function scanInto(mins: usize, maxs: usize, from: i32, to: i32): void {
  const len = to - from;
  if (len <= 0) return;
  let vmin = accMin;
  let vmax = accMax;
  if (len >= 4) {
    const last = <usize>(to - 4) << 2;
    let off = <usize>from << 2;
    for (; off < last; off += 16) {
      vmin = f32x4.pmin(vmin, v128.load(mins + off));
      vmax = f32x4.pmax(vmax, v128.load(maxs + off));
    }
    vmin = f32x4.pmin(vmin, v128.load(mins + last));
    vmax = f32x4.pmax(vmax, v128.load(maxs + last));
  } else {
    for (let i = from; i < to; i++) {
      const off = <usize>i << 2;
      vmin = f32x4.pmin(vmin, f32x4.splat(load<f32>(mins + off)));
      vmax = f32x4.pmax(vmax, f32x4.splat(load<f32>(maxs + off)));
    }
  }
  accMin = vmin;
  accMax = vmax;
}

/** Reduces the accumulators into scanMin and scanMax (+Inf/-Inf when nothing valid was seen). */
export function scanFinish(): void {
  const a = accMin;
  const b = accMax;
  const m2 = f32x4.pmin(a, v128.shuffle<u32>(a, a, 2, 3, 0, 1));
  const x2 = f32x4.pmax(b, v128.shuffle<u32>(b, b, 2, 3, 0, 1));
  const m1 = f32x4.pmin(m2, v128.shuffle<u32>(m2, m2, 1, 0, 3, 2));
  const x1 = f32x4.pmax(x2, v128.shuffle<u32>(x2, x2, 1, 0, 3, 2));
  scanMin = f32x4.extract_lane(m1, 0);
  scanMax = f32x4.extract_lane(x1, 0);
}

/** Min and max of mins[from..to) / maxs[from..to) into scanMin and scanMax. */
export function scanRange(mins: usize, maxs: usize, from: i32, to: i32): void {
  scanReset();
  scanInto(mins, maxs, from, to);
  scanFinish();
}
