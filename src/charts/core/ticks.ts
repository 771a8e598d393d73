// Time-axis ticks (spec 2 §9): every hour, or about an eighth of the span when the span is short.
import { HOUR_MS } from '../../time/constants';
import type { TimeRange } from '../../time/range';

/**
 * Spans shorter than this get ticks about an eighth of them apart instead of hourly ones: fewer than three whole hours
 * would leave the axis with one or two labels. A night of 4–8 h is not short: its ticks are
 * the clock's hours, not 23:28:00, 01:17:45, 02:12:37 … (decision 1022).
 */
export const SHORT_SPAN_MS = 3 * HOUR_MS;

/** Offset of a time zone from UTC at instant t, ms (positive east). */
export type ZoneOffset = (t: number) => number;

/** Clock steps a short span is ticked at, ms: the first at least an eighth of the span is used. */
const CLOCK_STEPS_MS = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800].map((s) => s * 1000);

/**
 * Tick times inside [t0, t1]: on whole local hours when the span is 3 hours or more; a shorter
 * span is ticked about every eighth of it, on the clock (decision 1022): the first of 1, 2, 5,
 * 10, 15, 30 s, 1, 2, 5, 10, 15, 30 min at least an eighth of the span, at whole multiples of
 * it in local time — a 30-s epoch reads 23:08:10, 23:08:15 … rather than 23:08:09, 23:08:13,
 * 23:08:16 (3.75-s steps). Under 8 s the span's eighths themselves.
 */
export function timeTicks(r: TimeRange, offset: ZoneOffset = () => 0): number[] {
  const width = r.t1 - r.t0;
  if (!(width > 0)) return [];
  if (width < SHORT_SPAN_MS) {
    const step = CLOCK_STEPS_MS.find((s) => s >= width / 8);
    if (step === undefined || width < 8 * CLOCK_STEPS_MS[0]!) return Array.from({ length: 9 }, (_, k) => r.t0 + (k * width) / 8);
    const shift = offset(r.t0);
    const ticks: number[] = [];
    for (let t = Math.ceil((r.t0 + shift) / step) * step - shift; t <= r.t1; t += step) ticks.push(t);
    return ticks;
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

/** A tick label as drawn: its time, where it sits (% of the axis) and how it is aligned on its tick. */
export interface PlacedTick {
  t: number;
  leftPct: number;
  align: 'start' | 'centre' | 'end';
}

/**
 * Which ticks get a label on an axis `widthPx` wide, labels `labelPx` wide at least `gapPx`
 * apart: every k-th tick so centred neighbours never touch; a label at an end of the axis is
 * aligned inwards so it stays on the axis, and its neighbour is dropped when the shifted label
 * would reach it (a first label at the axis's start reaches half a label further than a
 * centred one).
 */
export function placeTicks(all: readonly number[], r: TimeRange, widthPx: number, labelPx: number, gapPx: number): PlacedTick[] {
  const width = r.t1 - r.t0;
  if (!(width > 0) || all.length === 0) return [];
  const spacingPx = all.length > 1 ? (widthPx * (all[1]! - all[0]!)) / width : widthPx;
  const every = widthPx > 0 && spacingPx > 0 ? Math.max(1, Math.ceil((labelPx + gapPx) / spacingPx)) : 1;
  const kept = all.filter((_, i) => i % every === 0);
  const halfPct = widthPx > 0 ? (labelPx / 2 / widthPx) * 100 : 0;
  const placed: PlacedTick[] = kept.map((t) => {
    const leftPct = ((t - r.t0) / width) * 100;
    return { t, leftPct, align: leftPct < halfPct ? 'start' : leftPct > 100 - halfPct ? 'end' : 'centre' };
  });
  if (widthPx <= 0) return placed;
  // Each label's extent in px, then drop an end label's neighbour where they would touch.
  const extent = (p: PlacedTick): [number, number] => {
    const x = (p.leftPct / 100) * widthPx;
    return p.align === 'start' ? [x, x + labelPx] : p.align === 'end' ? [x - labelPx, x] : [x - labelPx / 2, x + labelPx / 2];
  };
  const clash = (a: PlacedTick, b: PlacedTick) => extent(a)[1] + gapPx > extent(b)[0];
  if (placed.length > 2 && placed[0]!.align === 'start' && clash(placed[0]!, placed[1]!)) placed.splice(1, 1);
  const n = placed.length;
  if (n > 2 && placed[n - 1]!.align === 'end' && clash(placed[n - 2]!, placed[n - 1]!)) placed.splice(n - 2, 1);
  return placed;
}
