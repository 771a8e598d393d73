// Histogram and statistics of the Real Time view's window, from the signal engine in its
// worker: the window's samples are loaded as a channel, measured and closed again.
import { useEffect, useRef, useState } from 'react';
import type { HistogramResult, WindowStats } from '../../../engine/index';
import { hz, ms } from '../../../engine/units';
import type { SignalApi } from '../../../workers/protocol';
import { histogramEdges, HISTOGRAM_RANGES } from '../night/histogram';
import type { LiveSeries } from './series';

export interface WindowAnalysis {
  histogram: HistogramResult;
  stats: WindowStats;
}

const ANALYSE_EVERY_MS = 1_000;

/** Loads [t0, t1) of the series into the engine and measures it. */
async function analyseWindow(api: SignalApi, night: string, series: LiveSeries, t0: number, t1: number): Promise<WindowAnalysis | null> {
  const [from] = series.indexRange(t0, t1);
  const samples = series.slice(t0, t1);
  if (samples.length === 0) return null;
  const ref = { night, code: series.code };
  const start = series.timeOf(from);
  // Before load: in worker mode the samples are transferred (detached here).
  const end = start + (samples.length * 1000) / series.rate;
  await api.load({ ...ref, samples, sampleRateHz: hz(series.rate), t0Ms: ms(start), missingCodes: [] });
  try {
    const stats = await api.stats(ref, ms(start), ms(end));
    const [lo, hi] = HISTOGRAM_RANGES[series.code] ?? [Number.isFinite(stats.min) ? Math.floor(stats.min) : 0, Number.isFinite(stats.max) ? Math.ceil(stats.max) : 1];
    const histogram = await api.histogram(ref, ms(start), ms(end), histogramEdges(lo, hi));
    return { histogram, stats };
  } finally {
    await api.close(night, series.code);
  }
}

/** The window's analysis, renewed at most once a second while the view or the data change. */
export function useWindowAnalysis(api: SignalApi | null, night: string, series: LiveSeries | null, t0: number, t1: number): WindowAnalysis | null {
  const [result, setResult] = useState<WindowAnalysis | null>(null);
  const busy = useRef(false);
  const last = useRef(0);
  const [retry, setRetry] = useState(0);
  const version = series?.version ?? 0;
  useEffect(() => {
    if (!api || !series) return;
    if (busy.current || Date.now() - last.current < ANALYSE_EVERY_MS) {
      // Throttled: come back once the second is over, so the last change is measured too.
      const timer = setTimeout(() => setRetry((n) => n + 1), ANALYSE_EVERY_MS);
      return () => clearTimeout(timer);
    }
    busy.current = true;
    last.current = Date.now();
    analyseWindow(api, night, series, t0, t1)
      .then((r) => setResult(r), (err: unknown) => {
        console.warn('window analysis failed', err);
        setResult(null);
      })
      .finally(() => (busy.current = false));
  }, [api, night, series, t0, t1, version, retry]);
  return result;
}
