import { useLayoutEffect, useRef } from 'react';
import { formatClock, zoneOffset } from '../core/format';
import { span, type TimeRange } from '../../time/range';
import { SHORT_SPAN_MS, timeTicks } from '../core/ticks';
import { MINUTE_MS } from '../../time/constants';
import type { ChartScreen } from '../screen';

/** Width of a tick label per character at the axis's 0.68rem (digits and colons), px, and the least space between two. */
const CHAR_PX = 6.5;
const LABEL_GAP_PX = 10;

/**
 * Rewrites the tick labels of `el` for `range` (DOM only, no React render). On a narrow axis
 * every k-th tick is kept so labels never touch, and the labels at the ends are aligned
 * inwards so none runs past the axis (its card).
 */
function drawTicks(el: HTMLElement, range: TimeRange, zone: string, widthPx: number): void {
  const all = timeTicks(range, zoneOffset(zone));
  // Ticks off whole minutes (an eighth of a short span) need seconds to tell apart.
  const seconds = span(range) < SHORT_SPAN_MS && (span(range) / 8) % MINUTE_MS !== 0;
  const labelPx = (seconds ? 8 : 5) * CHAR_PX + LABEL_GAP_PX;
  const spacingPx = all.length > 1 ? (widthPx * (all[1]! - all[0]!)) / span(range) : widthPx;
  const every = widthPx > 0 && spacingPx > 0 ? Math.max(1, Math.ceil(labelPx / spacingPx)) : 1;
  const ticks = every === 1 ? all : all.filter((_, i) => i % every === 0);
  while (el.children.length < ticks.length) {
    const tick = document.createElement('span');
    tick.className = 'time-tick';
    el.appendChild(tick);
  }
  while (el.children.length > ticks.length) el.lastChild!.remove();
  const halfLabel = widthPx > 0 ? ((labelPx - LABEL_GAP_PX) / 2 / widthPx) * 100 : 0;
  ticks.forEach((t, i) => {
    const tick = el.children[i] as HTMLElement;
    const left = ((t - range.t0) / span(range)) * 100;
    tick.style.insetInlineStart = `${left}%`;
    // Centred on its tick, unless that would run past an end of the axis.
    tick.style.transform = left < halfLabel ? 'none' : left > 100 - halfLabel ? 'translateX(-100%)' : '';
    tick.textContent = formatClock(t, zone, seconds);
  });
}

/** Tick labels under the charts, following the shared range (or a fixed one: the overview). */
export function TimeAxis({ screen, zone, fixed, testId }: { screen: ChartScreen; zone: string; fixed?: TimeRange; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current!;
    // The axis's width, kept by a ResizeObserver: read per frame it would force a layout.
    let width = el.clientWidth;
    const draw = () => drawTicks(el, fixed ?? screen.view.store.state.range, zone, width);
    draw();
    const resize = new ResizeObserver(() => {
      if (el.clientWidth === width) return;
      width = el.clientWidth;
      draw();
    });
    resize.observe(el);
    const off = fixed ? null : screen.view.onRange(draw);
    return () => {
      resize.disconnect();
      off?.();
    };
  }, [screen, zone, fixed]);
  return <div ref={ref} className="time-axis" dir="ltr" data-testid={testId} />;
}
