// Window statistics. Output layout (f64 at `out`):
//   [0] count  [1] min  [2] max  [3] mean  [4] p10  [5] p50  [6] p90
// Percentiles interpolate linearly between order statistics
// (rank p * (count - 1)); NaN everywhere but count when count is 0.
import { Channel, BINS, HB_SHIFT, HB_SIZE, binOf, isValid } from './layout';
import { rangeMinMax } from './pyramid';
import { scanMin, scanMax } from './scan';

const local = memory.data(BINS << 2, 16);
let winCount: i32 = 0;
let winSum: f64 = 0;

/** Adds sign * (histogram, count, sum) of valid samples in [from, to). */
function addRaw(ch: Channel, from: i32, to: i32, sign: i32): void {
  let c = 0;
  let s: f64 = 0;
  for (let i = from; i < to; i++) {
    const v = load<f32>(ch.values + (<usize>i << 2));
    if (isValid(v)) {
      const p = local + (<usize>binOf(ch, v) << 2);
      store<i32>(p, load<i32>(p) + sign);
      c++;
      s += <f64>v;
    }
  }
  winCount += sign * c;
  winSum += <f64>sign * s;
}

/** Block row whose cumulative counts give "samples before x" with the shortest raw edge. */
function prefixRow(ch: Channel, x: i32): i32 {
  const j = x >> HB_SHIFT;
  if (j >= ch.nbh) return ch.nbh;
  let end = (j + 1) << HB_SHIFT;
  if (end > ch.n) end = ch.n;
  const start = j << HB_SHIFT;
  return x - start <= end - x ? j : j + 1;
}

/** Fills `local`, winCount and winSum with the window [s, e). */
function windowHistogram(ch: Channel, s: i32, e: i32): void {
  const rs = prefixRow(ch, s);
  const re = prefixRow(ch, e);
  const rowE = ch.hist + (<usize>re * <usize>BINS << 2);
  const rowS = ch.hist + (<usize>rs * <usize>BINS << 2);
  for (let b = 0; b < BINS; b += 4) {
    const off = <usize>b << 2;
    v128.store(local + off, i32x4.sub(v128.load(rowE + off), v128.load(rowS + off)));
  }
  winCount = load<i32>(ch.cumCount + (<usize>re << 2)) - load<i32>(ch.cumCount + (<usize>rs << 2));
  winSum = load<f64>(ch.cumSum + (<usize>re << 3)) - load<f64>(ch.cumSum + (<usize>rs << 3));
  // Row r counts samples before r * HB_SIZE: correct towards x.
  const ps = rs << HB_SHIFT < ch.n ? rs << HB_SHIFT : ch.n;
  const pe = re << HB_SHIFT < ch.n ? re << HB_SHIFT : ch.n;
  if (ps < s) addRaw(ch, ps, s, -1);
  else addRaw(ch, s, ps, 1);
  if (pe < e) addRaw(ch, pe, e, 1);
  else addRaw(ch, e, pe, -1);
}

/** Estimate of the r-th smallest valid value (0-based) from `local`. */
function orderStatistic(ch: Channel, r: i32, count: i32, lo: f64, hi: f64): f64 {
  if (r <= 0) return lo;
  if (r >= count - 1) return hi;
  let cum = 0;
  for (let b = 0; b < BINS; b++) {
    const c = load<i32>(local + (<usize>b << 2));
    if (cum + c > r) {
      const est = ch.lo + (<f64>b + (<f64>(r - cum) + 0.5) / <f64>c) * ch.width;
      return est < lo ? lo : est > hi ? hi : est;
    }
    cum += c;
  }
  return hi;
}

function percentileFast(ch: Channel, p: f64, count: i32, lo: f64, hi: f64): f64 {
  const pos = p * <f64>(count - 1);
  const k = <i32>Math.floor(pos);
  const frac = pos - <f64>k;
  const a = orderStatistic(ch, k, count, lo, hi);
  if (frac == 0) return a;
  const b = orderStatistic(ch, k + 1, count, lo, hi);
  return a + frac * (b - a);
}

function writeEmpty(out: usize): void {
  store<f64>(out, 0);
  for (let i = 1; i < 7; i++) store<f64>(out + (<usize>i << 3), NaN);
}

