// Memory layout of one loaded channel. Everything is unmanaged memory from
// ./memory.ts, owned by the Channel record and released by channelDestroy.
//
//   values   f32[n]              samples in physical units, NaN = missing
//   l0       f32[4 * nb0]        level 0 of the pyramid: one record
//                                { min, max, first, last } per block of
//                                L0_SIZE samples
//   lv       f32[4 * sum nb_k]   levels k >= 1: the same records, a block
//                                being FANOUT blocks of the level below
//   offsets  i32[levels + 1]     start of level k >= 1 inside lv (records)
//   edges    u8[ceil(nb0 / 4)]   2 bits per level-0 block: bit 0 its first
//                                sample is missing, bit 1 its last one
//   hist     u32[(nbh+1) * BINS] cumulative histograms: row j counts the valid
//                                samples of blocks < j (HB_SIZE samples a block)
//                                in BINS equal bins over [lo, hi]
//   cumCount u32[nbh + 1]        valid samples before block j
//   cumSum   f64[nbh + 1]        sum of valid samples before block j
//
// In a record, first and last are the values of the block's first and last
// valid sample; all four are NaN when the block has no valid sample. With the
// edge bits, a view whose columns are whole blocks reads no raw sample and
// never searches for a valid one. Since first and last lie within
// [min, max], a SIMD min (max) over whole records is the blocks' min (max),
// and NaN lanes drop out (see scan.ts).
// Level-0 blocks of 32 samples and a fan-out of 4 let a view pick a level
// whose blocks are 1/4 to 1/16 of a column and stream it (see view.ts).
// Index bytes: the records 1/6 of the samples, hist 1/8.

export const L0_SHIFT: i32 = 5;
export const L0_SIZE: i32 = 1 << L0_SHIFT;
export const FANOUT_SHIFT: i32 = 2;
export const FANOUT: i32 = 1 << FANOUT_SHIFT;
export const MAX_LEVELS: i32 = 16;
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
  lv: usize = 0;
  nb0: i32 = 0;
  l0: usize = 0;
  edges: usize = 0;
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

/** Start of level k >= 1 inside lv, in records. */
@inline
export function levelOffset(ch: Channel, k: i32): i32 {
  return load<i32>(ch.offsets + (<usize>k << 2));
}

/** Number of blocks at pyramid level k. */
@inline
export function levelBlocks(ch: Channel, k: i32): i32 {
  return k == 0 ? ch.nb0 : levelOffset(ch, k + 1) - levelOffset(ch, k);
}

/** First record of level k. */
@inline
export function levelBase(ch: Channel, k: i32): usize {
  return k == 0 ? ch.l0 : ch.lv + (<usize>levelOffset(ch, k) << 4);
}

/** Edge bits of level-0 block j: 1 its first sample is missing, 2 its last. */
@inline
export function edgeBits(ch: Channel, j: i32): i32 {
  return (<i32>load<u8>(ch.edges + (<usize>j >> 2)) >> ((j & 3) << 1)) & 3;
}

/** Whether block idx of level k holds a valid sample. */
@inline
export function blockHasValid(ch: Channel, k: i32, idx: i32): bool {
  return isValid(load<f32>(levelBase(ch, k) + (<usize>idx << 4)));
}

/** Histogram bin of a valid value; the same rule at build and query time. */
@inline
export function binOf(ch: Channel, v: f32): i32 {
  const b = <i32>((<f64>v - ch.lo) * ch.inv);
  return b < BINS - 1 ? b : BINS - 1;
}
