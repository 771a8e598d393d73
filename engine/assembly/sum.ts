/**
 * Sum of `n` float32 values at `ptr`, accumulated in float64 lanes so the
 * result matches a plain JS loop to rounding. Four lanes per step, scalar tail.
 */
export function sumF32(ptr: usize, n: i32): f64 {
  let acc0 = f64x2.splat(0);
  let acc1 = f64x2.splat(0);
  const end4 = n & ~3;
  let i = 0;
  for (; i < end4; i += 4) {
    const v = v128.load(ptr + (<usize>i << 2));
    acc0 = f64x2.add(acc0, f64x2.promote_low_f32x4(v));
    acc1 = f64x2.add(acc1, f64x2.promote_low_f32x4(v128.shuffle<u32>(v, v, 2, 3, 0, 1)));
  }
  let s = f64x2.extract_lane(acc0, 0) + f64x2.extract_lane(acc0, 1)
        + f64x2.extract_lane(acc1, 0) + f64x2.extract_lane(acc1, 1);
  for (; i < n; i++) s += <f64>load<f32>(ptr + (<usize>i << 2));
  return s;
}
