import { useCallback, useEffect, useLayoutEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearch } from 'wouter';
import { hz, ms } from '../../../engine/index';
import { getSignalEngine } from '../../../workers/client';
import type { SignalApi } from '../../../workers/protocol';
import { ChartSurface } from '../../charts/react/ChartSurface';
import { useArrowPaging } from '../../charts/react/useArrowPaging';
import { useChartBlock, usePlotWidth } from '../../charts/react/useChartBlock';
import type { ChartScreen } from '../../charts/screen';
import '../../styles/night.css';
import { LiveStripsBench } from './LiveStripsBench';
import { FrameLog, runOurs, runUplot, runZoomPan, summarize, type UplotLike } from './sequence';
import { benchParams, benchRates, synthChannel, type BenchChannel } from './synthetic';
import { formatNumber } from '../../format';

const NIGHT = 'bench';
const T0 = Date.UTC(2026, 0, 1, 21, 0);
const BLOCK_HEIGHT = 40;

declare global {
  interface Window {
    __nocturneBench?: {
      ready: boolean;
      run(): Promise<ReturnType<typeof summarize>>;
      /** Zooms and pans alone, each with where its time went (bench/render-ab.ts). */
      zoomPan?(): ReturnType<typeof runZoomPan>;
      error?: string;
    };
  }
}

/** /app/bench: the render benchmark, or with ?live=… the live strips' (LiveStripsBench). */
export function BenchPage() {
  const search = useSearch();
  return new URLSearchParams(search).has('live') ? <LiveStripsBench search={search} /> : <RenderBenchPage search={search} />;
}

/**
 * /app/bench?channels=16&hz=250&hours=10&fast=4: a synthetic night drawn by our renderer,
 * then by uPlot with the same data; `window.__nocturneBench.run()` runs the sequence
 * (bench/render.bench.ts drives it). Nothing here touches the server.
 */
function RenderBenchPage({ search }: { search: string }) {
  const { t, i18n } = useTranslation();
  const params = benchParams(search);
  const [api, setApi] = useState<SignalApi | null>(null);
  const [data, setData] = useState<BenchChannel[] | null>(null);
  const log = useMemo(() => new FrameLog(), []);
  const domain = useMemo(() => ({ t0: T0, t1: T0 + params.hours * 3_600_000 }), [params.hours]);

  useEffect(() => {
    let live = true;
    void (async () => {
      const engine = await getSignalEngine();
      await engine.api.close(NIGHT);
      const channels = benchRates(params).map((rate, i) => synthChannel(i, rate, params.hours));
      // The engine takes a copy (transferred); uPlot draws from ours.
      await Promise.all(channels.map((c) => engine.api.load({
        night: NIGHT, code: c.code, samples: c.samples.slice(), sampleRateHz: hz(c.rate), t0Ms: ms(T0), nonPositiveMissing: false,
      })));
      if (!live) return;
      setApi(engine.api);
      setData(channels);
    })().catch((error: unknown) => {
      window.__nocturneBench = { ready: false, error: String(error), run: () => Promise.reject(error) };
    });
    return () => {
      live = false;
    };
  }, []);

  if (!api || !data) return <p className="muted" role="status">{t('bench.loading', { channels: params.channels, hours: params.hours })}</p>;
  const samples = data.reduce((n, c) => n + c.samples.length, 0);
  return (
    <div className="bench-page" data-testid="bench">
      <h2>{t('bench.title')}</h2>
      <p className="muted">{t('bench.ready', { channels: params.channels, hours: params.hours, samples: formatNumber(samples, i18n.language) })}</p>
      <ChartSurface source={api} domain={domain} options={{ onFrame: log.push, finish: true }}>
        {(screen) => <BenchCharts screen={screen} data={data} log={log} />}
      </ChartSurface>
    </div>
  );
}

