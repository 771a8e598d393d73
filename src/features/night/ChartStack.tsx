import { useEffect, useLayoutEffect, useRef, useState, type RefObject } from 'react';
import { useTranslation } from 'react-i18next';
import { countRender } from '../../charts/gl/stats';
import { useChartsFramed } from '../../charts/react/useChartsFramed';
import { useOccluder, usePlotWidth } from '../../charts/react/useChartBlock';
import { TimeAxis } from '../../charts/react/TimeAxis';
import type { ChartScreen } from '../../charts/screen';
import { channelDef } from './channels';
import { ChartBlockView, type BlockProps } from './ChartBlockView';
import { useNight } from './context';
import { useStickyClearance } from './useStickyClearance';
import { channelNameParts } from '../../builtInNames';
import { readItem, writeItem } from '../../state/storage';

/** Collapsed plot height, px. */
const COLLAPSED_HEIGHT = 88;

/**
 * Height of an expanded block (spec 2 §4): the window height minus 200, split among the
 * expanded blocks by their count (1, 2, 3, or 4 for four or more).
 */
export function expandedHeight(windowHeight: number, expandedCount: number): number {
  return Math.max(COLLAPSED_HEIGHT, Math.floor((windowHeight - 200) / Math.min(Math.max(expandedCount, 1), 4)));
}

/**
 * Plot height when every chart must fit the screen (montage): what the viewport leaves
 * below the app header and the sticky navigator and above the time axis, less each
 * block's own header, split evenly; never under 28 px.
 */
function fittedHeight(viewport: number, above: number, count: number, chrome = 44, axis = 34): number {
  return Math.max(20, Math.floor((viewport - above - axis - count * chrome) / Math.max(1, count)));
}

/** The stacked chart blocks, reorderable by their drag handles. */
export function ChartStack({ screen, codes, thresholds, onReorder, onWindowView, fit = false }: {
  screen: ChartScreen;
  /** Visible channel codes, in order. */
  codes: readonly string[];
  thresholds: boolean;
  onReorder: (from: string, to: string) => void;
  onWindowView: (code: string) => void;
  /** Montage: every chart fits the viewport. */
  fit?: boolean;
}) {
  countRender('ChartStack');
  const { night } = useNight();
  const widthRef = usePlotWidth(screen);
  const axisRowRef = useOccluder<HTMLDivElement>(screen);
  useStickyClearance(axisRowRef, 'end');
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const dragging = useRef<string | null>(null);
  const toggle = (code: string) => {
    const next = new Set(expanded);
    if (next.has(code)) next.delete(code);
    else next.add(code);
    setExpanded(next);
  };
  const tall = expandedHeight(typeof window === 'undefined' ? 800 : window.innerHeight, expanded.size);
  const stackRef = useRef<HTMLDivElement>(null);
  const fitted = useFittedHeight(stackRef, fit, codes.join(','));
  // A montage shows every chart: none waits.
  const eager = useBlocksAboveFold(stackRef, fit ? codes.length : undefined);
  const dragProps = (code: string): NonNullable<BlockProps['dragProps']> => ({
    onDragStart: (e) => {
      dragging.current = code;
      e.dataTransfer.effectAllowed = 'move';
      e.dataTransfer.setData('text/plain', code);
    },
    onDragOver: (e) => {
      if (dragging.current) e.preventDefault();
    },
    onDrop: (e) => {
      e.preventDefault();
      const from = dragging.current ?? e.dataTransfer.getData('text/plain');
      dragging.current = null;
      if (from && from !== code) onReorder(from, code);
    },
    onDragEnd: () => {
      dragging.current = null;
    },
  });
  return (
    <div ref={stackRef} className={`chart-stack${fit ? ' fit' : ''}`} data-testid="chart-stack">
      {codes.map((code, i) => {
        const def = channelDef(code);
        if (i >= eager) return <ChartBlockShell key={code} code={code} height={COLLAPSED_HEIGHT} />;
        return (
          <ChartBlockView
            key={code}
            screen={screen}
            def={def}
            expanded={expanded.has(code)}
            height={expanded.has(code) ? tall : fit ? fitted : COLLAPSED_HEIGHT}
            thresholds={thresholds}
            onToggleExpand={toggle}
            onWindowView={onWindowView}
            dragProps={dragProps(code)}
          />
        );
      })}
      <div ref={axisRowRef} className="chart-body x-axis-row sticky-bottom" dir="ltr">
        <div className="y-axis" />
        <div ref={widthRef} className="plot-width-probe">
          <TimeAxis screen={screen} zone={night.timezone} testId="time-axis" />
        </div>
      </div>
    </div>
  );
}

