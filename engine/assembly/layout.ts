// Memory layout of one loaded channel. Everything is unmanaged memory from
// ./memory.ts, owned by the Channel record and released by channelDestroy.
//
//   values   f32[n]              samples in physical units, NaN = missing
//   l0       f32[2 * nb0]        level 0 of the pyramid: { min, max } per block
//                                of L0_SIZE samples, interleaved so one cache
//                                line serves a column boundary; NaN, NaN when
//                                the block has no valid sample. A SIMD min (or
//                                max) over whole pairs is the blocks' min (max).
//   mins     f32[sum of nb_k]    levels k >= 1: FANOUT blocks of the level below
//   maxs     f32[sum of nb_k]    each; an all-missing block has min +Inf, max -Inf
//   offsets  i32[levels + 1]     start of level k >= 1 inside mins/maxs
//   hist     u32[(nbh+1) * BINS] cumulative histograms: row j counts the valid
//                                samples of blocks < j (HB_SIZE samples a block)
//                                in BINS equal bins over [lo, hi]
//   cumCount u32[nbh + 1]        valid samples before block j
//   cumSum   f64[nbh + 1]        sum of valid samples before block j
//
// Level-0 blocks of 16 samples keep raw edge scans short. Records with each
// block's first and last value (to spare raw reads) measured slower: they
// cost more cache lines per column boundary than the raw read they save.

export const L0_SHIFT: i32 = 4;
export const L0_SIZE: i32 = 1 << L0_SHIFT;
export const FANOUT_SHIFT: i32 = 4;
export const FANOUT: i32 = 1 << FANOUT_SHIFT;
export const MAX_LEVELS: i32 = 8;
export const HB_SHIFT: i32 = 13;
export const HB_SIZE: i32 = 1 << HB_SHIFT;
export const BINS: i32 = 1024;

@unmanaged
export class Channel {
  n: i32 = 0;
  levels: i32 = 0;
  nbh: i32 = 0;
  validCount: i32 = 0;
  values: usize = 0;
  mins: usize = 0;
  maxs: usize = 0;
  nb0: i32 = 0;
  l0: usize = 0;
  offsets: usize = 0;
  hist: usize = 0;
  cumCount: usize = 0;
  cumSum: usize = 0;
  lo: f64 = 0;
  hi: f64 = 0;
  width: f64 = 0;
  inv: f64 = 0;
}

@inline
export function value(ch: Channel, i: i32): f32 {
  return load<f32>(ch.values + (<usize>i << 2));
}

@inline
export function isValid(v: f32): bool {
  return v == v;
}

/** Start of level k >= 1 inside mins/maxs. */
@inline
export function levelOffset(ch: Channel, k: i32): i32 {
  return load<i32>(ch.offsets + (<usize>k << 2));
}

/** Number of blocks at pyramid level k. */
@inline
export function levelBlocks(ch: Channel, k: i32): i32 {
  return k == 0 ? ch.nb0 : levelOffset(ch, k + 1) - levelOffset(ch, k);
}

/** Whether block idx of level k holds a valid sample. */
@inline
export function blockHasValid(ch: Channel, k: i32, idx: i32): bool {
  return k == 0
    ? isValid(load<f32>(ch.l0 + (<usize>idx << 3)))
    : load<f32>(ch.mins + (<usize>(levelOffset(ch, k) + idx) << 2)) != <f32>Infinity;
}

/** Histogram bin of a valid value; the same rule at build and query time. */
@inline
export function binOf(ch: Channel, v: f32): i32 {
  const b = <i32>((<f64>v - ch.lo) * ch.inv);
  return b < BINS - 1 ? b : BINS - 1;
}
