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
export function samplePosition(clock: ChannelClock, t: Ms): number {
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
 * Geometry of a view: column c holds samples [boundAt(a + c*b), boundAt(a + (c+1)*b)),
 * a and b in samples; pxMs is a column's width in ms.
 */
export function viewGeometry(clock: ChannelClock, t0: Ms, t1: Ms, pixels: Px): { a: number; b: number; pxMs: Ms } {
  const a = samplePosition(clock, t0);
  const b = ((t1 - t0) * clock.sampleRateHz) / 1000 / pixels;
  return { a, b, pxMs: ((t1 - t0) / pixels) as Ms };
}

/** Time just after the last sample. */
export function endTime(clock: ChannelClock): Ms {
  return (clock.t0Ms + (clock.count * 1000) / clock.sampleRateHz) as Ms;
}
