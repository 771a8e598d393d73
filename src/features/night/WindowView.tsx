import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { HistogramResult } from '../../../engine/index';
import { ms } from '../../../engine/index';
import type { TimeRange } from '../../time/range';
import type { ChartScreen } from '../../charts/screen';
import { channelDef } from './channels';
import { ChartBlockView } from './ChartBlockView';
import { TimeAxis } from '../../charts/react/TimeAxis';
import { HistogramAxis } from './HistogramAxis';
import { useNight } from './context';
import { binBand, histogramEdges, HISTOGRAM_RANGES } from './histogram';
import { STATS_DELAY_MS } from './useStatsReadout';
import { bandsOf } from './vitals';
import { channelName } from '../../builtInNames';

/** The window view (spec 2 §2): one channel, large; BR, PR and SPO2 add a histogram with threshold bands. */
export function WindowView({ screen, code, thresholds, onClose }: { screen: ChartScreen; code: string; thresholds: boolean; onClose: () => void }) {
  const def = channelDef(code);
  const height = Math.max(200, (typeof window === 'undefined' ? 800 : window.innerHeight) - 420);
  const ref = useRef<HTMLDivElement>(null);
  // Opened from a chart further down, the view would start under the sticky navigator, its title and close button hidden: scrolled to just below it.
  useEffect(() => {
    const top = ref.current?.getBoundingClientRect().top;
    const below = document.querySelector('.navigator.sticky-top')?.getBoundingClientRect().bottom ?? 0;
    if (top !== undefined && top < below) window.scrollBy({ top: top - below - 8 });
  }, [code]);
  return (
    <div ref={ref} className="window-view" data-testid="window-view">
      <ChartBlockView
        id={`window-${code}`}
        screen={screen}
        def={def}
        height={height}
        expanded
        thresholds={thresholds}
        onToggleExpand={() => undefined}
        onCloseWindow={onClose}
        footer={<WindowTimeAxis screen={screen} />}
      />
      {def.bands && <Histogram screen={screen} code={code} kind={def.bands} />}
    </div>
  );
}

/** The window's own time axis under its plot (the stack and its axis are not shown while the window view is open). */
function WindowTimeAxis({ screen }: { screen: ChartScreen }) {
  const { night } = useNight();
  return (
    <div className="chart-body x-axis-row" dir="ltr">
      <div className="y-axis" />
      <div className="plot-width-probe">
        <TimeAxis screen={screen} zone={night.timezone} testId="window-time-axis" />
      </div>
    </div>
  );
}

function Histogram({ screen, code, kind }: { screen: ChartScreen; code: string; kind: 'br' | 'pr' | 'spo2' }) {
  const { t, i18n } = useTranslation();
  const { api, nightRef, infos, vitals, provisional } = useNight();
  const [hist, setHist] = useState<HistogramResult | null>(null);
  const bands = bandsOf(kind, vitals);
  const loaded = Boolean(infos[code]) && !provisional?.has(code);
  useEffect(() => {
    if (!loaded) return;
    const [lo, hi] = HISTOGRAM_RANGES[code] ?? [0, 100];
    const edges = histogramEdges(lo, hi);
    let timer: ReturnType<typeof setTimeout> | undefined;
    let live = true;
    const run = (r: TimeRange) => {
      api.histogram({ night: nightRef, code }, ms(r.t0), ms(r.t1), edges, bands).then((h) => live && setHist(h), () => undefined);
    };
    run(screen.view.store.state.range);
    const off = screen.view.onRange((r) => {
      clearTimeout(timer);
      timer = setTimeout(() => run(r), STATS_DELAY_MS);
    });
    return () => {
      live = false;
      off();
      clearTimeout(timer);
    };
  }, [screen, api, nightRef, code, loaded, vitals]);

  const peak = hist ? Math.max(1, ...hist.counts) : 1;
  return (
    <figure className="histogram" data-testid="histogram">
      <figcaption>{t('night.histogram.title', { channel: channelName(t, i18n.language, code) })}</figcaption>
      <div className="histogram-bars" dir="ltr">
        {hist &&
          Array.from(hist.counts).map((count, i) => {
            const from = hist.edges[i]!;
            const to = hist.edges[i + 1]!;
            return (
              <div
                key={i}
                className={`histogram-bar band-${binBand(from, to, bands)}`}
                style={{ blockSize: `${(count / peak) * 100}%` }}
                title={`${from.toFixed(0)}–${to.toFixed(0)}: ${count}`}
                data-testid="histogram-bar"
              />
            );
          })}
      </div>
      {hist && <HistogramAxis edges={hist.edges} />}
      {hist?.bands && (
        <p className="histogram-bands" data-testid="histogram-bands">
          {t('night.histogram.bands', {
            normal: Math.round(hist.bands.normal),
            moderate: Math.round(hist.bands.moderate),
            severe: Math.round(hist.bands.severe),
          })}
        </p>
      )}
    </figure>
  );
}
