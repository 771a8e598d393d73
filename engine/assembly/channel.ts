// Life cycle of a channel: create (samples buffer), convert raw input with
// the missing-value rules, build the indexes, destroy (frees everything).
import { Channel, BINS, HB_SHIFT, HB_SIZE, binOf, isValid } from './layout';
import { alloc, free } from './memory';
import { buildPyramid, rangeMinMax } from './pyramid';
import { scanMin, scanMax } from './scan';

/** Creates a channel of `n` samples; returns its handle (pointer). */
export function channelCreate(n: i32): usize {
  const ch = changetype<Channel>(alloc(offsetof<Channel>()));
  memory.fill(changetype<usize>(ch), 0, offsetof<Channel>());
  ch.n = n;
  const slots = n > 0 ? n : 1;
  ch.values = alloc(<usize>slots << 2);
  return changetype<usize>(ch);
}

/** Where the JS face may write the channel's float32 samples. */
export function channelValues(handle: usize): usize {
  return changetype<Channel>(handle).values;
}

/** Frees the channel and every index it owns. */
export function channelDestroy(handle: usize): void {
  const ch = changetype<Channel>(handle);
  free(ch.values);
  free(ch.lv);
  free(ch.offsets);
  free(ch.l0);
  free(ch.edges);
  free(ch.hist);
  free(ch.cumCount);
  free(ch.cumSum);
  free(handle);
}

@inline
function isCode(v: f64, codes: usize, nCodes: i32): bool {
  for (let c = 0; c < nCodes; c++) if (v == load<f64>(codes + (<usize>c << 3))) return true;
  return false;
}

/**
 * Converts int16 samples at `src` to physical float32 (raw * scale + offset).
 * Missing (NaN): raw value in codes[0..nCodes) (f64), or, with nonPositive,
 * a physical value <= 0.
 */
export function channelConvertI16(handle: usize, src: usize, scale: f64, offset: f64, codes: usize, nCodes: i32, nonPositive: bool): void {
  const ch = changetype<Channel>(handle);
  const n = ch.n;
  for (let i = 0; i < n; i++) {
    const raw = <f64>load<i16>(src + (<usize>i << 1));
    let v = <f32>(raw * scale + offset);
    if (isCode(raw, codes, nCodes) || (nonPositive && v <= 0)) v = <f32>NaN;
    store<f32>(ch.values + (<usize>i << 2), v);
  }
}

/**
 * Converts float32 samples at `src` (may be the channel's own values) to
 * physical values (stored * scale + offset) with the same missing rules as
 * channelConvertI16; NaN and ±Infinity are missing too.
 */
export function channelConvertF32(handle: usize, src: usize, scale: f64, offset: f64, codes: usize, nCodes: i32, nonPositive: bool): void {
  const ch = changetype<Channel>(handle);
  const n = ch.n;
  const identity = scale == 1 && offset == 0;
  for (let i = 0; i < n; i++) {
    const raw = load<f32>(src + (<usize>i << 2));
    let v = identity ? raw : <f32>(<f64>raw * scale + offset);
    if (!isFinite(v) || isCode(<f64>raw, codes, nCodes) || (nonPositive && v <= 0)) v = <f32>NaN;
    store<f32>(ch.values + (<usize>i << 2), v);
  }
}

function buildHistograms(ch: Channel): void {
  const n = ch.n;
  rangeMinMax(ch, 0, n);
  if (scanMin <= scanMax) {
    ch.lo = <f64>scanMin;
    ch.hi = <f64>scanMax;
  }
  ch.width = (ch.hi - ch.lo) / <f64>BINS;
  ch.inv = ch.width > 0 ? 1.0 / ch.width : 0;
  const nbh = (n + HB_SIZE - 1) >> HB_SHIFT;
  ch.nbh = nbh;
  const rowBytes = <usize>BINS << 2;
  ch.hist = alloc(<usize>(nbh + 1) * rowBytes);
  ch.cumCount = alloc(<usize>(nbh + 1) << 2);
  ch.cumSum = alloc(<usize>(nbh + 1) << 3);
  memory.fill(ch.hist, 0, rowBytes);
  let count: i32 = 0;
  let sum: f64 = 0;
  store<i32>(ch.cumCount, 0);
  store<f64>(ch.cumSum, 0);
  for (let j = 0; j < nbh; j++) {
    const row = ch.hist + <usize>(j + 1) * rowBytes;
    memory.copy(row, row - rowBytes, rowBytes);
    const from = j << HB_SHIFT;
    let to = from + HB_SIZE;
    if (to > n) to = n;
    for (let i = from; i < to; i++) {
      const v = load<f32>(ch.values + (<usize>i << 2));
      if (isValid(v)) {
        const p = row + (<usize>binOf(ch, v) << 2);
        store<u32>(p, load<u32>(p) + 1);
        count++;
        sum += <f64>v;
      }
    }
    store<i32>(ch.cumCount + (<usize>(j + 1) << 2), count);
    store<f64>(ch.cumSum + (<usize>(j + 1) << 3), sum);
  }
  ch.validCount = count;
}

/** Builds the min/max pyramid and the cumulative block histograms. */
export function channelBuild(handle: usize): void {
  const ch = changetype<Channel>(handle);
  buildPyramid(ch);
  buildHistograms(ch);
}

/** Valid samples in the whole channel. */
export function channelValidCount(handle: usize): i32 {
  return changetype<Channel>(handle).validCount;
}

/** Smallest valid value (0 when there is none). */
export function channelLo(handle: usize): f64 {
  return changetype<Channel>(handle).lo;
}

/** Largest valid value (0 when there is none). */
export function channelHi(handle: usize): f64 {
  return changetype<Channel>(handle).hi;
}

/** Bytes of the indexes (pyramid, histograms, sums), without the samples. */
export function channelIndexBytes(handle: usize): f64 {
  const ch = changetype<Channel>(handle);
  const upper = load<i32>(ch.offsets + (<usize>ch.levels << 2));
  return <f64>ch.nb0 * 16 + <f64>((ch.nb0 + 3) >> 2) + <f64>upper * 16 + <f64>(ch.levels + 1) * 4 + <f64>(ch.nbh + 1) * (<f64>BINS * 4 + 4 + 8);
}
