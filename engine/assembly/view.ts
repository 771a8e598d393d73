// M4 views: per pixel column the first, min, max and last valid sample.
// a is the window start and b the column width, both in samples (f64);
// bound(x) = clamp(ceil(x), 0, n). Column c holds samples
// [boundary(c), boundary(c + 1)) where boundary(0) = bound(a),
// boundary(P) = bound(a + P * b), and an interior boundary is bound(a + c * b)
// or, once a column spans 2 level-0 blocks (64 samples) or more, a + c * b
// rounded to the nearest multiple of `snap` (snapOf): the largest block size
// L0_SIZE * 4^k with snap * 4 <= b, and at least L0_SIZE.
//
// Snapping moves a boundary by at most 1/8 of a column (1/4 for columns of
// 64 to 128 samples): invisible, and every inner column becomes a run of
// whole blocks of one pyramid level (2 to 15 at level 0, 4 to 15 above). The
// view reads that level's records in order, so consecutive columns read
// consecutive memory, and never a raw sample: a record holds its block's min,
// max, first and last valid values, and two edge bits per level-0 block say
// whether a block's first and last samples are missing (layout.ts).
// Narrower columns are scanned sample by sample.
//
// Output at `out` for P columns (the JS face slices it into typed arrays):
//   f32 x[P]      column centre in ms from the view origin: (c + 0.5) * pxMs
//   f32 first[P]  NaN when the column has no valid sample
//   f32 min[P]
//   f32 max[P]
//   f32 last[P]
//   u8  flags[P]  GAP_BEFORE: a missing sample lies between the previous valid
//                 sample of the window (or the window start) and this column's first
import { Channel, L0_SIZE, L0_SHIFT, FANOUT_SHIFT, value, isValid, levelBase, edgeBits } from './layout';
import { rangeMinMax, nextValid, prevValid } from './pyramid';
import { scanRange, scanMin, scanMax } from './scan';

export const GAP_BEFORE: u8 = 1;

/** Above level 0, a snapped column spans at least this many blocks. */
const SNAP_BLOCKS: i32 = 4;

@inline
function bound(x: f64, n: i32): i32 {
  const c = Math.ceil(x);
  return c <= 0 ? 0 : c >= <f64>n ? n : <i32>c;
}

