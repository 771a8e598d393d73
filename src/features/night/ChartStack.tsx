import { useRef, useState } from 'react';
import { countRender } from '../../charts/gl/stats';
import { useOccluder, usePlotWidth } from '../../charts/react/useChartBlock';
import { TimeAxis } from '../../charts/react/TimeAxis';
import type { ChartScreen } from '../../charts/screen';
import { CHANNEL_BY_CODE } from './channels';
import { ChartBlockView } from './ChartBlockView';
import { useNight } from './context';

/** Collapsed plot height, px. */
export const COLLAPSED_HEIGHT = 88;

/**
 * Height of an expanded block (spec 2 §4): the window height minus 200, split among the
 * expanded blocks by their count (1, 2, 3, or 4 for four or more).
 */
export function expandedHeight(windowHeight: number, expandedCount: number): number {
  return Math.max(COLLAPSED_HEIGHT, Math.floor((windowHeight - 200) / Math.min(Math.max(expandedCount, 1), 4)));
}

/** The stacked chart blocks, reorderable by their drag handles. */
export function ChartStack({ screen, codes, thresholds, onReorder, onWindowView }: {
  screen: ChartScreen;
  /** Visible channel codes, in order. */
  codes: readonly string[];
  thresholds: boolean;
  onReorder: (from: string, to: string) => void;
  onWindowView: (code: string) => void;
}) {
  countRender('ChartStack');
  const { night } = useNight();
  const widthRef = usePlotWidth(screen);
  const axisRowRef = useOccluder<HTMLDivElement>(screen);
  const [expanded, setExpanded] = useState<ReadonlySet<string>>(new Set());
  const dragging = useRef<string | null>(null);
  const toggle = (code: string) => {
    const next = new Set(expanded);
    if (next.has(code)) next.delete(code);
    else next.add(code);
    setExpanded(next);
  };
  const tall = expandedHeight(typeof window === 'undefined' ? 800 : window.innerHeight, expanded.size);
  return (
    <div className="chart-stack" data-testid="chart-stack">
      {codes.map((code) => {
        const def = CHANNEL_BY_CODE.get(code);
        if (!def) return null;
        return (
          <ChartBlockView
            key={code}
            screen={screen}
            def={def}
            expanded={expanded.has(code)}
            height={expanded.has(code) ? tall : COLLAPSED_HEIGHT}
            thresholds={thresholds}
            onToggleExpand={toggle}
            onWindowView={onWindowView}
            dragProps={{
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
            }}
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
