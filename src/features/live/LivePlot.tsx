// A live line drawn with webgl-plot at the display's frame rate: every animation frame asks
// for the time range to show, and redraws only when the range or the samples changed.
import { useEffect, useRef, type ReactNode } from 'react';
import { ColorRGBA, WebglLine, WebglPlot } from 'webgl-plot';
import { axisLabels, TICKS, type Drawn, type PlotAxes, type PlotRange } from './axes';
import { paintProbe } from './paintProbe';
import { columnsOf, type LiveSeries } from './series';

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


const MAX_COLUMNS = 2048;

/** The colour showing behind `el` (its own background or its nearest ancestor's that has one), as 0–1 RGB; white if none. */
function backdropOf(el: Element): [number, number, number] {
  for (let node: Element | null = el; node; node = node.parentElement) {
    const rgba = /rgba?\(([^)]+)\)/.exec(getComputedStyle(node).backgroundColor)?.[1]?.split(/[ ,/]+/).filter(Boolean).map(Number);
    if (rgba && rgba.length >= 3 && (rgba[3] ?? 1) > 0) return [rgba[0]! / 255, rgba[1]! / 255, rgba[2]! / 255];
  }
  return [1, 1, 1];
}

export function LivePlot({ series, range, color = [0.16, 0.5, 0.73], yRange, testId, label, onDrawn, axes, children }: Props) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const yAxisRef = useRef<HTMLDivElement>(null);
  const xAxisRef = useRef<HTMLDivElement>(null);
  const gapRef = useRef<HTMLParagraphElement>(null);
  const props = useRef({ series, range, yRange, onDrawn, axes });
  props.current = { series, range, yRange, onDrawn, axes };
  // The plot is made again only when the color's values change: callers pass a new array each
  // render (and so does the default), and a new plot every render compiled its shaders again
  // each time a tile re-rendered (seen in bench:realtime's profile: most of the page's time).
  const [red, green, blue] = color;

  useEffect(() => {
    const canvas = canvasRef.current!;
    let plot: WebglPlot | null = null;
    let line: WebglLine | null = null;
    let columns = 0;
    // What the last draw showed: a frame redraws only when one of these changed (compared
    // field by field; a key string built every frame of 16 plots was garbage to collect).
    const drawn = { series: null as LiveSeries | null, version: -1, t0: Number.NaN, t1: Number.NaN, width: -1 };
    let frame = 0;
    const setup = () => {
      const dpr = window.devicePixelRatio || 1;
      canvas.width = Math.max(1, Math.round(canvas.clientWidth * dpr));
      canvas.height = Math.max(1, Math.round(canvas.clientHeight * dpr));
      columns = Math.min(MAX_COLUMNS, Math.max(2, Math.round(canvas.clientWidth)));
      // The context is made here so the last frame stays readable (screenshots, pixel checks in
      // tests): webgl-plot 0.7 passes its preserveDrawing option under a name WebGL ignores.
      if (!plot) {
        // Opaque, cleared to the colour behind it: the compositor then neither blends the canvas
        // nor draws what it covers. On SwiftShader that was the dearest part of every presented
        // frame with 16 strips (bare-page probe: frames a second 26 → 38, update-to-raster p99
        // 66–70 → 42–45 ms; see docs/benchmarks.md).
        const gl = canvas.getContext('webgl', { antialias: true, preserveDrawingBuffer: true, alpha: false });
        const [r, g, b] = backdropOf(canvas);
        gl?.clearColor(r, g, b, 1);
        plot = new WebglPlot(canvas);
      } else plot.viewport(0, 0, canvas.width, canvas.height);
      plot.removeAllLines();
      line = new WebglLine(new ColorRGBA(red, green, blue, 1), columns * 2);
      plot.addDataLine(line);
      drawn.series = null;
    };
    const draw = (now: number) => {
      frame = requestAnimationFrame(draw);
      const { series: s, range: r } = props.current;
      const data = s();
      const win = r();
      if (!plot || !line || !data || !win) return;
      if (drawn.series === data && drawn.version === data.version && drawn.t0 === win.t0 && drawn.t1 === win.t1 && drawn.width === canvas.width) return;
      drawn.series = data;
      drawn.version = data.version;
      drawn.t0 = win.t0;
      drawn.t1 = win.t1;
      drawn.width = canvas.width;
      const { lo, hi, filled } = columnsOf(data, win.t0, win.t1, columns, line.xy);
      const [ylo, yhi] = props.current.yRange ?? (filled ? [lo, hi] : [0, 1]);
      const pad = (yhi - ylo) * 0.05 || 1;
      line.scaleY = 2 / (yhi - ylo + 2 * pad);
      line.offsetY = -1 - (ylo - pad) * line.scaleY;
      line.visible = filled > 0;
      plot.update();
      labelAxes(props.current.axes, { y: yAxisRef.current, x: xAxisRef.current, gap: gapRef.current }, { lo: ylo - pad, hi: yhi + pad, filled, samples: data.length }, win);
      paintProbe()?.drawn(data, canvas);
      props.current.onDrawn?.(data, performance.timeOrigin + now);
    };
    setup();
    frame = requestAnimationFrame(draw);
    // A resize (a dragged tile) keeps the plot and its GL program: new size, new column count.
    const resize = new ResizeObserver(() => setup());
    resize.observe(canvas);
    return () => {
      cancelAnimationFrame(frame);
      resize.disconnect();
      plot?.removeAllLines();
      // The context goes now, not at garbage collection: Chromium keeps 16 a page and drops the
      // oldest when a 17th is made (the dashboard's tiles come and go as they scroll).
      canvas.getContext('webgl')?.getExtension('WEBGL_lose_context')?.loseContext();
    };
  }, [red, green, blue]);

  // A new canvas when the color changes: a context once lost cannot be had again on the same one.
  const canvas = <canvas key={`${red},${green},${blue}`} ref={canvasRef} dir="ltr" className="live-plot" data-testid={testId} role="img" aria-label={label} />;
  if (!axes) return canvas;
  return (
    <div className="live-axes-frame" dir="ltr">
      <div ref={yAxisRef} className="live-y-axis mono" role="group" aria-label={axes.valueLabel} data-testid={`${testId}-value-axis`}>
        {Array.from({ length: TICKS }, (_, i) => <span key={i} />)}
      </div>
      <div className="live-plot-cell">
        {canvas}
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
