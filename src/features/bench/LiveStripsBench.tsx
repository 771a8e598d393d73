// /app/bench?live=ours|uplot&strips=32&width=390&height=120: the dashboard's live strips with
// synthetic data at a device's rate — a Y_DIST-like wave at 20 Hz, 4 samples every 200 ms a
// strip, the strips' frames spread over the 200 ms as devices' are, the last minute shown —
// drawn by our path (LivePlot: every strip a block of one LiveBoard, one WebGL context) or by uPlot given the same data at the same rate.
// bench/realtime-screen.ts drives it with bench/live-probe.js installed, which times both
// sides' animation frames and rasters both (gl.finish / a 1-pixel read) alike.
import { useEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import type uPlot from 'uplot';
import { LiveBoardSurface } from '../live/LiveBoardSurface';
import { LivePlot } from '../live/LivePlot';
import { paintProbe } from '../live/paintProbe';
import { LiveSeries } from '../live/series';
import '../../styles/live.css';

export interface LiveStripsParams {
  mode: 'ours' | 'uplot';
  strips: number;
  width: number;
  height: number;
}

/** Rate, frame interval and window of the dashboard's strips (Y_DIST, FRAME_INTERVAL_MS, LiveTile's STRIP_MS). */
const STRIP_RATE_HZ = 20;
const STRIP_UPDATE_MS = 200;
const STRIP_WINDOW_MS = 60_000;
/** The color LivePlot draws with by default, for uPlot too. */
const STROKE = 'rgb(41, 128, 186)';

declare global {
  interface Window {
    __nocturneLiveStrips?: { ready: boolean; mode: LiveStripsParams['mode']; strips: number };
  }
}

/** Reads ?live=ours|uplot&strips=32&width=390&height=120 with those defaults. */
function liveStripsParams(search: string): LiveStripsParams {
  const q = new URLSearchParams(search);
  const num = (key: string, fallback: number, max: number) => {
    const v = Number(q.get(key));
    return Number.isFinite(v) && v > 0 ? Math.min(Math.round(v), max) : fallback;
  };
  return { mode: q.get('live') === 'uplot' ? 'uplot' : 'ours', strips: num('strips', 32, 64), width: num('width', 390, 4096), height: num('height', 120, 2048) };
}

/** Sample k of strip i: a breathing-like wave in mm with a heartbeat ripple and noise, deterministic. */
function stripSample(i: number, k: number): number {
  const t = k / STRIP_RATE_HZ;
  let h = Math.imul(i + 1, 2_654_435_761) ^ Math.imul(k, 1_597_334_677);
  h = Math.imul(h ^ (h >>> 15), 2_246_822_519) >>> 0;
  const noise = h / 4_294_967_296 - 0.5;
  return 800 + 40 * i + 6 * Math.sin(2 * Math.PI * (0.22 + 0.01 * i) * t) + 0.4 * Math.sin(2 * Math.PI * 1.1 * t) + 0.3 * noise;
}

/** The strips' series, each holding a full window already (as a tile a minute after its device began). */
function makeSeries(strips: number, startMs: number): LiveSeries[] {
  const history = (STRIP_WINDOW_MS / 1000) * STRIP_RATE_HZ;
  return Array.from({ length: strips }, (_, i) => {
    const s = new LiveSeries('Y_DIST', STRIP_RATE_HZ, startMs - STRIP_WINDOW_MS, false);
    s.put(0, Array.from({ length: history }, (_, k) => stripSample(i, k)));
    return s;
  });
}

const windowOf = (s: LiveSeries) => ({ t0: s.endMs - STRIP_WINDOW_MS, t1: s.endMs });

export function LiveStripsBench({ search }: { search: string }) {
  const { t } = useTranslation();
  const params = useMemo(() => liveStripsParams(search), [search]);
  const series = useMemo(() => makeSeries(params.strips, Date.now()), [params.strips]);

  // The devices' frames: every 200 ms a strip gets its next 4 samples, strip i at phase i/strips of the interval.
  useEffect(() => {
    const perUpdate = (STRIP_RATE_HZ * STRIP_UPDATE_MS) / 1000;
    const timers: ReturnType<typeof setTimeout>[] = [];
    series.forEach((s, i) => {
      const tick = () => {
        const at = s.length;
        s.put(at, Array.from({ length: perUpdate }, (_, k) => stripSample(i, at + k)));
        paintProbe()?.applied(s, performance.timeOrigin + performance.now());
      };
      timers.push(setTimeout(() => timers.push(setInterval(tick, STRIP_UPDATE_MS)), (STRIP_UPDATE_MS * i) / series.length));
    });
    window.__nocturneLiveStrips = { ready: true, mode: params.mode, strips: series.length };
    return () => {
      for (const timer of timers) clearInterval(timer);
      delete window.__nocturneLiveStrips;
    };
  }, [series, params.mode]);

  const label = t('live.dashboard.strip', { channel: 'Y_DIST' });
  return (
    <div className="bench-page" data-testid="live-strips-bench" data-mode={params.mode}>
      <h2>{t('bench.liveTitle')}</h2>
      <LiveBoardSurface>
        <div style={{ display: 'grid', gridTemplateColumns: `repeat(auto-fill, ${params.width}px)`, gap: 8 }}>
          {series.map((s, i) => (
            <div key={i} className="live-plot-wrap" style={{ inlineSize: params.width, blockSize: params.height }}>
              {params.mode === 'ours' ? (
                <LivePlot series={() => s} range={() => windowOf(s)} testId="bench-strip" label={label} />
              ) : (
                <UplotStrip series={s} width={params.width} height={params.height} label={label} />
              )}
            </div>
          ))}
        </div>
      </LiveBoardSurface>
    </div>
  );
}

/**
 * One strip drawn by uPlot as its streaming demo does: on every animation frame after new
 * samples, setData with the window's samples (uPlot has no append), committed at once
 * (batch: no microtask in between), then the probe's raster read, as LivePlot's frame has.
 * Axes, legend and cursor off: its cheapest configuration, as LivePlot draws none either.
 */
function UplotStrip({ series, width, height, label }: { series: LiveSeries; width: number; height: number; label: string }) {
  const rootRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    let plot: uPlot | null = null;
    let frame = 0;
    let drawn = -1;
    let live = true;
    const data = (): uPlot.AlignedData => {
      const { t0, t1 } = windowOf(series);
      const [from, to] = series.indexRange(t0, t1);
      const xs = new Float64Array(to - from);
      for (let i = 0; i < xs.length; i++) xs[i] = series.timeOf(from + i) / 1000;
      return [xs as unknown as number[], series.view(from, to) as unknown as number[]];
    };
    const draw = () => {
      frame = requestAnimationFrame(draw);
      if (!plot || series.version === drawn) return;
      drawn = series.version;
      const next = data();
      plot.batch(() => plot!.setData(next));
      paintProbe()?.drawn(series, plot.ctx.canvas);
    };
    void (async () => {
      const { default: UPlot } = await import('uplot');
      await import('uplot/dist/uPlot.min.css');
      if (!live) return;
      plot = new UPlot(
        {
          width,
          height,
          legend: { show: false },
          cursor: { show: false },
          axes: [{ show: false }, { show: false }],
          scales: { x: { time: false } },
          series: [{}, { stroke: STROKE, width: 1 }],
        },
        data(),
        rootRef.current!,
      );
      frame = requestAnimationFrame(draw);
    })();
    return () => {
      live = false;
      cancelAnimationFrame(frame);
      plot?.destroy();
    };
  }, [series, width, height]);
  return <div ref={rootRef} role="img" aria-label={label} data-testid="bench-strip" />;
}
