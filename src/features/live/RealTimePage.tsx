// Real Time (/app/device_testing?id=&did=&back=, spec 1 §2): the spec's multi-chart view of
// one device's stream — the session so far, a zoomable window following the newest data,
// the window's histogram, a time slider stepped with the arrow keys and the range as h/m/s.
import { useCallback, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { TFunction } from 'i18next';
import { Link, useSearch } from 'wouter';
import { useSignalApi } from '../night/useSignalApi';
import { HistogramAxis } from '../night/HistogramAxis';
import { PATHS, patientDetailPath } from '../../routes';
import { LiveBoardSurface } from './LiveBoardSurface';
import { LivePlot } from './LivePlot';
import type { PlotAxes } from './axes';
import { LiveStateBadge } from './LiveStateBadge';
import { RealTimePicker } from './RealTimePicker';
import { clock, hms, sliderStepMs, zoomStep } from './format';
import { useLiveDevice } from './useLiveDevice';
import { useWindowAnalysis, type WindowAnalysis } from './useWindowAnalysis';
import { endAt, sliderOf, windowOf } from './liveWindow';
import type { LiveSeries } from './series';
import '../../styles/night.css';
import '../../styles/live.css';
import { formatNumber } from '../../format';
import { channelName } from '../../builtInNames';

const DEFAULT_WINDOW_MS = 60_000;
const PREFERRED = ['BR', 'HR', 'Y_DIST', 'MOV'];

/** The query's id, did and back (encoded, spec 1 §2). */
function useQuery() {
  const search = new URLSearchParams(useSearch());
  const id = Number(search.get('id'));
  const back = search.get('back');
  return { patientId: Number.isInteger(id) && id > 0 ? id : null, deviceId: search.get('did'), back: back?.startsWith('/app/') ? back : null };
}

/** The plots' axes: enough decimals to tell the three value labels apart over the visible span. */
function plotAxes(t: TFunction, language: string): PlotAxes {
  return {
    value: (v, span) => formatNumber(v, language, span >= 20 ? 0 : span >= 2 ? 1 : 2),
    time: (ms) => clock(ms),
    valueLabel: t('live.valueAxis'),
    timeLabel: t('live.timeAxis'),
    gap: t('live.gap'),
  };
}

/**
 * The window on the session: its length, its end (null follows the newest data), and the
 * slider's, the arrows' and the zoom buttons' moves of it.
 */
function useLiveWindow(series: LiveSeries | null, getSeries: () => LiveSeries | null) {
  const [windowMs, setWindowMs] = useState(DEFAULT_WINDOW_MS);
  /** End of the window; null follows the newest data. */
  const [endMs, setEndMs] = useState<number | null>(null);
  const getWindow = useCallback(() => {
    const s = getSeries();
    return s ? windowOf(s, endMs, windowMs) : null;
  }, [getSeries, endMs, windowMs]);
  // The session so far, across the chart's width (at least a second of it); the window's place is marked on it.
  const getFull = useCallback(() => {
    const s = getSeries();
    return s ? { t0: s.t0Ms, t1: Math.max(s.endMs, s.t0Ms + 1000) } : null;
  }, [getSeries]);

  const win = series ? windowOf(series, endMs, windowMs) : { t0: 0, t1: 0 };
  const step = sliderStepMs(windowMs);
  const { max: sliderMax, value: sliderValue } = sliderOf(series, endMs, windowMs);
  const moveTo = (startS: number) => {
    if (series) setEndMs(endAt(series, startS, sliderMax, windowMs));
  };
  const onKey = (e: KeyboardEvent) => {
    // On the slider too: the arrows step a fifth of the window there as anywhere on the page (its
    // own step is a second, so its thumb sits where the window is, at the end while following).
    if ((e.target instanceof HTMLInputElement && e.target.type !== 'range') || e.target instanceof HTMLSelectElement) return;
    if (e.key === 'ArrowLeft' || e.key === 'ArrowRight') {
      e.preventDefault();
      moveTo(sliderValue + (e.key === 'ArrowLeft' ? -1 : 1) * (step / 1000));
    }
  };
  const zoom = (direction: -1 | 1) => setWindowMs((w) => zoomStep(w, direction));
  // No samples yet (the stored session still loading, or none sent): no range or hint that would describe an empty session.
  const hasSamples = series !== null && series.endMs > series.t0Ms;
  return { windowMs, following: endMs === null, follow: () => setEndMs(null), win, getWindow, getFull, sliderMax, sliderValue, moveTo, onKey, zoom, hasSamples };
}

type LiveWindow = ReturnType<typeof useLiveWindow>;

/** The channel picker, zoom in and out, and back to following the newest data. */
function RealTimeControls({ codes, code, onPick, w }: { codes: string[]; code: string | null; onPick(code: string): void; w: LiveWindow }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="live-controls">
      <label>
        {t('live.channel')}{' '}
        {/* Nothing to pick before the first frame: a disabled picker says so instead of an empty box. */}
        <select value={code ?? ''} onChange={(e) => onPick(e.target.value)} disabled={codes.length === 0} data-testid="realtime-channel">
          {codes.length === 0 && <option value="">{t('live.noChannels')}</option>}
          {codes.map((c) => (
            <option key={c} value={c}>{channelName(t, i18n.language, c)}</option>
          ))}
        </select>
      </label>
      <button type="button" className="button" onClick={() => w.zoom(-1)} disabled={!w.hasSamples} data-testid="realtime-zoom-in" aria-label={t('live.zoomIn')}>+</button>
      <button type="button" className="button" onClick={() => w.zoom(1)} disabled={!w.hasSamples} data-testid="realtime-zoom-out" aria-label={t('live.zoomOut')}>−</button>
      <button type="button" className="button" onClick={w.follow} disabled={w.following} data-testid="realtime-follow">{t('live.follow')}</button>
    </div>
  );
}

