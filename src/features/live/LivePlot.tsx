// A live line: a DOM box the screen's LiveBoard draws into (one WebGL context for every
// strip of the screen), with its axes' labels written straight into their elements.
import { useEffect, useRef, type ReactNode } from 'react';
import { axisLabels, TICKS, type Drawn, type PlotAxes, type PlotRange } from './axes';
import { useLiveBoard } from './liveBoardContext';
import type { LiveSeries } from './series';

interface Props {
  /** Read every frame: the series may be replaced when a new recording begins. */
  series: () => LiveSeries | null;
  range: () => PlotRange | null;
  color?: [number, number, number];
  /** Fixed y range; omitted: the visible samples' own. */
  yRange?: readonly [number, number];
  testId: string;
  label: string;
  /** Called after each redraw with the frame's time, for latency figures. */
  onDrawn?: (series: LiveSeries, nowMs: number) => void;
  /** A value axis at the start, a time axis below and a message over a window without samples. */
  axes?: PlotAxes;
  /** Drawn over the plot (a selection), in the plot's own box. */
  children?: ReactNode;
}

/** The colour showing behind `el` (its own background or its nearest ancestor's that has one), as 0–1 RGBA; white if none. */
function backdropOf(el: Element): [number, number, number, number] {
  for (let node: Element | null = el; node; node = node.parentElement) {
    const rgba = /rgba?\(([^)]+)\)/.exec(getComputedStyle(node).backgroundColor)?.[1]?.split(/[ ,/]+/).filter(Boolean).map(Number);
    if (rgba && rgba.length >= 3 && (rgba[3] ?? 1) > 0) return [rgba[0]! / 255, rgba[1]! / 255, rgba[2]! / 255, 1];
  }
  return [1, 1, 1, 1];
}

export function LivePlot({ series, range, color = [0.16, 0.5, 0.73], yRange, testId, label, onDrawn, axes, children }: Props) {
  const board = useLiveBoard();
  const plotRef = useRef<HTMLDivElement>(null);
  const yAxisRef = useRef<HTMLDivElement>(null);
  const xAxisRef = useRef<HTMLDivElement>(null);
  const gapRef = useRef<HTMLParagraphElement>(null);
  const props = useRef({ series, range, yRange, onDrawn, axes });
  props.current = { series, range, yRange, onDrawn, axes };
  const [red, green, blue] = color;
  // A strip without overlays is opaque, cleared to the colour behind it; one with overlays
  // (a selection, the gap message: DOM under the canvas) stays transparent so they show.
  const opaque = !axes && !children;

  useEffect(() => {
    const el = plotRef.current!;
    board.add(
      el,
      {
        series: () => props.current.series(),
        range: () => props.current.range(),
        get yRange() {
          return props.current.yRange;
        },
        onDrawn: (drawn, win, data, nowMs) => {
          labelAxes(props.current.axes, { y: yAxisRef.current, x: xAxisRef.current, gap: gapRef.current }, drawn, win);
          props.current.onDrawn?.(data, nowMs);
        },
      },
      [red, green, blue, 1],
      opaque ? backdropOf(el) : null,
    );
    return () => board.remove(el);
  }, [board, red, green, blue, opaque]);

  const plot = <div ref={plotRef} dir="ltr" className="live-plot" data-testid={testId} role="img" aria-label={label} />;
  if (!axes) return plot;
  return (
    <div className="live-axes-frame" dir="ltr">
      <div ref={yAxisRef} className="live-y-axis mono" role="group" aria-label={axes.valueLabel} data-testid={`${testId}-value-axis`}>
        {Array.from({ length: TICKS }, (_, i) => <span key={i} />)}
      </div>
      <div className="live-plot-cell">
        {plot}
        {children}
        <p ref={gapRef} className="live-gap muted" hidden data-testid={`${testId}-gap`}>{axes.gap}</p>
      </div>
      <div ref={xAxisRef} className="live-x-axis mono" role="group" aria-label={axes.timeLabel} data-testid={`${testId}-time-axis`}>
        {Array.from({ length: TICKS }, (_, i) => <span key={i} />)}
      </div>
    </div>
  );
}

/** Writes the labels straight into their elements: a draw happens only when the window or the samples changed, and must not re-render React. */
function labelAxes(axes: PlotAxes | undefined, el: { y: HTMLElement | null; x: HTMLElement | null; gap: HTMLElement | null }, drawn: Drawn, win: PlotRange): void {
  if (!axes || !el.y || !el.x || !el.gap) return;
  const labels = axisLabels(axes, drawn, win);
  for (let i = 0; i < TICKS; i++) {
    el.y.children[i]!.textContent = labels.values[i]!;
    el.x.children[i]!.textContent = labels.times[i]!;
  }
  el.gap.hidden = !labels.gap;
}