/**
 * Fast statistics of [s, e): count, min and max exact (pyramid), mean from
 * cumulative sums, percentiles from the cumulative block histograms (error
 * below one bin, 1/BINS of the channel's value range).
 */
export function statsFast(handle: usize, s: i32, e: i32, out: usize): void {
  const ch = changetype<Channel>(handle);
  windowHistogram(ch, s, e);
  const count = winCount;
  if (count <= 0) {
    writeEmpty(out);
    return;
  }
  rangeMinMax(ch, s, e);
  const lo = <f64>scanMin;
  const hi = <f64>scanMax;
  store<f64>(out, <f64>count);
  store<f64>(out + 8, lo);
  store<f64>(out + 16, hi);
  store<f64>(out + 24, winSum / <f64>count);
  store<f64>(out + 32, percentileFast(ch, 0.1, count, lo, hi));
  store<f64>(out + 40, percentileFast(ch, 0.5, count, lo, hi));
  store<f64>(out + 48, percentileFast(ch, 0.9, count, lo, hi));
}

// Exact mode: bucket the valid values of the window by value
// (SEL_BUCKETS equal buckets over the window's [min, max]), then sort only
// the buckets holding the ranks the percentiles need, as order-preserving
// u32 keys with a radix sort (3 passes of 11 bits). Two linear passes and a
// small sort instead of sorting the whole window.

const RADIX_BITS: i32 = 11;
const RADIX: i32 = 1 << RADIX_BITS;
const counts = memory.data((RADIX * 3) << 2, 16);
const SEL_BUCKETS: i32 = 4096;
const selCount = memory.data(SEL_BUCKETS << 2, 16);
const selStart = memory.data(SEL_BUCKETS << 2, 16);
const selSlot = memory.data(SEL_BUCKETS << 2, 16);
const ranks = memory.data(6 << 2, 16);

@inline
function toKey(v: f32): u32 {
  const bits = reinterpret<u32>(v);
  return bits ^ (<u32>(<i32>bits >> 31) | 0x80000000);
}

@inline
function fromKey(k: u32): f32 {
  const bits = k & 0x80000000 ? k ^ 0x80000000 : ~k;
  return reinterpret<f32>(bits);
}

function radixSort(keys: usize, tmp: usize, m: i32): usize {
  memory.fill(counts, 0, <usize>(RADIX * 3) << 2);
  for (let i = 0; i < m; i++) {
    const k = load<u32>(keys + (<usize>i << 2));
    for (let d = 0; d < 3; d++) {
      const p = counts + (<usize>(d * RADIX + <i32>((k >> (d * RADIX_BITS)) & (RADIX - 1))) << 2);
      store<u32>(p, load<u32>(p) + 1);
    }
  }
  let src = keys;
  let dst = tmp;
  for (let d = 0; d < 3; d++) {
    const base = counts + (<usize>(d * RADIX) << 2);
    // A digit shared by every key leaves the order as it is.
    if (load<u32>(base + (<usize>((load<u32>(src) >> (d * RADIX_BITS)) & (RADIX - 1)) << 2)) == <u32>m) continue;
    let total: u32 = 0;
    for (let b = 0; b < RADIX; b++) {
      const p = base + (<usize>b << 2);
      const c = load<u32>(p);
      store<u32>(p, total);
      total += c;
    }
    for (let i = 0; i < m; i++) {
      const k = load<u32>(src + (<usize>i << 2));
      const p = base + (<usize>((k >> (d * RADIX_BITS)) & (RADIX - 1)) << 2);
      const at = load<u32>(p);
      store<u32>(p, at + 1);
      store<u32>(dst + (<usize>at << 2), k);
    }
    const t = src;
    src = dst;
    dst = t;
  }
  return src;
}

@inline
function bucketOf(v: f32, lo: f64, scale: f64): i32 {
  const b = <i32>((<f64>v - lo) * scale);
  return b < SEL_BUCKETS - 1 ? b : SEL_BUCKETS - 1;
}

@inline
function loadI32(base: usize, i: i32): i32 {
  return load<i32>(base + (<usize>i << 2));
}

@inline
function storeI32(base: usize, i: i32, v: i32): void {
  store<i32>(base + (<usize>i << 2), v);
}