/** Blocks rendered in full before the first chart frame on a browser's first night, until the page is measured. */
const FIRST_GUESS = 2;

/** Where the number of blocks the last night's first frame needed above the fold is kept, in this browser (a count, nothing that names a patient). */
const ABOVE_FOLD_KEY = 'nocturne.blocksAboveFold';

/** The count the last night screen measured (a reload renders that many in its first pass, not a second pass for the rest), else FIRST_GUESS. */
function firstGuess(): number {
  const n = Number(readItem('localStorage', ABOVE_FOLD_KEY));
  return Number.isInteger(n) && n >= 1 && n <= 64 ? n : FIRST_GUESS;
}

/**
 * How many of the stack's blocks are rendered in full (decision 1024): on a page's first night,
 * until its first chart frame, only those that start above the fold (the rest are shells of the
 * same height: rendering all 16 of a night's blocks in the first commit held its first chart back
 * by a fifth); every block once that frame was drawn, and at once on every later screen of the page.
 * Measured before the browser paints: a stack lower or higher on the page renders what it shows.
 */
function useBlocksAboveFold(stackRef: RefObject<HTMLDivElement | null>, all: number | undefined): number {
  const framed = useChartsFramed();
  const [above, setAbove] = useState(firstGuess);
  useLayoutEffect(() => {
    const stack = stackRef.current;
    if (framed || all !== undefined || !stack) return;
    const fold = window.innerHeight;
    const blocks = [...stack.querySelectorAll<HTMLElement>(':scope > .chart-block')];
    const needed = blocks.filter((b) => b.getBoundingClientRect().top < fold).length;
    if (needed > above) setAbove(needed);
    if (needed >= 1 && readItem('localStorage', ABOVE_FOLD_KEY) !== String(needed)) writeItem('localStorage', ABOVE_FOLD_KEY, String(needed));
  });
  return framed ? Number.POSITIVE_INFINITY : (all ?? above);
}

/**
 * A block below the fold before the page's first chart frame: its title in a block of the same
 * height, so the page's layout is the one the full block will have.
 */
function ChartBlockShell({ code, height }: { code: string; height: number }) {
  const { t, i18n } = useTranslation();
  const { name } = channelNameParts(t, i18n.language, code);
  return (
    <section className="chart-block" aria-busy="true" data-shell={code}>
      <header className="chart-block-head">
        <h3 className="chart-title">
          <span className="chart-name">{name}</span>
        </h3>
      </header>
      <div className="chart-body" dir="ltr">
        <div className="y-axis" />
        <div className="plot" style={{ blockSize: height }} />
      </div>
    </section>
  );
}

/**
 * Montage: the plots' height that fits every chart in the viewport, measured from the page
 * (header, navigator, toolbar, each block's own chrome), again after each change of height
 * (converges in a pass) and on every window resize.
 */
function useFittedHeight(stackRef: RefObject<HTMLDivElement | null>, fit: boolean, layoutKey: string): number {
  const [fitted, setFitted] = useState(COLLAPSED_HEIGHT);
  const [resizes, setResizes] = useState(0);
  useEffect(() => {
    if (!fit) return;
    const onResize = () => setResizes((n) => n + 1);
    window.addEventListener('resize', onResize);
    return () => window.removeEventListener('resize', onResize);
  }, [fit]);
  useLayoutEffect(() => {
    const stack = stackRef.current;
    if (!fit || !stack) return;
    const header = Number.parseFloat(getComputedStyle(document.documentElement).getPropertyValue('--header-height')) || 60;
    const nav = document.querySelector('.navigator')?.getBoundingClientRect();
    const plots = [...stack.querySelectorAll<HTMLElement>('.chart-block .plot')];
    if (!nav || plots.length === 0) return;
    const box = stack.getBoundingClientRect();
    // Everything in the stack that is not a plot (block headers, borders, gaps, the time axis).
    const chrome = box.height - plots.reduce((sum, p) => sum + p.getBoundingClientRect().height, 0);
    const between = Math.max(0, box.top - nav.bottom);
    const next = fittedHeight(window.innerHeight, header + nav.height + between + 8, plots.length, chrome / plots.length, 0);
    if (Math.abs(next - fitted) > 1) setFitted(next);
  }, [stackRef, fit, layoutKey, fitted, resizes]);
  return fitted;
}
