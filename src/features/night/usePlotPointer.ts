// Mouse on a plot: drag to zoom (X, or X and Y), double-click zoom, Ctrl + wheel (or a
// touchpad's pinch) zooms around the pointer, and a tooltip. The
// selection box and the tooltip are DOM nodes changed directly; only a finished zoom
// reaches the view store.
import { useEffect, type RefObject } from 'react';
import { sameRange, timeAtX, type TimeRange } from '../../time/range';
import type { ChartScreen } from '../../charts/screen';

/** How much one pixel of wheel turns the window (a mouse's notch, 100 px: 1.28× wider or narrower). */
const WHEEL_ZOOM_PER_PX = 0.0025;
/** The most one wheel event counts for (a fast flick or a page-sized step: at most 2.7×). */
const WHEEL_MAX_PX = 400;
/** Wheel steps closer than this are one gesture (one undo step). */
const WHEEL_GESTURE_MS = 400;

export interface PointerOptions {
  zoomMode: 'x' | 'xy';
  /** Value range shown, for XY zoom. */
  /** The value range drawn now (auto-scaled axes move between renders). */
  yDomain: () => readonly [number, number];
  onYZoom: (range: [number, number]) => void;
  /** Tooltip text at time t, or null for none. */
  tooltip: (t: number) => string | null;
  /** A selection made with Ctrl held: annotate [from, to) instead of zooming (spec 2 §4). */
  onAnnotate?: (from: number, to: number) => void;
}

/** Wires pointer interactions of one plot element; options are read at event time. */
export function usePlotPointer(
  screen: ChartScreen,
  plot: RefObject<HTMLDivElement | null>,
  selection: RefObject<HTMLDivElement | null>,
  tip: RefObject<HTMLDivElement | null>,
  options: RefObject<PointerOptions>,
): void {
  useEffect(() => {
    const el = plot.current;
    const sel = selection.current;
    const tipEl = tip.current;
    if (!el || !sel || !tipEl) return;
    let start: { x: number; y: number } | null = null;
    const local = (e: MouseEvent) => {
      const r = el.getBoundingClientRect();
      return { x: Math.min(Math.max(e.clientX - r.left, 0), r.width), y: Math.min(Math.max(e.clientY - r.top, 0), r.height), w: r.width, h: r.height };
    };
    const xy = () => options.current!.zoomMode === 'xy';
    const down = (e: MouseEvent) => {
      if (e.button !== 0) return;
      const p = local(e);
      start = { x: p.x, y: p.y };
      e.preventDefault();
    };
    const move = (e: MouseEvent) => {
      const p = local(e);
      if (start) drawSelection(sel, start, p, xy());
      if (e.target instanceof Node && el.contains(e.target)) showTip(tipEl, options.current!.tooltip(timeAtX(screen.view.store.state.range, p.x, p.w)), p);
    };
    const up = (e: MouseEvent) => {
      if (!start) return;
      const p = local(e);
      const range = screen.view.store.state.range;
      sel.style.display = 'none';
      if (Math.abs(p.x - start.x) >= 4 && (e.ctrlKey || e.metaKey) && options.current!.onAnnotate) {
        const a = timeAtX(range, start.x, p.w);
        const b = timeAtX(range, p.x, p.w);
        options.current!.onAnnotate(Math.min(a, b), Math.max(a, b));
      } else if (Math.abs(p.x - start.x) >= 4) {
        screen.view.dispatch({ type: 'drag', from: timeAtX(range, start.x, p.w), to: timeAtX(range, p.x, p.w) });
        if (xy() && Math.abs(p.y - start.y) >= 4) options.current!.onYZoom(valuesBetween(options.current!.yDomain(), start.y, p.y, p.h));
      }
      start = null;
    };
    const leave = () => {
      tipEl.style.display = 'none';
    };
    const dbl = (e: MouseEvent) => {
      const p = local(e);
      screen.view.dispatch({ type: 'doubleClick', at: timeAtX(screen.view.store.state.range, p.x, p.w) });
    };
    // Ctrl + wheel: the window narrows or widens around the time under the pointer. A wheel
    // without Ctrl scrolls the page as everywhere. Steps less than WHEEL_GESTURE_MS apart are one
    // gesture: one undo step. Chromium sends a touchpad's pinch as a wheel with Ctrl.
    let lastWheelZoom = -Infinity;
    let lastWheelRange: TimeRange | null = null; // the range its last step made: a reset, undo or other change in between ends a gesture
    const wheel = (e: WheelEvent) => {
      if (!(e.ctrlKey || e.metaKey)) return;
      // The browser's own Ctrl + wheel zooms the whole page: over a chart, the chart zooms instead.
      e.preventDefault();
      const p = local(e);
      const lines = e.deltaMode === WheelEvent.DOM_DELTA_LINE ? 16 : e.deltaMode === WheelEvent.DOM_DELTA_PAGE ? p.h : 1;
      const factor = Math.exp(Math.max(-WHEEL_MAX_PX, Math.min(WHEEL_MAX_PX, e.deltaY * lines)) * WHEEL_ZOOM_PER_PX);
      const before = screen.view.store.state.range;
      // When the notch was made, not when it is handled: notches queued behind a busy frame are still one gesture.
      const now = e.timeStamp;
      screen.view.dispatch({ type: 'zoomAround', at: timeAtX(before, p.x, p.w), factor, continues: now - lastWheelZoom < WHEEL_GESTURE_MS && lastWheelRange !== null && sameRange(before, lastWheelRange) });
      if (screen.view.store.state.range !== before) [lastWheelZoom, lastWheelRange] = [now, screen.view.store.state.range];
    };
    el.addEventListener('wheel', wheel, { passive: false });
    el.addEventListener('mousedown', down);
    window.addEventListener('mousemove', move);
    window.addEventListener('mouseup', up);
    el.addEventListener('mouseleave', leave);
    el.addEventListener('dblclick', dbl);
    return () => {
      el.removeEventListener('wheel', wheel);
      el.removeEventListener('mousedown', down);
      window.removeEventListener('mousemove', move);
      window.removeEventListener('mouseup', up);
      el.removeEventListener('mouseleave', leave);
      el.removeEventListener('dblclick', dbl);
    };
  }, [screen, plot, selection, tip, options]);
}

/** The selection box from `start` to `p` (the plot's full height unless zooming in Y too). */
function drawSelection(sel: HTMLElement, start: { x: number; y: number }, p: { x: number; y: number }, xy: boolean): void {
  sel.style.display = 'block';
  sel.style.left = `${Math.min(start.x, p.x)}px`;
  sel.style.width = `${Math.abs(p.x - start.x)}px`;
  sel.style.top = `${xy ? Math.min(start.y, p.y) : 0}px`;
  sel.style.height = xy ? `${Math.abs(p.y - start.y)}px` : '100%';
}

/** The tooltip beside the pointer, kept inside the plot; hidden without text. */
function showTip(tip: HTMLElement, text: string | null, p: { x: number; y: number; w: number }): void {
  tip.style.display = text ? 'block' : 'none';
  if (!text) return;
  tip.textContent = text;
  tip.style.left = `${Math.min(p.x + 12, p.w - 160)}px`;
  tip.style.top = `${Math.max(0, p.y - 28)}px`;
}

/** The value range between two heights of a plot `h` pixels tall drawing [lo, hi]. */
function valuesBetween([lo, hi]: readonly [number, number], y0: number, y1: number, h: number): [number, number] {
  const a = hi - (y0 / h) * (hi - lo);
  const b = hi - (y1 / h) * (hi - lo);
  return [Math.min(a, b), Math.max(a, b)];
}
