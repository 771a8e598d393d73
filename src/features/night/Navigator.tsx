import { useCallback, useLayoutEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { formatClock, formatSpan } from '../../charts/core/format';
import { span, type TimeRange } from '../../time/range';
import { PRESETS, type PresetId } from '../../time/constants';
import { countRender } from '../../charts/gl/stats';
import { TimeAxis } from '../../charts/react/TimeAxis';
import { useArrowPaging } from '../../charts/react/useArrowPaging';
import { epochCount, epochNumber } from '../../time/epochs';
import { useChartBlock, useOccluder } from '../../charts/react/useChartBlock';
import type { ChartScreen } from '../../charts/screen';
import type { ChartBlock } from '../../charts/gl/block';
import { channelDef, holdMsOf } from './channels';
import { useNight } from './context';
import { SERIES_COLORS } from './palette';
import { autoDomain } from './yAxis';
import { useStickyClearance } from './useStickyClearance';
import { intlLocale } from '../../format';

/** Navigator strip height, px (spec 2 §9). */
const NAVIGATOR_HEIGHT = 60;

/**
 * The span readout, the epoch counter of the scoring mode (30-s preset) and the window's box on the
 * overview, written on every range change without a React render.
 */
function useRangeReadout(screen: ChartScreen, preset: PresetId | 'custom') {
  const { t, i18n } = useTranslation();
  const { night } = useNight();
  const readoutRef = useRef<HTMLSpanElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const epochRef = useRef<HTMLSpanElement>(null);
  useLayoutEffect(() => {
    const readout = readoutRef.current!;
    const box = boxRef.current!;
    const epochEl = epochRef.current!;
    const numbers = new Intl.NumberFormat(intlLocale(i18n.language));
    const show = (r: TimeRange) => {
      // The epoch counter of the scoring mode (30-s preset), written without a React render.
      const d0 = screen.view.store.state.domain;
      if (screen.view.store.state.preset === '30s') {
        const n = epochNumber(r, d0);
        epochEl.textContent = t('night.scoring.epoch', { n: numbers.format(n), total: numbers.format(epochCount(d0)) });
        epochEl.dataset.epoch = String(n);
        epochEl.hidden = false;
      } else {
        epochEl.hidden = true;
        delete epochEl.dataset.epoch;
      }
      readout.textContent = `${formatSpan(span(r))} (${formatClock(r.t0, night.timezone, true)} – ${formatClock(r.t1, night.timezone, true)})`;
      readout.dataset.span = String(Math.round(span(r)));
      readout.dataset.t0 = String(Math.round(r.t0));
      const d = screen.view.store.state.domain;
      box.style.insetInlineStart = `${((r.t0 - d.t0) / span(d)) * 100}%`;
      box.style.inlineSize = `${Math.max(0.3, (span(r) / span(d)) * 100)}%`;
    };
    show(screen.view.store.state.range);
    return screen.view.onRange(show);
  }, [screen, night.timezone, preset, t, i18n.language]);

  return { readoutRef, boxRef, epochRef };
}

/** The overview strip: the whole night of `overviewCode` (nothing without one), on the night's own range. */
function useOverviewBlock(screen: ChartScreen, block: ChartBlock | null, domain: TimeRange, overviewCode: string | null) {
  const { night, nightRef, infos } = useNight();
  const info = overviewCode ? infos[overviewCode] : null;
  useLayoutEffect(() => {
    if (!block) return;
    block.fixedRange = domain;
    const def = overviewCode ? channelDef(overviewCode) : undefined;
    if (!def || !info || !overviewCode) {
      screen.setBlock(block, []);
      return;
    }
    const [lo, hi] = def.yDomain ?? autoDomain(info.min, info.max);
    block.yMin = lo;
    block.yMax = hi;
    screen.setBlock(block, [{ ref: { night: nightRef, code: overviewCode }, style: def.style, color: SERIES_COLORS[0]!, holdMs: holdMsOf(night, overviewCode, def.style) }]);
  }, [screen, block, domain, overviewCode, info, nightRef, night]);
}

/** The range presets; "custom" is offered only while a zoom has made the range one. */
function PresetSelect({ preset, dispatch }: { preset: PresetId | 'custom'; dispatch: ChartScreen['view']['dispatch'] }) {
  const { t } = useTranslation();
  return (
    <select
      value={preset === 'custom' ? '' : preset}
      onChange={(e) => {
        dispatch({ type: 'preset', preset: e.target.value as PresetId });
        // Arrow keys page the charts, not this select.
        e.target.blur();
      }}
      aria-label={t('night.nav.preset')}
      data-testid="range-preset"
    >
      {preset === 'custom' && <option value="">{t('night.nav.custom')}</option>}
      {PRESETS.map((p) => (
        <option key={p.id} value={p.id}>{t(p.labelKey)}</option>
      ))}
    </select>
  );
}

/**
 * The time-range navigator (spec 2 §2, §9): presets, the time-span readout, ← and →
 * (and the arrow keys) paging 20% of the window (one epoch in the 30-s preset), and an overview of the whole night
 * showing where the window is. Readout and window box are updated without React.
 */
export function Navigator({ screen, overviewCode }: { screen: ChartScreen; overviewCode: string | null }) {
  countRender('Navigator');
  const { t } = useTranslation();
  const { night } = useNight();
  const { preset } = useSnapshot(screen.view.store);
  const { dispatch } = screen.view;
  const stickyRef = useOccluder<HTMLElement>(screen);
  useStickyClearance(stickyRef, 'start');
  const { ref: overviewRef, block } = useChartBlock(screen, 'overview');
  const domain = screen.view.store.state.domain;
  const { readoutRef, boxRef, epochRef } = useRangeReadout(screen, preset);

  // A page step is painted in the key's own task when its data is there (it always is: see ViewFeeder).
  const paintStep = useCallback(() => screen.renderer.drawNow(), [screen]);
  useArrowPaging(screen.view, { onStep: paintStep });
  // The ← → buttons step like the keys: one epoch on the grid in the 30-s preset, else 20 %.
  const step = (direction: 1 | -1) => {
    dispatch({ type: preset === '30s' ? 'epoch' : 'page', direction });
    paintStep();
  };

  useOverviewBlock(screen, block, domain, overviewCode);
  // A night of several mask sessions: each drawn as a band under the overview, the gaps between them bare.
  const sessions = (night.sessions?.length ?? 0) > 1 ? night.sessions! : [];

  return (
    <section ref={stickyRef} className="navigator sticky-top" aria-label={t('night.nav.label')} data-testid="navigator">
      <div className="navigator-controls">
        <PresetSelect preset={preset} dispatch={dispatch} />
        {/* Time runs left to right on the charts in every language (their axes are dir="ltr"):
            so do the steps, earlier (←) on the left and later (→) on the right, in Arabic too. */}
        <span className="navigator-steps" dir="ltr" data-testid="navigator-steps">
          <button type="button" className="button button-small" onClick={() => step(-1)} aria-label={t('night.nav.earlier')} data-testid="page-left">
            ←
          </button>
          <span ref={readoutRef} className="span-readout mono" data-testid="span-readout" />
          <button type="button" className="button button-small" onClick={() => step(1)} aria-label={t('night.nav.later')} data-testid="page-right">
            →
          </button>
        </span>
        <span ref={epochRef} className="epoch-counter mono" data-testid="epoch-counter" hidden />
      </div>
      <div className="chart-body" dir="ltr">
        <div className="y-axis" />
        <div className="overview-wrap">
          <div
            ref={overviewRef}
            className="overview"
            style={{ blockSize: NAVIGATOR_HEIGHT }}
            data-testid="overview"
            onClick={(e) => {
              const r = e.currentTarget.getBoundingClientRect();
              const d = screen.view.store.state.domain;
              const at = d.t0 + ((e.clientX - r.left) / r.width) * span(d);
              dispatch({ type: 'moveTo', at, snap: true });
            }}
          >
            {sessions.map((s) => (
              <div
                key={s.start}
                className="overview-session"
                style={{ insetInlineStart: `${((s.start - domain.t0) / span(domain)) * 100}%`, inlineSize: `${Math.max(0.2, ((s.end - s.start) / span(domain)) * 100)}%` }}
                title={t('nightFiles.sessionMark', { start: formatClock(s.start, night.timezone, false), end: formatClock(s.end, night.timezone, false) })}
                data-testid="overview-session"
              />
            ))}
            <div ref={boxRef} className="overview-window" data-testid="overview-window" />
          </div>
          <TimeAxis screen={screen} zone={night.timezone} fixed={domain} />
        </div>
      </div>
    </section>
  );
}
