import { useLayoutEffect, useRef } from 'react';
import { formatClock, zoneOffset } from '../core/format';
import { span, type TimeRange } from '../core/range';
import { SHORT_SPAN_MS, timeTicks } from '../core/ticks';
import { MINUTE_MS } from '../core/time';
import type { ChartScreen } from '../screen';

/** Rewrites the tick labels of `el` for `range` (DOM only, no React render). */
function drawTicks(el: HTMLElement, range: TimeRange, zone: string): void {
  const ticks = timeTicks(range, zoneOffset(zone));
  // Ticks off whole minutes (an eighth of a short span) need seconds to tell apart.
  const seconds = span(range) < SHORT_SPAN_MS && (span(range) / 8) % MINUTE_MS !== 0;
  while (el.children.length < ticks.length) {
    const tick = document.createElement('span');
    tick.className = 'time-tick';
    el.appendChild(tick);
  }
  while (el.children.length > ticks.length) el.lastChild!.remove();
  ticks.forEach((t, i) => {
    const tick = el.children[i] as HTMLElement;
    const left = ((t - range.t0) / span(range)) * 100;
    tick.style.insetInlineStart = `${left}%`;
    tick.textContent = formatClock(t, zone, seconds);
  });
}

/** Tick labels under the charts, following the shared range (or a fixed one: the overview). */
export function TimeAxis({ screen, zone, fixed, testId }: { screen: ChartScreen; zone: string; fixed?: TimeRange; testId?: string }) {
  const ref = useRef<HTMLDivElement>(null);
  useLayoutEffect(() => {
    const el = ref.current!;
    if (fixed) {
      drawTicks(el, fixed, zone);
      return;
    }
    drawTicks(el, screen.view.store.state.range, zone);
    return screen.view.onRange((range) => drawTicks(el, range, zone));
  }, [screen, zone, fixed]);
  return <div ref={ref} className="time-axis" dir="ltr" data-testid={testId} />;
}
