import { useLayoutEffect, useRef, useState, type PointerEvent as ReactPointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { formatValue } from '../../charts/core/format';
import type { ThresholdBands } from '../../../engine/index';
import { INDEX_CHANNELS, isValuePoint, SPREAD_CHANNELS, valueRuns, yScale, type DayWindow, type NoBasisDay, type TrendPoint, type ValuePoint } from './model';
import { ahiBasisReason } from '../summary/basis';
import { SpreadLine } from './SpreadLine';
import { formatIsoDayShort } from '../../format';
import { channelName } from '../../builtInNames';

const HEIGHT = 180;
const PAD = { left: 48, right: 12, top: 10, bottom: 26 };
const PERCENT = new Set(['SQ', 'SE']);

/** Width of an element, followed as it resizes. */
export function useWidth<T extends HTMLElement>(): [React.RefObject<T | null>, number] {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(600);
  useLayoutEffect(() => {
    const el = ref.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(200, Math.round(el.getBoundingClientRect().width)));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  return [ref, width];
}

/** A short date label: 12 Mar. */
const dayLabel = (iso: string, locale: string) => formatIsoDayShort(iso, locale);

type Scale = ReturnType<typeof yScale>;

/** Where things go on a chart `width` px wide of `days` day slots: x of a slot's middle, y of a value. */
interface Geometry {
  width: number;
  plotW: number;
  plotH: number;
  slot: number;
  x(i: number): number;
  y(v: number): number;
}

function geometry(width: number, days: number, scale: Scale): Geometry {
  const plotW = width - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const slot = plotW / Math.max(1, days);
  return {
    width,
    plotW,
    plotH,
    slot,
    x: (i) => PAD.left + (i + 0.5) * slot,
    y: (v) => PAD.top + plotH - ((v - scale.lo) / (scale.hi - scale.lo)) * plotH,
  };
}

/** The days of `window`, and each series' points on them (by date and in order). */
function daysShown(dates: readonly string[], window: DayWindow, points: readonly TrendPoint[], device: readonly ValuePoint[], noBasis: readonly NoBasisDay[]) {
  const shown = dates.slice(window.first, window.last + 1);
  const byDate = new Map(points.map((p) => [p.date, p]));
  const visible = shown.flatMap((d) => (byDate.has(d) ? [byDate.get(d)!] : []));
  const deviceByDate = new Map(device.map((p) => [p.date, p]));
  const deviceShown = shown.flatMap((d) => (deviceByDate.has(d) ? [deviceByDate.get(d)!] : []));
  const noBasisShown = new Map(noBasis.filter((d) => shown.includes(d.date)).map((d) => [d.date, d.basis]));
  return { shown, byDate, visible, deviceByDate, deviceShown, noBasisShown };
}

/** An index's lines: the dots of consecutive nights joined ({@link valueRuns}), as svg polyline points. */
function indexLines(shown: readonly string[], byDate: ReadonlyMap<string, TrendPoint>, { x, y }: Geometry): string[] {
  const valueOn = (d: string) => {
    const p = byDate.get(d);
    return p && isValuePoint(p) ? p.value : null;
  };
  return valueRuns(shown, valueOn).map((run) => run.map((i) => `${x(i)},${y(valueOn(shown[i]!)!)}`).join(' '));
}

/** Dragging across the days: from the day it began on to the day under the pointer; a drag over more than one day zooms to them. */
function useDayDrag(onZoom: (a: number, b: number) => void) {
  const [drag, setDrag] = useState<{ a: number; b: number } | null>(null);
  /** The svg's pointer handlers, `dayAt` telling which day is under a pointer. */
  const handlers = (dayAt: (clientX: number, svg: SVGSVGElement) => number) => ({
    onPointerDown: (e: ReactPointerEvent<SVGSVGElement>) => {
      if (e.button !== 0) return;
      e.currentTarget.setPointerCapture(e.pointerId);
      const d = dayAt(e.clientX, e.currentTarget);
      setDrag({ a: d, b: d });
    },
    onPointerMove: (e: ReactPointerEvent<SVGSVGElement>) => {
      if (drag) setDrag({ a: drag.a, b: dayAt(e.clientX, e.currentTarget) });
    },
    onPointerUp: () => {
      if (drag && drag.a !== drag.b) onZoom(drag.a, drag.b);
      setDrag(null);
    },
    onPointerCancel: () => setDrag(null),
  });
  return { drag, handlers };
}

/** The moderate and severe bands behind the values, clipped to the scale. */
function Bands({ bands, scale, g }: { bands: ThresholdBands; scale: Scale; g: Geometry }) {
  return (['moderate', 'severe'] as const).flatMap((level) => bands[level].map(([from, to]) => {
    const top = Math.min(Math.max(to, from), scale.hi);
    const bottom = Math.max(Math.min(from, to), scale.lo);
    if (top <= bottom) return null;
    return (
      <rect key={`${level}-${from}-${to}`} className={`trend-band trend-band-${level}`} data-testid={`trend-band-${level}`}
        x={PAD.left} width={g.plotW} y={g.y(top)} height={g.y(bottom) - g.y(top)} />
    );
  }));
}

/** The value grid with its labels, and the day labels under the plot (as many as fit). */
function Grid({ scale, g, shown }: { scale: Scale; g: Geometry; shown: readonly string[] }) {
  const { i18n } = useTranslation();
  const labelEvery = Math.max(1, Math.ceil(shown.length / Math.max(1, Math.floor(g.plotW / 56))));
  return (
    <>
      {scale.ticks.map((v) => (
        <g key={v} className="trend-grid">
          <line x1={PAD.left} x2={g.width - PAD.right} y1={g.y(v)} y2={g.y(v)} />
          <text x={PAD.left - 6} y={g.y(v) + 4} textAnchor="end">{formatValue(v, scale.digits, i18n.language)}</text>
        </g>
      ))}
      {shown.map((d, i) => (i % labelEvery === 0 ? (
        <text key={d} className="trend-day" x={g.x(i)} y={HEIGHT - 8} textAnchor="middle">{dayLabel(d, i18n.language)}</text>
      ) : null))}
    </>
  );
}

/** The marks beside the values: "–" on a night without a basis for its index, a square at the device's own AHI. */
function SideMarks({ shown, noBasis, device, g }: { shown: readonly string[]; noBasis: ReadonlyMap<string, NoBasisDay['basis']>; device: ReadonlyMap<string, ValuePoint>; g: Geometry }) {
  const { t, i18n } = useTranslation();
  return (
    <>
      {shown.map((d, i) => (noBasis.has(d) ? (
        <text key={`nb-${d}`} className="trend-no-basis" x={g.x(i)} y={PAD.top + g.plotH - 4} textAnchor="middle" data-testid="trend-no-basis-mark">
          –<title>{`${d}: ${t(ahiBasisReason(noBasis.get(d)) ?? 'nightBasis.noBreathing')}`}</title>
        </text>
      ) : null))}
      {shown.map((d, i) => {
        const p = device.get(d);
        return p ? (
          <rect key={`dev-${d}`} className="trend-device" x={g.x(i) - 3.5} y={g.y(p.value) - 3.5} width={7} height={7} data-testid="trend-device-point">
            <title>{`${d}: ${t('nightBasis.deviceAhi')} ${formatValue(p.value, 2, i18n.language)}`}</title>
          </rect>
        ) : null;
      })}
    </>
  );
}

/** One day's value: a dot for an index, else a box from p10 to p90 with the median, whiskers to min and max and a dot at the mean. */
function DayMark({ d, i, p, g }: { d: string; i: number; p: TrendPoint; g: Geometry }) {
  const { t, i18n } = useTranslation();
  const { x, y } = g;
  if (isValuePoint(p)) {
    return (
      <circle className="trend-dot" cx={x(i)} cy={y(p.value)} r={4} data-testid="trend-point">
        <title>{`${d}: ${formatValue(p.value, 2, i18n.language)}${p.index_basis === 'monitoring' ? ` (${t('scoring.reiTable')})` : ''}`}</title>
      </circle>
    );
  }
  if (p.lowerPercentile === null || p.upperPercentile === null || p.medianPercentile === null) return null;
  const w = Math.max(3, Math.min(28, g.slot * 0.6));
  return (
    <g className="trend-box" data-testid="trend-box">
      <title>{t('trend.boxTooltip', {
        date: d,
        min: formatValue(p.min ?? NaN, 1, i18n.language), p10: formatValue(p.lowerPercentile, 1, i18n.language), p50: formatValue(p.medianPercentile, 1, i18n.language),
        p90: formatValue(p.upperPercentile, 1, i18n.language), max: formatValue(p.max ?? NaN, 1, i18n.language), mean: formatValue(p.mean ?? NaN, 1, i18n.language),
      })}</title>
      {p.min !== null && p.max !== null && <line className="trend-whisker" x1={x(i)} x2={x(i)} y1={y(p.min)} y2={y(p.max)} />}
      <rect x={x(i) - w / 2} width={w} y={y(p.upperPercentile)} height={Math.max(1, y(p.lowerPercentile) - y(p.upperPercentile))} />
      <line className="trend-median" x1={x(i) - w / 2} x2={x(i) + w / 2} y1={y(p.medianPercentile)} y2={y(p.medianPercentile)} />
      {p.mean !== null && <circle className="trend-mean" cx={x(i)} cy={y(p.mean)} r={2} />}
    </g>
  );
}

/**
 * One trend channel over the shown days (spec 2 §2 "box plots per day"): for a signal a
 * box from p10 to p90 with the median, whiskers to min and max and a dot at the mean; for
 * an index (RII, SQ, SE, AHI, ODI) a dot per night joined by a line. Dragging across the
 * chart selects days to zoom to; every chart of the view follows.
 */
export function TrendChart({ code, unit, bands, points, noBasis = [], device, dates, window, onZoom }: {
  code: string;
  /** Unit shown after the title ('' for none). */
  unit: string;
  /** Moderate and severe bands drawn behind BR, PR and SPO2 (spec 2 §9: yellow, red). */
  bands?: ThresholdBands;
  points: readonly TrendPoint[];
  /** Dates of nights whose index has no basis (no breathing signal): "–" with the reason. */
  noBasis?: readonly NoBasisDay[];
  /** The device's own AHI per day (device summaries), drawn beside Nocturne's AHI. */
  device?: readonly ValuePoint[];
  dates: readonly string[];
  window: DayWindow;
  onZoom: (a: number, b: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const [box, width] = useWidth<HTMLDivElement>();
  const { drag, handlers } = useDayDrag(onZoom);
  const { shown, byDate, visible, deviceByDate, deviceShown, noBasisShown } = daysShown(dates, window, points, device ?? [], noBasis);
  const name = t(`trend.channels.${code}` as 'trend.channels.RII', { defaultValue: channelName(t, i18n.language, code) });
  const title = unit ? `${name} (${unit})` : name;
  const noBasisNote = noBasisShown.size > 0 && (
    <p className="muted" data-testid={`trend-no-basis-${code}`}>{t('nightBasis.trendNoBasis', { n: noBasisShown.size })}</p>
  );
  if (points.length === 0 && deviceShown.length === 0) {
    return (
      <section className="trend-chart" data-testid={`trend-chart-${code}`}>
        <h4>{title}</h4>
        {noBasisNote || <p className="muted" data-testid={`trend-empty-${code}`}>{t('night.noData', { channel: title })}</p>}
      </section>
    );
  }
  const scale = yScale([...(visible.length ? visible : points), ...deviceShown], PERCENT.has(code));
  const g = geometry(width, shown.length, scale);
  const { x, slot } = g;
  const dayAt = (clientX: number, svg: SVGSVGElement) => {
    const px = clientX - svg.getBoundingClientRect().left - PAD.left;
    return window.first + Math.max(0, Math.min(shown.length - 1, Math.floor(px / slot)));
  };
  const isIndex = INDEX_CHANNELS.has(code);
  const lines = isIndex ? indexLines(shown, byDate, g) : [];
  return (
    <section className="trend-chart" data-testid={`trend-chart-${code}`}>
      <h4>{title}</h4>
      {SPREAD_CHANNELS.has(code) && <SpreadLine values={visible.filter(isValuePoint).map((p) => p.value)} />}
      {noBasisNote}
      {deviceShown.length > 0 && <p className="muted" data-testid="trend-device-ahi-legend">{t('nightBasis.deviceAhiLegend')}</p>}
      {shown.some((d) => { const p = byDate.get(d); return !!p && isValuePoint(p) && p.index_basis === 'monitoring'; }) && (
        <p className="muted" data-testid={`trend-rei-${code}`}>{t('scoring.trendRei')}</p>
      )}
      <div ref={box} className="trend-chart-box" dir="ltr">
        <svg
          width={width}
          height={HEIGHT}
          role="img"
          aria-label={t('trend.chartLabel', { channel: title, count: visible.length })}
          {...handlers(dayAt)}
          data-testid={`trend-svg-${code}`}
        >
          {bands && <Bands bands={bands} scale={scale} g={g} />}
          <Grid scale={scale} g={g} shown={shown} />
          {drag && (
            <rect
              className="trend-selection"
              x={x(Math.min(drag.a, drag.b) - window.first) - slot / 2}
              width={(Math.abs(drag.b - drag.a) + 1) * slot}
              y={PAD.top}
              height={g.plotH}
            />
          )}
          {lines.map((points) => (
            <polyline key={points} className="trend-line" points={points} />
          ))}
          <SideMarks shown={shown} noBasis={noBasisShown} device={deviceByDate} g={g} />
          {shown.map((d, i) => {
            const p = byDate.get(d);
            return p ? <DayMark key={d} d={d} i={i} p={p} g={g} /> : null;
          })}
        </svg>
      </div>
    </section>
  );
}
