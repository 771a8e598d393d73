// A benchmark's hook into the live path (bench/live-probe.js puts it on window before the app
// loads): told when a frame's samples go into a series and when a plot drew that series, it
// times device send → painted. Absent in normal use: each call site costs one property read.
import type { LiveSeries } from './series';

export interface LivePaintProbe {
  /** Samples sent by the device at `sentMs` (ms UTC, the device's clock) were written to `series`. */
  applied(series: LiveSeries, sentMs: number): void;
  /** A plot has just drawn `series` (all it holds) on `canvas`. */
  drawn(series: LiveSeries, canvas: HTMLCanvasElement): void;
}

declare global {
  interface Window {
    __nocturneLiveProbe?: LivePaintProbe;
  }
}

/** The installed probe, if a benchmark installed one. */
export function paintProbe(): LivePaintProbe | undefined {
  return typeof window === 'undefined' ? undefined : window.__nocturneLiveProbe;
}
