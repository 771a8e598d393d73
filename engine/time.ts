// Mapping between time in ms and sample positions. A sample i sits at
// t0 + i * 1000 / rate; a window [t0, t1) holds the samples whose time is in it.
import type { Hz, Ms, Px, SampleIndex } from './units';

/** Timing of a channel. */
export interface ChannelClock {
  t0Ms: Ms;
  sampleRateHz: Hz;
  count: number;
}

/** Fractional sample position of time t (float64). */
function samplePosition(clock: ChannelClock, t: Ms): number {
  return ((t - clock.t0Ms) * clock.sampleRateHz) / 1000;
}

/** First sample index at or after the fractional position x, clamped to [0, count]. */
export function boundAt(x: number, count: number): SampleIndex {
  const c = Math.ceil(x);
  return (c <= 0 ? 0 : c >= count ? count : c) as SampleIndex;
}

/** Half-open sample range [s, e) of the samples in [t0, t1). */
export function sampleRange(clock: ChannelClock, t0: Ms, t1: Ms): { s: SampleIndex; e: SampleIndex } {
  return {
    s: boundAt(samplePosition(clock, t0), clock.count),
    e: boundAt(samplePosition(clock, t1), clock.count),
  };
}

/**
 * Geometry of a view in samples: a = window start, b = column width; pxMs
 * is a column's width in ms. Columns are cut by viewBoundary.
 */
export function viewGeometry(clock: ChannelClock, t0: Ms, t1: Ms, pixels: Px): { a: number; b: number; pxMs: Ms } {
  const a = samplePosition(clock, t0);
  const b = ((t1 - t0) * clock.sampleRateHz) / 1000 / pixels;
  return { a, b, pxMs: ((t1 - t0) / pixels) as Ms };
}

/** Samples in a level-0 pyramid block (L0_SIZE in engine/assembly/layout.ts). */
const L0_BLOCK = 32;

/** Pyramid fan-out (FANOUT in engine/assembly/layout.ts). */
const FANOUT = 4;

/** Above level 0, a snapped column spans at least this many blocks (SNAP_BLOCKS in engine/assembly/view.ts). */
const SNAP_BLOCKS = 4;

/**
 * Grid that interior column boundaries snap to once a column spans 2
 * level-0 blocks (64 samples) or more: the largest block size
 * L0_BLOCK * 4^k at most 1/4 of a column, and at least L0_BLOCK (0: no
 * snapping). Mirrors snapOf in engine/assembly/view.ts.
 */
export function viewSnap(b: number): number {
  if (b < L0_BLOCK * 2) return 0;
  let snap = L0_BLOCK;
  while (snap * SNAP_BLOCKS * FANOUT <= b && snap < 1e15) snap *= FANOUT;
  return snap;
}

/**
 * First sample of column c of a view (c = pixels gives the end): the window
 * ends are exact; interior boundaries are bound(a + c*b), or that position
 * rounded to the snap grid (a shift of at most 1/8 of a column, 1/4 for
 * columns of 64 to 128 samples, so whole pyramid blocks answer the column).
 * Mirrors boundary in engine/assembly/view.ts.
 */
export function viewBoundary(a: number, b: number, pixels: number, c: number, count: number): SampleIndex {
  const x = a + c * b;
  const snap = viewSnap(b);
  if (snap === 0 || c === 0 || c === pixels) return boundAt(x, count);
  const y = Math.floor(x / snap + 0.5) * snap;
  return (y <= 0 ? 0 : y >= count ? count : y) as SampleIndex;
}

/** Time just after the last sample. */
export function endTime(clock: ChannelClock): Ms {
  return (clock.t0Ms + (clock.count * 1000) / clock.sampleRateHz) as Ms;
}
