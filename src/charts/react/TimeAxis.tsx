import { useLayoutEffect, useRef } from 'react';
import { formatClock, zoneOffset } from '../core/format';
import { span, type TimeRange } from '../../time/range';
import { placeTicks, SHORT_SPAN_MS, timeTicks } from '../core/ticks';
import { MINUTE_MS } from '../../time/constants';
import type { ChartScreen } from '../screen';

/** Width of a tick label per character at the axis's 0.68rem (digits and colons), px, and the least space between two. */
const CHAR_PX = 6.5;
const LABEL_GAP_PX = 10;

/**
 * Rewrites the tick labels of `el` for `range` (DOM only, no React render): as many as fit
 * without touching, those at the ends aligned inwards so none runs past the axis (its card).
 */
function drawTicks(el: HTMLElement, range: TimeRange, zone: string, widthPx: number): void {
  const all = timeTicks(range, zoneOffset(zone));
  // Ticks off whole minutes (an eighth of a short span) need seconds to tell apart.
  const seconds = span(range) < SHORT_SPAN_MS && (span(range) / 8) % MINUTE_MS !== 0;
  const ticks = placeTicks(all, range, widthPx, (seconds ? 8 : 5) * CHAR_PX, LABEL_GAP_PX);
  while (el.children.length < ticks.length) {
    const tick = document.createElement('span');
    tick.className = 'time-tick';
    el.appendChild(tick);
  }
  while (el.children.length > ticks.length) el.lastChild!.remove();
  ticks.forEach(({ t, leftPct, align }, i) => {
    const tick = el.children[i] as HTMLElement;
    tick.style.insetInlineStart = `${leftPct}%`;
    tick.style.transform = align === 'start' ? 'none' : align === 'end' ? 'translateX(-100%)' : '';
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
