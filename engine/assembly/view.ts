// M4 views: per pixel column the first, min, max and last valid sample.
// Column c holds samples [bound(a + c * b), bound(a + (c + 1) * b)) where
// a is the window start and b the column width, both in samples (f64), and
// bound(x) = clamp(ceil(x), 0, n).
//
// Output at `out` for P columns (the JS face slices it into typed arrays):
//   f32 x[P]      column centre in ms from the view origin: (c + 0.5) * pxMs
//   f32 first[P]  NaN when the column has no valid sample
//   f32 min[P]
//   f32 max[P]
//   f32 last[P]
//   u8  flags[P]  GAP_BEFORE: a missing sample lies between the previous valid
//                 sample of the window (or the window start) and this column's first
import { Channel, value, isValid } from './layout';
import { rangeMinMax, nextValid, prevValid } from './pyramid';
import { scanRange, scanReset, scanMin, scanMax } from './scan';

export const GAP_BEFORE: u8 = 1;

@inline
function bound(x: f64, n: i32): i32 {
  const c = Math.ceil(x);
  return c <= 0 ? 0 : c >= <f64>n ? n : <i32>c;
}

/** Bytes `view` writes for `pixels` columns. */
export function viewBytes(pixels: i32): i32 {
  return pixels * 21;
}

@inline
function writeColumn(out: usize, pixels: i32, c: i32, first: f32, lo: f32, hi: f32, last: f32, flags: u8): void {
  const col = <usize>c << 2;
  const stride = <usize>pixels << 2;
  store<f32>(out + stride + col, first);
  store<f32>(out + stride * 2 + col, lo);
  store<f32>(out + stride * 3 + col, hi);
  store<f32>(out + stride * 4 + col, last);
  store<u8>(out + stride * 5 + <usize>c, flags);
}

@inline
function writeX(out: usize, c: i32, pxMs: f64): void {
  store<f32>(out + (<usize>c << 2), <f32>((<f64>c + 0.5) * pxMs));
}

/** M4 view built on the pyramid: cost O(pixels * FANOUT * levels). */
export function view(handle: usize, a: f64, b: f64, pixels: i32, pxMs: f64, out: usize): void {
  const ch = changetype<Channel>(handle);
  const n = ch.n;
  let lastValid = bound(a, n) - 1;
  let s = bound(a, n);
  for (let c = 0; c < pixels; c++) {
    writeX(out, c, pxMs);
    const e = bound(a + <f64>(c + 1) * b, n);
    const f = nextValid(ch, s, e);
    if (f >= e) {
      writeColumn(out, pixels, c, <f32>NaN, <f32>NaN, <f32>NaN, <f32>NaN, 0);
    } else {
      const l = prevValid(ch, e, f);
      rangeMinMax(ch, f, l + 1);
      writeColumn(out, pixels, c, value(ch, f), scanMin, scanMax, value(ch, l), f > lastValid + 1 ? GAP_BEFORE : 0);
      lastValid = l;
    }
    s = e > s ? e : s;
  }
}

/**
 * The same M4 by scanning every raw sample of the window (no pyramid):
 * the reference for throughput against memcpy.
 */
export function viewScan(handle: usize, a: f64, b: f64, pixels: i32, pxMs: f64, out: usize): void {
  const ch = changetype<Channel>(handle);
  const n = ch.n;
  let lastValid = bound(a, n) - 1;
  let s = bound(a, n);
  for (let c = 0; c < pixels; c++) {
    writeX(out, c, pxMs);
    const e = bound(a + <f64>(c + 1) * b, n);
    let f = s;
    while (f < e && !isValid(value(ch, f))) f++;
    if (f >= e) {
      writeColumn(out, pixels, c, <f32>NaN, <f32>NaN, <f32>NaN, <f32>NaN, 0);
    } else {
      let l = e - 1;
      while (!isValid(value(ch, l))) l--;
      scanReset();
      scanRange(ch.values, ch.values, f, l + 1);
      writeColumn(out, pixels, c, value(ch, f), scanMin, scanMax, value(ch, l), f > lastValid + 1 ? GAP_BEFORE : 0);
      lastValid = l;
    }
    s = e > s ? e : s;
  }
}

/** Copies `bytes` within the engine's memory (the memcpy peer of the benchmark). */
export function copyBytes(dst: usize, src: usize, bytes: usize): void {
  memory.copy(dst, src, bytes);
}