/** The time slider under the charts and the window's range as clock times and h/m/s. */
function RealTimeSlider({ w }: { w: LiveWindow }) {
  const { t } = useTranslation();
  const { win, hasSamples } = w;
  const duration = hms(win.t1 - win.t0);
  return (
    <div className="live-slider">
      <input
        type="range"
        min={0}
        max={w.sliderMax}
        step={1}
        value={w.sliderValue}
        onChange={(e) => w.moveTo(Number(e.target.value))}
        disabled={!hasSamples}
        aria-label={t('live.slider')}
        aria-valuetext={hasSamples ? `${clock(win.t0)} – ${clock(win.t1)}` : undefined}
        data-testid="realtime-slider"
      />
      <p className="mono" data-testid="realtime-range" data-start={Math.round(win.t0)} data-end={Math.round(win.t1)}>
        {hasSamples ? t('live.range', { from: clock(win.t0), to: clock(win.t1), h: duration.h, m: duration.m, s: duration.s }) : t('live.noData')}
      </p>
      {/* The arrows have nowhere to go while the window holds the whole session: say how to get somewhere (a shorter window), where there is one. */}
      {hasSamples && w.sliderMax === 0 && zoomStep(w.windowMs, -1) < w.windowMs && <p className="muted" data-testid="realtime-fits">{t('live.allInWindow')}</p>}
    </div>
  );
}