/** Grid interior boundaries snap to (0: none); the same rule as viewSnap in engine/time.ts. */
export function snapOf(b: f64): f64 {
  if (b < <f64>(L0_SIZE * 2)) return 0;
  let snap: f64 = <f64>L0_SIZE;
  // The bound on snap only guards against absurd widths (the face refuses them).
  while (snap * <f64>(SNAP_BLOCKS << FANOUT_SHIFT) <= b && snap < 1e15) snap *= <f64>(1 << FANOUT_SHIFT);
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

/** Smallest lane of v (pmin ignores NaN lanes of its second operand). */
@inline
function minLane(v: v128): f32 {
  const m = f32x4.pmin(v, v128.shuffle<u32>(v, v, 2, 3, 0, 1));
  return f32x4.extract_lane(f32x4.pmin(m, v128.shuffle<u32>(m, m, 1, 0, 3, 2)), 0);
}

/** Largest lane of v. */
@inline
function maxLane(v: v128): f32 {
  const m = f32x4.pmax(v, v128.shuffle<u32>(v, v, 2, 3, 0, 1));
  return f32x4.extract_lane(f32x4.pmax(m, v128.shuffle<u32>(m, m, 1, 0, 3, 2)), 0);
}

/**
 * Writes column c of [s, e) (s < e) from the raw samples and the pyramid,
 * any s and e; returns whether its last sample is missing (gapPending).
 */
@inline
function anyColumn(ch: Channel, out: usize, pixels: i32, c: i32, s: i32, e: i32, gapPending: bool): bool {
  // Usually the column's first and last samples are valid: skip the searches.
  const f = isValid(value(ch, s)) ? s : nextValid(ch, s, e);
  if (f >= e) {
    writeEmpty(out, pixels, c);
    return true;
  }
  const l = isValid(value(ch, e - 1)) ? e - 1 : prevValid(ch, e, f);
  let lo: f32;
  let hi: f32;
  if (l - f < 2 * L0_SIZE) {
    // A short run: SIMD pmin/pmax over the samples (NaN lanes drop out);
    // four or more with overlapping loads, fewer one at a time.
    let vmin = f32x4.splat(Infinity);
    let vmax = f32x4.splat(-Infinity);
    const from = ch.values + (<usize>f << 2);
    const to = ch.values + (<usize>(l + 1) << 2);
    if (to - from >= 16) {
      let p = from;
      for (; p + 16 < to; p += 16) {
        const v = v128.load(p);
        vmin = f32x4.pmin(vmin, v);
        vmax = f32x4.pmax(vmax, v);
      }
      const v = v128.load(to - 16);
      vmin = f32x4.pmin(vmin, v);
      vmax = f32x4.pmax(vmax, v);
    } else {
      for (let p = from; p < to; p += 4) {
        const v = f32x4.splat(load<f32>(p));
        vmin = f32x4.pmin(vmin, v);
        vmax = f32x4.pmax(vmax, v);
      }
    }
    lo = minLane(vmin);
    hi = maxLane(vmax);
  } else {
    rangeMinMax(ch, f, l + 1);
    lo = scanMin;
    hi = scanMax;
  }
  writeColumn(out, pixels, c, value(ch, f), lo, hi, value(ch, l), gapPending || f > s ? GAP_BEFORE : 0);
  return l < e - 1;
}

/**
 * M4 view built on the pyramid: cost O(pixels * blocks per column), reading
 * one level of it in order when the columns snap (see the header).
 */
export function view(handle: usize, a: f64, b: f64, pixels: i32, pxMs: f64, out: usize): void {
  const ch = changetype<Channel>(handle);
  const n = ch.n;
  const snap = snapOf(b);
  for (let c = 0; c < pixels; c++) writeX(out, c, pxMs);
  // The snapped level: blocks of `snap` samples (none above the pyramid's top).
  const shift = snap == 0 ? 0 : <i32>ctz(<i64>snap);
  const k = snap == 0 ? -1 : (shift - L0_SHIFT) / FANOUT_SHIFT;
  if (k < 0 || k >= ch.levels) {
    // `gapPending`: a missing sample followed the last valid one seen.
    let gapPending = false;
    let s = bound(a, n);
    for (let c = 0; c < pixels; c++) {
      const e = boundary(a, b, snap, pixels, c + 1, n);
      if (e <= s) {
        writeEmpty(out, pixels, c);
        continue;
      }
      gapPending = anyColumn(ch, out, pixels, c, s, e, gapPending);
      s = e;
    }
    return;
  }
  blockColumns(ch, a, b, pixels, out, snap, shift, k);
}

/** The columns of a snapped view from the records of level k (blocks of snap = 1 << shift samples). */
function blockColumns(ch: Channel, a: f64, b: f64, pixels: i32, out: usize, snap: f64, shift: i32, k: i32): void {
  const n = ch.n;
  const stride = <usize>pixels << 2;
  const outFirst = out + stride;
  const outMin = outFirst + stride;
  const outMax = outMin + stride;
  const outLast = outMax + stride;
  const outFlags = outLast + stride;
  const mask = (1 << shift) - 1;
  const base = levelBase(ch, k);
  // Level-0 blocks in a block of this level: 1 << levelShift.
  const levelShift = k * FANOUT_SHIFT;
  const inv = 1.0 / snap;
  let gapPending = false;
  let s = bound(a, n);
  for (let c = 0; c < pixels; c++) {
    let e: i32;
    if (c + 1 == pixels) {
      e = bound(a + <f64>pixels * b, n);
    } else {
      const y = Math.floor((a + <f64>(c + 1) * b) * inv + 0.5) * snap;
      e = y <= 0 ? 0 : y >= <f64>n ? n : <i32>y;
    }
    if (e <= s) {
      writeEmpty(out, pixels, c);
      continue;
    }
    if ((s & mask) != 0 || ((e & mask) != 0 && e != n)) {
      // The window's first or last column: its outer edge is exact.
      gapPending = anyColumn(ch, out, pixels, c, s, e, gapPending);
      s = e;
      continue;
    }
    // Whole blocks [i0, i1). Lane 0 of a record is its block's min and
    // lane 1 its max; lanes 2 and 3 (first, last) lie between them, so
    // they never win, and all four are NaN in a block without valid samples.
    const i0 = s >> shift;
    const i1 = (e + mask) >> shift;
    const to = base + (<usize>i1 << 4);
    let vmin = f32x4.splat(Infinity);
    let vmax = f32x4.splat(-Infinity);
    for (let p = base + (<usize>i0 << 4); p < to; p += 16) {
      const v = v128.load(p);
      vmin = f32x4.pmin(vmin, v);
      vmax = f32x4.pmax(vmax, v);
    }
    const lo = f32x4.extract_lane(vmin, 0);
    const hi = f32x4.extract_lane(vmax, 1);
    if (lo > hi) {
      writeEmpty(out, pixels, c);
      gapPending = true;
      s = e;
      continue;
    }
    // First and last valid values: from the end records, or, when an end
    // block has no valid sample, the nearest record inward that has one
    // (just read). The edge bits say whether the column's first and last
    // samples are missing.
    let p = base + (<usize>i0 << 4);
    let first = load<f32>(p + 8);
    let firstMissing = true;
    if (isValid(first)) {
      firstMissing = (edgeBits(ch, i0 << levelShift) & 1) != 0;
    } else {
      do p += 16; while (!isValid(load<f32>(p + 8)));
      first = load<f32>(p + 8);
    }
    p = to - 16;
    let last = load<f32>(p + 12);
    let lastMissing = true;
    if (isValid(last)) {
      let j = (i1 << levelShift) - 1;
      if (j >= ch.nb0) j = ch.nb0 - 1;
      lastMissing = (edgeBits(ch, j) & 2) != 0;
    } else {
      do p -= 16; while (!isValid(load<f32>(p + 12)));
      last = load<f32>(p + 12);
    }
    const col = <usize>c << 2;
    store<f32>(outFirst + col, first);
    store<f32>(outMin + col, lo);
    store<f32>(outMax + col, hi);
    store<f32>(outLast + col, last);
    store<u8>(outFlags + <usize>c, gapPending || firstMissing ? GAP_BEFORE : 0);
    gapPending = lastMissing;
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