function BenchCharts({ screen, data, log }: { screen: ChartScreen; data: BenchChannel[]; log: FrameLog }) {
  const { t } = useTranslation();
  const widthRef = usePlotWidth(screen);
  const uplotRef = useRef<HTMLDivElement>(null);
  const [peer, setPeer] = useState(false);
  const [result, setResult] = useState<string>('');
  const [running, setRunning] = useState(false);
  // The keys as a user has them, the spec's 500 ms debounce included: the sequence presses
  // no faster than it lets through, so every page step measured is one a user can make.
  // A page step is painted in the key's own task when its data is there (it always is: see ViewFeeder).
  const paintStep = useCallback(() => screen.renderer.drawNow(), [screen]);
  useArrowPaging(screen.view, { onStep: paintStep });

  useEffect(() => {
    window.__nocturneBench = {
      ready: true,
      run: async () => {
        const ours = await runOurs(screen, log);
        setPeer(true);
        const plots = await buildUplot(uplotRef.current!, data, screen.width);
        const peerResults = await runUplot(plots.instances, T0 / 1000, T0 / 1000 + (data[0]!.samples.length / data[0]!.rate));
        plots.destroy();
        setPeer(false);
        return summarize(ours, peerResults);
      },
      zoomPan: () => runZoomPan(screen, log, true),
    };
    return () => {
      delete window.__nocturneBench;
    };
  }, [screen, data, log]);

  const runHere = async () => {
    setRunning(true);
    try {
      setResult(JSON.stringify(await window.__nocturneBench!.run(), null, 2));
    } catch (error) {
      setResult(String(error));
    } finally {
      setRunning(false);
    }
  };

  return (
    <>
      <p>
        <button type="button" className="button button-small" disabled={running} onClick={() => void runHere()} data-testid="bench-run">
          {running ? t('bench.running') : t('bench.run')}
        </button>
      </p>
      {result && <pre className="mono" data-testid="bench-result">{result}</pre>}
      <div className="bench-stack" style={{ display: peer ? 'none' : undefined }}>
        {data.map((c) => (
          <BenchBlock key={c.code} screen={screen} channel={c} />
        ))}
        <div className="chart-body">
          <div className="y-axis" />
          <div ref={widthRef} className="plot-width-probe" />
        </div>
      </div>
      <div ref={uplotRef} className="bench-uplot" aria-label={t('bench.uplot')} />
    </>
  );
}

function BenchBlock({ screen, channel }: { screen: ChartScreen; channel: BenchChannel }) {
  const { ref, block } = useChartBlock(screen, channel.code);
  useLayoutEffect(() => {
    if (!block) return;
    const fast = channel.rate >= 20;
    block.yMin = fast ? -1.6 : 0;
    block.yMax = fast ? 1.6 : 200;
    screen.setBlock(block, [{ ref: { night: NIGHT, code: channel.code }, style: 'line', color: [0.12, 0.37, 0.66, 1] }]);
  }, [screen, block, channel]);
  return (
    <div className="chart-body">
      <div className="y-axis mono">{channel.code}</div>
      <div ref={ref} className="plot" style={{ blockSize: BLOCK_HEIGHT }} />
    </div>
  );
}

/** One uPlot chart per channel, same size as ours, axes, legend and cursor off (its best case). */
async function buildUplot(root: HTMLElement, data: BenchChannel[], width: number): Promise<{ instances: UplotLike[]; destroy(): void }> {
  const { default: UPlot } = await import('uplot');
  await import('uplot/dist/uPlot.min.css');
  const xs = new Map<number, Float64Array>();
  const xOf = (rate: number, n: number) => {
    let x = xs.get(rate);
    if (!x) {
      x = new Float64Array(n);
      for (let i = 0; i < n; i++) x[i] = T0 / 1000 + i / rate;
      xs.set(rate, x);
    }
    return x;
  };
  const instances = data.map((c) => {
    // Our -1 codes become NaN, which the canvas skips (a gap) without a boxed array of 9M values.
    const y = c.samples.map((v) => (v === -1 ? Number.NaN : v));
    const fast = c.rate >= 20;
    return new UPlot(
      {
        width: Math.max(100, width),
        height: BLOCK_HEIGHT,
        legend: { show: false },
        cursor: { show: false },
        axes: [{ show: false }, { show: false }],
        scales: { x: { time: true }, y: { auto: false, range: fast ? [-1.6, 1.6] : [0, 200] } },
        series: [{}, { stroke: '#1f5fa8', width: 1 }],
      },
      [xOf(c.rate, c.samples.length) as unknown as number[], y as unknown as number[]],
      root,
    );
  });
  return { instances, destroy: () => instances.forEach((u) => u.destroy()) };
}
