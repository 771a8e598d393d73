// SIMD min/max scans. pmin/pmax keep the accumulator when the other operand
// is NaN, so missing samples (NaN) drop out without a branch.

/** Result of the last scan (AssemblyScript has no tuples). */
export let scanMin: f32 = Infinity;
export let scanMax: f32 = -Infinity;

/** Starts a new min/max accumulation. */
@inline
export function scanReset(): void {
  scanMin = <f32>Infinity;
  scanMax = <f32>-Infinity;
}

/**
 * Folds mins[from..to) into scanMin and maxs[from..to) into scanMax
 * (for raw samples both point at the values).
 */
export function scanRange(mins: usize, maxs: usize, from: i32, to: i32): void {
  let i = from;
  if (to - i >= 8) {
    let vmin = f32x4.splat(scanMin);
    let vmax = f32x4.splat(scanMax);
    for (; i + 4 <= to; i += 4) {
      const off = <usize>i << 2;
      vmin = f32x4.pmin(vmin, v128.load(mins + off));
      vmax = f32x4.pmax(vmax, v128.load(maxs + off));
    }
    let m = f32x4.extract_lane(vmin, 0);
    let x = f32x4.extract_lane(vmax, 0);
    const m1 = f32x4.extract_lane(vmin, 1), m2 = f32x4.extract_lane(vmin, 2), m3 = f32x4.extract_lane(vmin, 3);
    const x1 = f32x4.extract_lane(vmax, 1), x2 = f32x4.extract_lane(vmax, 2), x3 = f32x4.extract_lane(vmax, 3);
    if (m1 < m) m = m1;
    if (m2 < m) m = m2;
    if (m3 < m) m = m3;
    if (x1 > x) x = x1;
    if (x2 > x) x = x2;
    if (x3 > x) x = x3;
    scanMin = m;
    scanMax = x;
  }
  let m = scanMin;
  let x = scanMax;
  for (; i < to; i++) {
    const off = <usize>i << 2;
    const a = load<f32>(mins + off);
    const b = load<f32>(maxs + off);
    if (a < m) m = a;
    if (b > x) x = b;
  }
  scanMin = m;
  scanMax = x;
}
