// Time-axis ticks (spec 2 §9): every hour, or an eighth of the span when the span is short.
import { HOUR_MS } from '../../time/constants';
import type { TimeRange } from '../../time/range';

/** Spans shorter than this get eight ticks instead of hourly ones. */
export const SHORT_SPAN_MS = 8 * HOUR_MS;

/** Offset of a time zone from UTC at instant t, ms (positive east). */
export type ZoneOffset = (t: number) => number;

/**
 * Tick times inside [t0, t1]: on whole local hours when the span is 8 hours or more,
 * else at t0 + k·span/8 for k = 0..8.
 */
export function timeTicks(r: TimeRange, offset: ZoneOffset = () => 0): number[] {
  const width = r.t1 - r.t0;
  if (!(width > 0)) return [];
  if (width < SHORT_SPAN_MS) {
    const step = width / 8;
    return Array.from({ length: 9 }, (_, k) => r.t0 + k * step);
  }
  const ticks: number[] = [];
  // First whole local hour at or after t0.
  const local0 = r.t0 + offset(r.t0);
  let t = Math.ceil(local0 / HOUR_MS) * HOUR_MS - offset(r.t0);
  while (t <= r.t1) {
    ticks.push(t);
    const next = t + HOUR_MS;
    // Realign after a DST change so labels stay on whole local hours.
    const local = next + offset(next);
    t = Math.round(local / HOUR_MS) * HOUR_MS - offset(next);
  }
  return ticks;
}
