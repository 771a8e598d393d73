import { useCallback, useLayoutEffect, useMemo, useRef, useState, type DragEvent, type ReactNode, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { formatClock, formatValue } from '../../charts/core/format';
import { useChartBlock } from '../../charts/react/useChartBlock';
import { countRender } from '../../charts/gl/stats';
import type { BlockSeries, ChartScreen } from '../../charts/screen';
import type { ChartBlock } from '../../charts/gl/block';
import { ARTEFACT_CODE, holdMsOf, type ChannelDef } from './channels';
import { useNight } from './context';
import { SERIES_COLORS } from './palette';
import { usePlotPointer, type PointerOptions } from './usePlotPointer';
import { requestAnnotation } from './intents';
import { useStatsReadout, type StatsFormatter } from './useStatsReadout';
import { bandsOf } from './vitals';
import { readItem, writeItem } from '../../state/storage';
import { chartFocus, toggleFocus } from './focus';
import { autoDomain, CODED_LABELS, paintValueLabels, PHYSIOLOGICAL_RANGES } from './yAxis';
import { channelName, channelNameParts, sourceTitle } from '../../builtInNames';
import { displayUnit } from '../../../contract/vital-units';
import { SPEC_UNIT_KEYS } from './units';

/** Below this plot height (a montage of many charts) only the lowest and highest value labels are shown: four would overlap. */
const SHORT_PLOT_PX = 56;

/** Where a channel's value-axis choice (auto or fixed) is remembered. */
const yModeKey = (code: string) => `nocturne.yMode.${code}`;

/** Tooltip units the spec names (spec 2 §9); other channels use the recording's unit (a vital's is Nocturne's). */
const TOOLTIP_UNITS: Readonly<Record<string, string>> = SPEC_UNIT_KEYS;

export interface BlockProps {
  screen: ChartScreen;
  def: ChannelDef;
  /** Plot height, px. */
  height: number;
  expanded: boolean;
  thresholds: boolean;
  onToggleExpand: (code: string) => void;
  onWindowView?: (code: string) => void;
  onCloseWindow?: () => void;
  /** Drag and drop of the block (reorder). */
  dragProps?: { onDragStart: (e: DragEvent) => void; onDragOver: (e: DragEvent) => void; onDrop: (e: DragEvent) => void; onDragEnd: () => void };
  /** The window view's block has its own id and no reorder. */
  id?: string;
  /** Under the plot, inside the block (the window view's own time axis). */
  footer?: ReactNode;
}

/**
 * The block's value-axis choice: coded axes (stages, sleep/awake, bed) keep their labels; every
 * other axis follows the visible data unless the user fixed it for this channel (remembered).
 */
function useYMode(def: ChannelDef) {
  const [yMode, setYModeState] = useState<'auto' | 'fixed'>(() => (def.axis ? 'fixed' : readItem('localStorage', yModeKey(def.code)) === 'fixed' ? 'fixed' : 'auto'));
  const setYMode = (mode: 'auto' | 'fixed') => {
    setYModeState(mode);
    writeItem('localStorage', yModeKey(def.code), mode);
  };
  return [yMode, setYMode] as const;
}

/** The block's series (those of its sources the night has), whether they are still loading or empty, and the value range to draw. */
function useBlockData(def: ChannelDef, yZoom: [number, number] | null, yMode: 'auto' | 'fixed') {
  const { night, nightRef, infos, loading } = useNight();
  const code = def.code;
  const present = def.sources.filter((c) => infos[c]);
  const pending = def.sources.some((c) => loading.has(c));
  const empty = !pending && present.length === 0;
  // Samples, but not one valid (a sensor that was off all night). Neither this nor an empty chart has a value axis to show.
  const allMissing = !pending && present.length > 0 && present.every((c) => infos[c]!.validCount === 0);
  const series: BlockSeries[] = useMemo(
    () => present.map((c, i) => ({ ref: { night: nightRef, code: c }, style: def.style, color: SERIES_COLORS[i % SERIES_COLORS.length]!, holdMs: holdMsOf(night, c, def.style) })),
    [present.join(','), nightRef, def.style, night],
  );
  const yDomain = useMemo((): [number, number] => {
    if (yZoom) return yZoom;
    if (def.yDomain) return [def.yDomain[0], def.yDomain[1]];
    const physiological = PHYSIOLOGICAL_RANGES[code];
    if (physiological && yMode === 'fixed') return [physiological[0], physiological[1]];
    const lo = Math.min(...present.map((c) => infos[c]!.min));
    const hi = Math.max(...present.map((c) => infos[c]!.max));
    // Points (a night's few BP, sugar or temperature readings) keep clear of the edges, where a point would be cut in half.
    return autoDomain(lo, hi, def.style === 'points' ? 0.15 : 0.06);
  }, [yZoom, def, present.join(','), infos, yMode]);
  return { pending, empty, allMissing, series, yDomain };
}

interface OnScreen {
  series: BlockSeries[];
  yDomain: [number, number];
  autoY: boolean;
  height: number;
}

/** Hands the block's series, value range and bands to the screen, and paints the value labels as the drawn range moves. */
function useBlockOnScreen(screen: ChartScreen, block: ChartBlock | null, def: ChannelDef, yAxisRef: RefObject<HTMLDivElement | null>, { series, yDomain, autoY, height }: OnScreen) {
  const { i18n } = useTranslation();
  const { nightRef, infos, vitals } = useNight();
  const artefacts = infos[ARTEFACT_CODE] ? { night: nightRef, code: ARTEFACT_CODE } : null;
  useLayoutEffect(() => {
    if (!block) return;
    // An auto axis starts from the night's range and eases to the window's.
    if (!autoY || !block.yAuto) {
      block.yMin = yDomain[0];
      block.yMax = yDomain[1];
    }
    screen.setBlock(block, series, { artefacts });
    screen.setAutoY(block, autoY);
    if (def.bands) {
      const bands = bandsOf(def.bands, vitals);
      screen.setBands(block, bands.moderate, bands.severe);
    }
    screen.renderer.requestFrame();
  }, [screen, block, series, yDomain, artefacts?.code, def.bands, vitals, autoY]);

  // Value labels follow the drawn range frame by frame (coded axes keep their fixed labels).
  useLayoutEffect(() => {
    if (!block || def.axis) return;
    const el = yAxisRef.current!;
    block.onY = (lo, hi) => paintValueLabels(el, lo, hi, i18n.language);
    block.yShown = null;
    paintValueLabels(el, block.yMin, block.yMax, i18n.language);
    screen.renderer.requestFrame();
    return () => {
      block.onY = null;
    };
  }, [screen, block, def.axis, i18n.language]);

  useLayoutEffect(() => {
    screen.renderer.requestFrame();
  }, [screen, height]);
}

/**
 * A chart's unit: the spec's for bp, blood sugar and body temperature, Nocturne's for a vital
 * (decision 1044), else its (first) source channel's as recorded; '' without one.
 */
function useChannelUnit(def: ChannelDef, source?: string): string {
  const { t } = useTranslation();
  const { night } = useNight();
  const unitKey = TOOLTIP_UNITS[def.code];
  if (unitKey) return t(unitKey as 'night.units.bp');
  const code = source ?? def.sources[0] ?? def.code;
  return displayUnit(code, night.channels.find((c) => c.code === code)?.unit ?? '');
}

/**
 * What a chart's statistics readout reads and how it words it: the engine's statistics once its
 * samples are in (not of an overview), none of codes (stages, in bed: a "min 0 · max 3" of stages
 * means nothing); a chart of two signals (radar I and Q) names the one it reads; the figures in
 * the channel's unit, as the tooltip gives it (no unit after "no valid sample").
 */
function useStatsLine(def: ChannelDef, series: BlockSeries[], provisional: ReadonlySet<string> | undefined) {
  const { t, i18n } = useTranslation();
  const statsSource = !def.axis && series[0] && !provisional?.has(series[0].ref.code) ? series[0].ref : null;
  const readOf = series.length > 1 && statsSource ? channelName(t, i18n.language, statsSource.code) : null;
  const statsUnit = useChannelUnit(def, statsSource?.code);
  const format: StatsFormatter = useCallback(
    (v) => {
      const figures = v ? t('night.stats.line', v) : null;
      const line = figures === null ? t('night.stats.none') : statsUnit ? t('night.stats.withUnit', { line: figures, unit: statsUnit }) : figures;
      return readOf ? t('night.stats.of', { channel: readOf, line }) : line;
    },
    [t, readOf, statsUnit],
  );
  return { statsSource, format };
}

/** The pointer's tooltip: the time and each series' value (or coded label) in the pixel column under it. */
function useValueTooltip(screen: ChartScreen, series: BlockSeries[], def: ChannelDef) {
  const { t, i18n } = useTranslation();
  const { night } = useNight();
  const unit = useChannelUnit(def);
  const coded = def.axis ? CODED_LABELS[def.axis] : null;

  return useCallback((time: number): string | null => {
    const parts: string[] = [];
    for (const s of series) {
      const view = screen.feeder.viewOf(s.ref);
      if (!view) continue;
      let col = Math.floor((time - view.origin) / view.pxMs);
      if (col < 0 || col >= view.pixels) continue;
      // Sparse and coded channels: the value in force is the last one at or before the pointer.
      while (col > 0 && view.first[col] !== view.first[col] && def.style !== 'line') col--;
      const lo = view.min[col]!;
      const hi = view.max[col]!;
      if (lo !== lo) continue;
      if (coded) {
        const label = coded.find(([v]) => v === Math.round(view.last[col]!));
        parts.push(label ? t(label[1] as 'night.axis.deep') : formatValue(lo, 1, i18n.language));
      } else {
        const value = lo === hi ? formatValue(lo, 1, i18n.language) : `${formatValue(lo, 1, i18n.language)}–${formatValue(hi, 1, i18n.language)}`;
        // The channel's name in the user's language (BP's two series: systolic and diastolic), not its code.
        const name = channelName(t, i18n.language, s.ref.code);
        parts.push(`${name} ${value}${unit ? ` ${unit}` : ''}`);
      }
    }
    if (parts.length === 0) return null;
    return `${formatClock(time, night.timezone, true)}  ${parts.join(' · ')}`;
  }, [series, screen, def.style, coded, unit, night.timezone, t, i18n.language]);
}

interface HeadProps extends Pick<BlockProps, 'def' | 'expanded' | 'onToggleExpand' | 'onWindowView' | 'onCloseWindow' | 'dragProps'> {
  title: string;
  focused: boolean;
  statsRef: RefObject<HTMLSpanElement | null>;
  yMode: 'auto' | 'fixed';
  onYMode(mode: 'auto' | 'fixed'): void;
  zoomMode: 'x' | 'xy';
  onZoomMode(): void;
}

/** The block's head: drag handle, title (a focus toggle), info tip, stats readout and the tool chips. */
function BlockHead({ def, title, focused, statsRef, dragProps, ...p }: HeadProps) {
  const { t, i18n } = useTranslation();
  const code = def.code;
  // A long name gives way in a narrow header, its period ("(2 s)", which tells ResMed's two mask pressures apart) does not.
  const { name, period } = channelNameParts(t, i18n.language, code);
  const source = def.unmapped ? sourceTitle(t, code) : undefined;
  return (
    <header className="chart-block-head">
      {dragProps && (
        <span
          className="drag-handle"
          draggable
          onDragStart={dragProps.onDragStart}
          onDragEnd={dragProps.onDragEnd}
          title={t('night.block.drag')}
          aria-label={t('night.block.drag')}
          data-testid={`drag-${code}`}
        >
          ⠿
        </span>
      )}
      <h3 className="chart-title">
        {/* A click puts the chart in focus: the scoring keys mark its channels. */}
        <button type="button" className={`chart-focus${focused ? ' focused' : ''}`} aria-pressed={focused} title={t('night.block.focus')} onClick={() => toggleFocus(code)} data-testid={`focus-${code}`}>
          <span className="chart-name">{name}</span>
          {period && <span className="chart-period">{period}</span>}
        </button>
      </h3>
      <span className="info-tip" tabIndex={0} title={def.unmapped ? (source ? `${title} · ${source}` : title) : t(`night.info.${code}` as 'night.info.BR', { defaultValue: title })} aria-label={t('night.block.info')}>
        {t('night.block.infoMark')}
      </span>
      {!def.axis && <span ref={statsRef} className="chart-stats mono" data-testid={`stats-${code}`} />}
      <BlockTools def={def} {...p} />
    </header>
  );
}

/** The tool chips: auto or fixed value axis, X or XY zoom, window view (or close it), expand or collapse. */
function BlockTools({ def, expanded, onToggleExpand, onWindowView, onCloseWindow, yMode, onYMode, zoomMode, onZoomMode }: Omit<HeadProps, 'title' | 'focused' | 'statsRef' | 'dragProps'>) {
  const { t } = useTranslation();
  const code = def.code;
  return (
    <span className="chart-block-tools">
      {!def.axis && (
        <button
          type="button"
          className="chip"
          onClick={() => onYMode(yMode === 'auto' ? 'fixed' : 'auto')}
          aria-pressed={yMode === 'auto'}
          title={t('night.block.yModeHint')}
          data-testid={`y-mode-${code}`}
        >
          {yMode === 'auto' ? t('night.block.yAuto') : t('night.block.yFixed')}
        </button>
      )}
      <button type="button" className="chip" onClick={onZoomMode} aria-pressed={zoomMode === 'xy'} data-testid={`zoom-mode-${code}`}>
        {zoomMode === 'x' ? t('night.block.zoomX') : t('night.block.zoomXY')}
      </button>
      {onWindowView && (
        <button type="button" className="chip" onClick={() => onWindowView(code)} data-testid={`window-${code}`}>
          {t('night.block.window')}
        </button>
      )}
      {onCloseWindow && (
        <button type="button" className="chip" onClick={onCloseWindow} data-testid="window-close">
          {t('night.block.closeWindow')}
        </button>
      )}
      {!onCloseWindow && (
        <button type="button" className="chip" onClick={() => onToggleExpand(code)} aria-expanded={expanded} data-testid={`expand-${code}`}>
          {expanded ? t('night.block.collapse') : t('night.block.expand')}
        </button>
      )}
    </span>
  );
}

/** What the plot says instead of a trace: no data, no valid sample, or still loading. */
function PlotNotes({ code, title, empty, allMissing, pending }: { code: string; title: string; empty: boolean; allMissing: boolean; pending: boolean }) {
  const { t } = useTranslation();
  return (
    <>
      {empty && (
        <p className="plot-empty" dir="auto" data-testid={`no-data-${code}`}>
          {t('night.noData', { channel: title })}
        </p>
      )}
      {allMissing && (
        <p className="plot-empty" dir="auto" data-testid={`all-missing-${code}`}>
          {t('night.allMissing', { channel: title })}
        </p>
      )}
      {pending && <p className="plot-empty muted">{t('common.loading')}</p>}
    </>
  );
}

/**
 * One chart block: drag handle, title, info tip, expand/collapse, window view,
 * X / XY zoom, the stats readout; the plot itself is drawn by the screen's renderer.
 */
export function ChartBlockView({ screen, def, height, expanded, thresholds, onToggleExpand, onWindowView, onCloseWindow, dragProps, id, footer }: BlockProps) {
  countRender('ChartBlock');
  const { t, i18n } = useTranslation();
  const { api, provisional } = useNight();
  const { ref: plotRef, block } = useChartBlock(screen, id ?? def.code);
  const selectionRef = useRef<HTMLDivElement>(null);
  const tipRef = useRef<HTMLDivElement>(null);
  const statsRef = useRef<HTMLSpanElement>(null);
  const [zoomMode, setZoomMode] = useState<'x' | 'xy'>('x');
  const [yZoom, setYZoom] = useState<[number, number] | null>(null);
  const code = def.code;
  const [yMode, setYMode] = useYMode(def);
  const yAxisRef = useRef<HTMLDivElement>(null);
  const focused = useSnapshot(chartFocus).codes.includes(def.code);
  // Reset zoom also resets the value axis of an XY zoom (only this counter is read: no render per page step).
  const { resets } = useSnapshot(screen.view.store);
  useLayoutEffect(() => setYZoom(null), [resets]);

  const { pending, empty, allMissing, series, yDomain } = useBlockData(def, yZoom, yMode);
  const autoY = !yZoom && !def.axis && yMode === 'auto';
  useBlockOnScreen(screen, block, def, yAxisRef, { series, yDomain, autoY, height });

  const coded = def.axis ? CODED_LABELS[def.axis] : null;
  const tooltip = useValueTooltip(screen, series, def);

  // Ctrl + drag annotates this chart's channel (IQ stands for I and Q).
  const onAnnotate = useCallback((from: number, to: number) => requestAnnotation({ startMs: from, endMs: to, channel: code }), [code]);
  const drawnY = useCallback((): readonly [number, number] => (block ? [block.yMin, block.yMax] : yDomain), [block, yDomain]);
  const pointer = useRef<PointerOptions>({ zoomMode, yDomain: drawnY, onYZoom: setYZoom, tooltip, onAnnotate });
  pointer.current = { zoomMode, yDomain: drawnY, onYZoom: setYZoom, tooltip, onAnnotate };
  usePlotPointer(screen, plotRef, selectionRef, tipRef, pointer);

  const { statsSource, format } = useStatsLine(def, series, provisional);
  const windowNoteRef = useRef<HTMLParagraphElement>(null);
  useStatsReadout(screen, api, statsSource, statsRef, format, i18n.language, windowNoteRef);

  // A channel without a meaning here is named by its source signal when Nocturne knows it ('MaskPress.2s'), else keeps the file's label.
  const title = channelName(t, i18n.language, code);
  const labels = coded ? coded.map(([v, key]) => ({ v, text: t(key as 'night.axis.deep') })) : [];
  const toggleZoomMode = () => {
    setZoomMode(zoomMode === 'x' ? 'xy' : 'x');
    if (zoomMode === 'xy') setYZoom(null);
  };

  return (
    <section
      className={`chart-block${expanded ? ' expanded' : ''}${focused ? ' in-focus' : ''}`}
      data-testid={`chart-block-${code}`}
      data-code={code}
      onDragOver={dragProps?.onDragOver}
      onDrop={dragProps?.onDrop}
    >
      <BlockHead def={def} title={title} focused={focused} statsRef={statsRef} dragProps={dragProps} expanded={expanded} onToggleExpand={onToggleExpand} onWindowView={onWindowView} onCloseWindow={onCloseWindow} yMode={yMode} onYMode={setYMode} zoomMode={zoomMode} onZoomMode={toggleZoomMode} />
      <div className="chart-body" dir="ltr">
        <div ref={yAxisRef} className={`y-axis${height < SHORT_PLOT_PX ? ' y-axis-short' : ''}`} aria-hidden="true" data-testid={`y-axis-${code}`} style={empty || allMissing ? { visibility: 'hidden' } : undefined}>
          {labels.map(({ v, text }) => (
            <span key={`${v}-${text}`} style={{ insetBlockEnd: `${((v - yDomain[0]) / (yDomain[1] - yDomain[0])) * 100}%` }}>
              {text}
            </span>
          ))}
        </div>
        <div ref={plotRef} className="plot" style={{ blockSize: height }} data-testid={`plot-${code}`}>
          <div ref={selectionRef} className="plot-selection" />
          <div ref={tipRef} className="plot-tooltip" role="tooltip" />
          <PlotNotes code={code} title={title} empty={empty} allMissing={allMissing} pending={pending} />
          {/* Shown by the stats readout (DOM only, no render per page step) when the window holds no valid sample.
              The notes take their own direction: the plot is left to right in Arabic too, its words are not. */}
          {!empty && !allMissing && (
            <p ref={windowNoteRef} className="plot-empty" dir="auto" hidden data-testid={`none-here-${code}`}>
              {t('night.noneHere', { channel: title })}
            </p>
          )}
        </div>
      </div>
      {/* Under the plot, not over it: the legend must not hide the trace. */}
      {footer}
      {thresholds && def.bands && <p className="plot-legend" data-testid={`legend-${code}`}>{t('night.block.bandsLegend')}</p>}
    </section>
  );
}
