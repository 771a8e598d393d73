// M4 views: per pixel column the first, min, max and last valid sample.
// a is the window start and b the column width, both in samples (f64);
// bound(x) = clamp(ceil(x), 0, n). Column c holds samples
// [boundary(c), boundary(c + 1)) where boundary(0) = bound(a),
// boundary(P) = bound(a + P * b), and an interior boundary is bound(a + c * b)
// or, once a column spans 16 level-0 blocks (256 samples) or more, a + c * b
// rounded to the nearest multiple of `snap`: the largest L0_SIZE * 16^k with
// snap * 16 <= b.
// Snapping moves a boundary by at most 1/32 of a column (invisible) and lets
// whole pyramid blocks answer the column's min and max: no raw edge scans,
// only its first and last samples are read.
//
// Output at `out` for P columns (the JS face slices it into typed arrays):
//   f32 x[P]      column centre in ms from the view origin: (c + 0.5) * pxMs
//   f32 first[P]  NaN when the column has no valid sample
//   f32 min[P]
//   f32 max[P]
//   f32 last[P]
//   u8  flags[P]  GAP_BEFORE: a missing sample lies between the previous valid
//                 sample of the window (or the window start) and this column's first
import { Channel, L0_SIZE, value, isValid } from './layout';
import { rangeMinMax, nextValid, prevValid } from './pyramid';
import { scanRange, scanMin, scanMax } from './scan';

export const GAP_BEFORE: u8 = 1;

@inline
function bound(x: f64, n: i32): i32 {
  const c = Math.ceil(x);
  return c <= 0 ? 0 : c >= <f64>n ? n : <i32>c;
}

/** Grid interior boundaries snap to (0: none); the same rule as engine/time.ts. */
export function snapOf(b: f64): f64 {
  if (b < <f64>(L0_SIZE * 16)) return 0;
  let snap: f64 = <f64>L0_SIZE;
  // The bound on snap only guards against absurd widths (the face refuses them).
  while (snap * 256 <= b && snap < 1e15) snap *= 16;
  return snap;
}

/** Start of column c (see the header). */
@inline
function boundary(a: f64, b: f64, snap: f64, pixels: i32, c: i32, n: i32): i32 {
  const x = a + <f64>c * b;
  if (snap == 0 || c == 0 || c == pixels) return bound(x, n);
  // snap is a power of two, so multiplying by its reciprocal equals dividing (and is faster).
  const y = Math.floor(x * (1.0 / snap) + 0.5) * snap;
  return y <= 0 ? 0 : y >= <f64>n ? n : <i32>y;
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

@inline
function writeEmpty(out: usize, pixels: i32, c: i32): void {
  writeColumn(out, pixels, c, <f32>NaN, <f32>NaN, <f32>NaN, <f32>NaN, 0);
}

/**
 * M4 view built on the pyramid: cost O(pixels * FANOUT * levels).
 * `gapPending` says a missing sample followed the last valid one seen.
 */
export function view(handle: usize, a: f64, b: f64, pixels: i32, pxMs: f64, out: usize): void {
  const ch = changetype<Channel>(handle);
  const n = ch.n;
  const snap = snapOf(b);
  let gapPending = false;
  let s = bound(a, n);
  for (let c = 0; c < pixels; c++) {
    writeX(out, c, pxMs);
    const e = boundary(a, b, snap, pixels, c + 1, n);
    if (e <= s) {
      writeEmpty(out, pixels, c);
      continue;
    }
    // Usually the column's first and last samples are valid: skip the searches.
    const f = isValid(value(ch, s)) ? s : nextValid(ch, s, e);
    if (f >= e) {
      writeEmpty(out, pixels, c);
      gapPending = true;
      s = e;
      continue;
    }
    const l = isValid(value(ch, e - 1)) ? e - 1 : prevValid(ch, e, f);
    rangeMinMax(ch, s, e);
    writeColumn(out, pixels, c, value(ch, f), scanMin, scanMax, value(ch, l), gapPending || f > s ? GAP_BEFORE : 0);
    gapPending = l < e - 1;
    s = e;
  }
}

/**
 * The same M4 by scanning every raw sample of the window (no pyramid):
 * the reference for throughput against memcpy.
 */
export function viewScan(handle: usize, a: f64, b: f64, pixels: i32, pxMs: f64, out: usize): void {
  const ch = changetype<Channel>(handle);
  const n = ch.n;
  const snap = snapOf(b);
  let lastValid = bound(a, n) - 1;
  let s = bound(a, n);
  for (let c = 0; c < pixels; c++) {
    writeX(out, c, pxMs);
    const e = boundary(a, b, snap, pixels, c + 1, n);
    let f = s;
    while (f < e && !isValid(value(ch, f))) f++;
    if (f >= e) {
      writeColumn(out, pixels, c, <f32>NaN, <f32>NaN, <f32>NaN, <f32>NaN, 0);
    } else {
      let l = e - 1;
      while (!isValid(value(ch, l))) l--;
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