/** Rank r of the sorted window, from the sorted target buckets. */
function rankValue(r: i32, sorted: usize): f64 {
  // Walk buckets to the one holding rank r (its start <= r < start + count).
  let b = 0;
  while (loadI32(selStart, b) + loadI32(selCount, b) <= r) b++;
  const at = loadI32(selSlot, b) + (r - loadI32(selStart, b));
  return <f64>fromKey(load<u32>(sorted + (<usize>at << 2)));
}

function percentileExact(p: f64, m: i32, sorted: usize): f64 {
  const pos = p * <f64>(m - 1);
  const k = <i32>Math.floor(pos);
  const frac = pos - <f64>k;
  const a = rankValue(k, sorted);
  if (frac == 0) return a;
  const b = rankValue(k + 1, sorted);
  return a + frac * (b - a);
}

/**
 * Exact statistics of [s, e). `scratch` must hold 2 * (e - s) u32 (the JS
 * face allocates and frees it). min and max come from the pyramid; two
 * passes over the window bucket the values and collect the target buckets.
 */
export function statsExact(handle: usize, s: i32, e: i32, out: usize, scratch: usize): void {
  const ch = changetype<Channel>(handle);
  const subset = scratch;
  const tmp = scratch + (<usize>(e - s) << 2);
  rangeMinMax(ch, s, e);
  const lo = scanMin;
  const hi = scanMax;
  if (!(lo <= hi)) {
    writeEmpty(out);
    return;
  }
  const lo64 = <f64>lo;
  const scale = lo < hi ? <f64>SEL_BUCKETS / (<f64>hi - lo64) : 0;
  memory.fill(selCount, 0, <usize>SEL_BUCKETS << 2);
  let m = 0;
  let sum: f64 = 0;
  for (let i = s; i < e; i++) {
    const v = load<f32>(ch.values + (<usize>i << 2));
    if (isValid(v)) {
      m++;
      sum += <f64>v;
      const b = bucketOf(v, lo64, scale);
      storeI32(selCount, b, loadI32(selCount, b) + 1);
    }
  }
  store<f64>(out, <f64>m);
  store<f64>(out + 8, lo64);
  store<f64>(out + 16, <f64>hi);
  store<f64>(out + 24, sum / <f64>m);
  if (lo == hi) {
    for (let i = 4; i < 7; i++) store<f64>(out + (<usize>i << 3), lo64);
    return;
  }
  let start = 0;
  for (let b = 0; b < SEL_BUCKETS; b++) {
    storeI32(selStart, b, start);
    storeI32(selSlot, b, -1);
    start += loadI32(selCount, b);
  }
  // The ranks the three percentiles interpolate between.
  for (let j = 0; j < 3; j++) {
    const p = j == 0 ? 0.1 : j == 1 ? 0.5 : 0.9;
    const k = <i32>Math.floor(p * <f64>(m - 1));
    storeI32(ranks, 2 * j, k);
    storeI32(ranks, 2 * j + 1, k + 1 < m ? k + 1 : k);
  }
  // Target buckets get consecutive slots in the subset, in bucket order.
  for (let j = 0; j < 6; j++) {
    const r = loadI32(ranks, j);
    let b = 0;
    while (loadI32(selStart, b) + loadI32(selCount, b) <= r) b++;
    storeI32(selSlot, b, 0);
  }
  let slot = 0;
  for (let b = 0; b < SEL_BUCKETS; b++) {
    if (loadI32(selSlot, b) >= 0) {
      storeI32(selSlot, b, slot);
      slot += loadI32(selCount, b);
    }
  }
  // Fill the subset; the radix counts area serves as each bucket's write cursor.
  const cursor = counts;
  for (let b = 0; b < SEL_BUCKETS; b++) storeI32(cursor, b, loadI32(selSlot, b));
  for (let i = s; i < e; i++) {
    const v = load<f32>(ch.values + (<usize>i << 2));
    if (!isValid(v)) continue;
    const b = bucketOf(v, lo64, scale);
    const at = loadI32(cursor, b);
    if (at >= 0) {
      store<u32>(subset + (<usize>at << 2), toKey(v));
      storeI32(cursor, b, at + 1);
    }
  }
  const sorted = radixSort(subset, tmp, slot);
  store<f64>(out + 32, percentileExact(0.1, m, sorted));
  store<f64>(out + 40, percentileExact(0.5, m, sorted));
  store<f64>(out + 48, percentileExact(0.9, m, sorted));
}
