// Pure arithmetic of the shared x-range: clamping, paging, presets, double-click zoom.
// Times are float64 ms UTC; nothing here knows React, WebGL or the engine.
import { DBLCLICK_NARROW_MS, DBLCLICK_WIDE_MS, MIN_WINDOW_MS, PAGE_FRACTION } from './constants';

/** A half-open time window [t0, t1) in ms UTC. */
export interface TimeRange {
  readonly t0: number;
  readonly t1: number;
}

export const span = (r: TimeRange): number => r.t1 - r.t0;

/** Same window? (to the millisecond; float64 arithmetic leaves sub-ms dust). */
export function sameRange(a: TimeRange, b: TimeRange): boolean {
  return Math.abs(a.t0 - b.t0) < 0.5 && Math.abs(a.t1 - b.t1) < 0.5;
}

/**
 * Moves `r` inside `domain` keeping its width; a window wider than the domain
 * becomes the domain, one narrower than MIN_WINDOW_MS is widened around its centre.
 */
export function clampRange(r: TimeRange, domain: TimeRange): TimeRange {
  const full = span(domain);
  const width = Math.max(span(r), Math.min(MIN_WINDOW_MS, full));
  if (width >= full) return { t0: domain.t0, t1: domain.t1 };
  const start = span(r) < width ? (r.t0 + r.t1) / 2 - width / 2 : r.t0;
  const t0 = Math.min(Math.max(start, domain.t0), domain.t1 - width);
  return { t0, t1: t0 + width };
}

/** One page step: `direction` 1 (later) or -1 (earlier) by 20% of the window, clamped. */
export function pageRange(r: TimeRange, domain: TimeRange, direction: 1 | -1): TimeRange {
  const shift = span(r) * PAGE_FRACTION * direction;
  return clampRange({ t0: r.t0 + shift, t1: r.t1 + shift }, domain);
}

/**
 * A preset window: `widthMs` long starting where the current window starts
 * (so paging through a night from its start reads naturally), or the whole
 * night when widthMs is null.
 */
export function presetRange(current: TimeRange, domain: TimeRange, widthMs: number | null): TimeRange {
  if (widthMs === null) return { t0: domain.t0, t1: domain.t1 };
  return clampRange({ t0: current.t0, t1: current.t0 + widthMs }, domain);
}

/** Double-click zoom (spec 2 §2): 3 minutes around `t`, or 30 s when the window already is 3 minutes. */
export function doubleClickRange(current: TimeRange, domain: TimeRange, t: number): TimeRange {
  const width = Math.abs(span(current) - DBLCLICK_WIDE_MS) < 1 ? DBLCLICK_NARROW_MS : DBLCLICK_WIDE_MS;
  return clampRange({ t0: t - width / 2, t1: t + width / 2 }, domain);
}

/**
 * A zoom around the time `at` (a wheel turned with Ctrl, a touchpad's pinch): the window
 * `factor` times as wide (below 1 zooms in), `at` staying where it is on screen, clamped to the
 * domain and to at least MIN_WINDOW_MS.
 */
export function zoomAroundRange(current: TimeRange, domain: TimeRange, at: number, factor: number): TimeRange {
  const width = Math.min(span(domain), Math.max(MIN_WINDOW_MS, span(current) * factor));
  const share = (at - current.t0) / Math.max(1e-9, span(current));
  const t0 = at - share * width;
  return clampRange({ t0, t1: t0 + width }, domain);
}

/** The window a drag from x `a` to x `b` selects (either direction), or null when too narrow. */
export function dragRange(a: number, b: number, domain: TimeRange): TimeRange | null {
  const t0 = Math.min(a, b);
  const t1 = Math.max(a, b);
  if (t1 - t0 < MIN_WINDOW_MS) return null;
  return clampRange({ t0, t1 }, domain);
}

/** Time at a horizontal position `x` (px) of a plot `width` px wide showing `r`. */
export function timeAtX(r: TimeRange, x: number, width: number): number {
  return r.t0 + (x / Math.max(1, width)) * span(r);
}

/** Horizontal position (px) of time `t` in a plot `width` px wide showing `r`. */
export function xAtTime(r: TimeRange, t: number, width: number): number {
  return ((t - r.t0) / Math.max(1e-9, span(r))) * width;
}