export function RealTimePage() {
  const { t, i18n } = useTranslation();
  const { patientId, deviceId, back } = useQuery();
  const { device, connection, tick } = useLiveDevice(deviceId);
  const { api } = useSignalApi();
  const codes = device ? [...device.series.keys()] : [];
  const [picked, setPicked] = useState<string | null>(null);
  const code = picked && codes.includes(picked) ? picked : (PREFERRED.find((c) => codes.includes(c)) ?? codes[0] ?? null);

  const series = (device && code ? device.series.get(code) : null) ?? null;
  const getSeries = useCallback(() => (device && code ? (device.series.get(code) ?? null) : null), [device, code]);
  const w = useLiveWindow(series, getSeries);
  const { win } = w;
  const analysis = useWindowAnalysis(api, `live-${deviceId ?? ''}`, series, win.t0, win.t1);

  if (!deviceId) return <RealTimePicker />;

  // The window's caption names its channel, once there is one (no dangling "Window ·").
  const windowLabel = code ? t('live.window', { channel: channelName(t, i18n.language, code) }) : t('live.windowEmpty');
  const axes = plotAxes(t, i18n.language);
  const full = w.getFull();

  return (
    <LiveBoardSurface>
      <section className="live-page" data-testid="realtime-page" data-tick={tick} onKeyDown={w.onKey} tabIndex={-1} aria-labelledby="realtime-title">
        <header className="live-head">
          {back && <Link href={back} className="button" data-testid="realtime-back">{t('live.back')}</Link>}
          <h2 id="realtime-title">{t('live.title', { device: deviceId })}</h2>
          {patientId !== null && <Link href={patientDetailPath(patientId)}>{t('live.patientLink')}</Link>}
          <LiveStateBadge state={device?.state ?? 'offline'} connection={connection} />
          <Link href={PATHS.realtime}>{t('live.toDashboard')}</Link>
        </header>
        {device?.error && <p role="alert" className="error-text" data-testid="realtime-error">{t(`live.errors.${device.error}` as 'live.errors.not_found', { defaultValue: t('live.errors.other') })}</p>}
        {device && device.recordingId === null && !device.error && <p className="muted" data-testid="realtime-waiting">{t('live.waiting')}</p>}
        <RealTimeControls codes={codes} code={code} onPick={setPicked} w={w} />
        <figure className="live-full">
          <figcaption>{t('live.fullRange')}</figcaption>
          <div className="live-plot-wrap">
            <LivePlot series={getSeries} range={w.getFull} testId="realtime-full" label={t('live.fullRange')} color={[0.45, 0.45, 0.55]} axes={axes}>
              {full && series && (
                <div
                  className="live-selection"
                  data-testid="realtime-selection"
                  style={selectionStyle(win, full)}
                />
              )}
            </LivePlot>
          </div>
        </figure>
        <div className="live-window-row">
          <figure className="live-window">
            <figcaption data-testid="realtime-window-caption">{windowLabel}</figcaption>
            <div className="live-plot-wrap live-plot-tall">
              <LivePlot series={getSeries} range={w.getWindow} testId="realtime-window" label={windowLabel} axes={axes} />
            </div>
          </figure>
          <LiveHistogram analysis={analysis} />
        </div>
        <RealTimeSlider w={w} />
      </section>
    </LiveBoardSurface>
  );
}

/** The window's place on the full-range chart, clipped to it. */
function selectionStyle(win: { t0: number; t1: number }, full: { t0: number; t1: number }) {
  const span = Math.max(1, full.t1 - full.t0);
  const from = Math.max(0, (win.t0 - full.t0) / span);
  const to = Math.min(1, (win.t1 - full.t0) / span);
  return { insetInlineStart: `${from * 100}%`, inlineSize: `${Math.max(0, to - from) * 100}%` };
}

function LiveHistogram({ analysis }: { analysis: WindowAnalysis | null }) {
  const { t, i18n } = useTranslation();
  const hist = analysis?.histogram;
  const peak = hist ? Math.max(1, ...hist.counts) : 1;
  return (
    <figure className="histogram live-histogram" data-testid="realtime-histogram">
      <figcaption>{t('live.histogram')}</figcaption>
      <div className="histogram-bars" dir="ltr">
        {hist &&
          Array.from(hist.counts).map((count, i) => (
            <div key={i} className="histogram-bar" style={{ blockSize: `${(count / peak) * 100}%` }} title={`${hist.edges[i]!.toFixed(1)}–${hist.edges[i + 1]!.toFixed(1)}: ${count}`} data-testid="realtime-histogram-bar" />
          ))}
      </div>
      {hist && <HistogramAxis edges={hist.edges} />}
      {analysis && analysis.stats.count > 0 && (
        <p className="mono" data-testid="realtime-stats">
          {t('live.stats', { mean: formatNumber(analysis.stats.mean, i18n.language, 1), min: formatNumber(analysis.stats.min, i18n.language, 1), max: formatNumber(analysis.stats.max, i18n.language, 1), n: analysis.stats.count })}
        </p>
      )}
    </figure>
  );
}
