// The readout of min, max, mean, p10, p50 and p90 of the visible window (spec 2 §5),
// computed by the engine and written into the DOM directly, at most every STATS_DELAY_MS.
import { useEffect, type RefObject } from 'react';
import type { ChannelRef } from '../../../engine/index';
import { ms } from '../../../engine/index';
import type { SignalApi } from '../../../workers/protocol';
import { formatValue } from '../../charts/core/format';
import { span, type TimeRange } from '../../time/range';
import { MINUTE_MS } from '../../time/constants';
import type { ChartScreen } from '../../charts/screen';

/** Readouts wait this long after the last range change (a burst of page steps costs one query). */
export const STATS_DELAY_MS = 120;

/** Formats a stats line, labels translated; null: the window holds no valid sample (the line says so). */
export type StatsFormatter = (values: Record<'min' | 'max' | 'mean' | 'p10' | 'p50' | 'p90', string> | null) => string;

export function useStatsReadout(
  screen: ChartScreen,
  api: SignalApi,
  ref: ChannelRef | null,
  el: RefObject<HTMLElement | null>,
  format: StatsFormatter,
  language: string,
  note?: RefObject<HTMLElement | null>,
): void {
  useEffect(() => {
    const target = el.current;
    if (!ref || !target) return;
    const shown = note?.current ?? null;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let asked = 0;
    const run = (range: TimeRange) => {
      const id = ++asked;
      const mode = span(range) > 20 * MINUTE_MS ? 'fast' : 'auto';
      api.stats(ref, ms(range.t0), ms(range.t1), mode).then(
        (s) => {
          if (id !== asked) return;
          const f = (v: number) => formatValue(v, 1, language);
          // A window of no valid sample (between a night's sessions, the sensor off) says so, in the
          // readout and over the empty plot, instead of six dashes and a blank plot with no reason.
          const none = s.count === 0;
          target.textContent = format(none ? null : { min: f(s.min), max: f(s.max), mean: f(s.mean), p10: f(s.p10), p50: f(s.p50), p90: f(s.p90) });
          target.dataset.ready = 'true';
          // Words, not figures: in the text's own font (a monospaced one spaces Arabic letters apart).
          target.dataset.none = String(none);
          if (shown) shown.hidden = !none;
        },
        () => undefined,
      );
    };
    const schedule = (range: TimeRange) => {
      clearTimeout(timer);
      timer = setTimeout(() => run(range), STATS_DELAY_MS);
    };
    run(screen.view.store.state.range);
    const off = screen.view.onRange(schedule);
    return () => {
      off();
      clearTimeout(timer);
      asked++;
      if (shown) shown.hidden = true;
    };
  }, [screen, api, ref?.night, ref?.code, el, format, language, note]);
}
