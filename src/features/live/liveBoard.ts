// The live strips of a screen, drawn through the review charts' renderer (src/charts/gl/):
// ONE WebGL context for every strip (Chromium keeps at most 16 a page and drops the oldest,
// so a context per strip would cap a screen at 16 strips). Each strip is a block
// of the renderer: a DOM box it draws into with its own viewport and scissor, and a GPU
// buffer of its own. One animation-frame loop reads every strip's series and window,
// reduces and uploads only the strips whose samples, window or width changed, and draws in
// the same callback, so a frame's samples reach the next composite: on a 2D canvas only the
// strips that changed (the rest keep their picture), with WebGL all of them (decision 1002).
// Framework-free; LivePlot registers its box here.
import type { ChartBlock, Rgba } from '../../charts/gl/block';
import { ChartRenderer } from '../../charts/gl/renderer';
import { webglOnCpu } from '../../charts/gl/canvas';
import type { Drawn, PlotRange } from './axes';
import { paintProbe } from './paintProbe';
import { columnsOf, type LiveSeries } from './series';

/** What a strip draws; read every frame (a tile's series is replaced when a new recording begins). */
export interface StripSource {
  series: () => LiveSeries | null;
  range: () => PlotRange | null;
  /** Fixed value range; omitted: the visible samples' own. */
  yRange?: readonly [number, number];
  /** Heard after each draw of the strip, with its value range and the frame's time (ms UTC). */
  onDrawn?: (drawn: Drawn, win: PlotRange, series: LiveSeries, nowMs: number) => void;
}

/** A strip as the board keeps it. */
interface Strip {
  readonly block: ChartBlock;
  readonly color: Rgba;
  source: StripSource;
  /** Pixel columns reduced (the box's CSS width, within bounds). */
  columns: number;
  /** columnsOf's output: per column (x, min), (x, max). */
  points: Float32Array;
  /** The same polyline as segment pairs (LINES), a gap's NaN points left out. */
  segments: Float32Array;
  /** What the last draw showed: a frame redraws only when one of these changed. */
  series: LiveSeries | null;
  version: number;
  t0: number;
  t1: number;
  drawnColumns: number;
  /** Updated in this frame: told it drew once the frame is out. */
  pending: boolean;
  drawn: Drawn;
  win: PlotRange;
}

const MAX_COLUMNS = 2048;
/** Minimum column count, before a box has a width. */
const MIN_COLUMNS = 2;

/**
 * Writes the polyline of `points` (n x,y pairs) as segment pairs into `out`, leaving out
 * every segment with a NaN end (a gap draws nothing); returns the vertex count. Allocates nothing.
 */
export function polylineSegments(points: Float32Array, n: number, out: Float32Array): number {
  let v = 0;
  for (let i = 1; i < n; i++) {
    const x0 = points[2 * i - 2]!;
    const y0 = points[2 * i - 1]!;
    const x1 = points[2 * i]!;
    const y1 = points[2 * i + 1]!;
    if (Number.isNaN(y0) || Number.isNaN(y1)) continue;
    out[2 * v] = x0;
    out[2 * v + 1] = y0;
    out[2 * v + 2] = x1;
    out[2 * v + 3] = y1;
    v += 2;
  }
  return v;
}

/** The value range a strip shows: the fixed one, or the visible samples' padded by 5 %. */
function valueRange(fixed: readonly [number, number] | undefined, lo: number, hi: number, filled: number): [number, number] {
  const [ylo, yhi] = fixed ?? (filled ? [lo, hi] : [0, 1]);
  const pad = (yhi - ylo) * 0.05 || 1;
  return [ylo - pad, yhi + pad];
}

/** Every live strip of a screen, drawn into one canvas. */
export class LiveBoard {
  private readonly renderer: ChartRenderer;
  private readonly strips = new Map<HTMLElement, Strip>();
  private readonly resize: ResizeObserver;
  private frame = 0;
  private nextId = 0;

  constructor(canvas: HTMLCanvasElement) {
    this.renderer = new ChartRenderer(canvas, { canvas2d: webglOnCpu() });
    // A resized box (a dragged tile, a wider window) reduces to its new column count.
    this.resize = new ResizeObserver((entries) => {
      for (const entry of entries) {
        const strip = this.strips.get(entry.target as HTMLElement);
        if (strip) this.size(strip, entry.contentRect.width);
      }
    });
    this.frame = requestAnimationFrame(this.tick);
  }

  /** The canvas every strip is drawn on. */
  get canvas(): HTMLCanvasElement {
    return this.renderer.canvas;
  }

  /**
   * Draws `source` into `el`'s box in `color` until `remove(el)`; `background` (the colour
   * behind the box) makes the strip opaque, null leaves it transparent for DOM overlays.
   */
  add(el: HTMLElement, source: StripSource, color: Rgba, background: Rgba | null): void {
    const block = this.renderer.addBlock(`live-${this.nextId++}`);
    block.el = el;
    // A tile hides what does not fit it (a long translation pushing its strip down): so does its strip.
    block.clip = el.closest<HTMLElement>('[data-clips-strip]');
    block.background = background;
    const strip: Strip = {
      block,
      color,
      source,
      columns: 0,
      points: new Float32Array(0),
      segments: new Float32Array(0),
      series: null,
      version: -1,
      t0: Number.NaN,
      t1: Number.NaN,
      drawnColumns: -1,
      pending: false,
      drawn: { lo: 0, hi: 1, filled: 0, samples: 0 },
      win: { t0: 0, t1: 1 },
    };
    this.size(strip, el.clientWidth);
    this.strips.set(el, strip);
    this.resize.observe(el);
  }

  /** Replaces what a strip draws (its owner re-rendered with new callbacks). */
  update(el: HTMLElement, source: StripSource): void {
    const strip = this.strips.get(el);
    if (strip) strip.source = source;
  }

  /** Stops drawing into `el` and frees its buffer. */
  remove(el: HTMLElement): void {
    const strip = this.strips.get(el);
    if (!strip) return;
    this.strips.delete(el);
    this.resize.unobserve(el);
    this.renderer.removeBlock(strip.block);
  }

  /** Stops the loop and releases the context. */
  destroy(): void {
    cancelAnimationFrame(this.frame);
    this.resize.disconnect();
    this.strips.clear();
    this.renderer.destroy();
  }

  private size(strip: Strip, cssWidth: number): void {
    const columns = Math.min(MAX_COLUMNS, Math.max(MIN_COLUMNS, Math.round(cssWidth)));
    if (columns === strip.columns) return;
    strip.columns = columns;
    strip.points = new Float32Array(columns * 4);
    // 2 points a column make 2·columns − 1 segments of 2 vertices (x, y).
    strip.segments = new Float32Array((2 * columns - 1) * 4);
  }

  private readonly tick = (now: number): void => {
    this.frame = requestAnimationFrame(this.tick);
    let changed = false;
    for (const strip of this.strips.values()) changed = this.reduce(strip) || changed;
    if (!changed) return;
    this.renderer.drawInAnimationFrame();
    const probe = paintProbe();
    const at = performance.timeOrigin + now;
    for (const strip of this.strips.values()) {
      if (!strip.pending) continue;
      strip.pending = false;
      strip.source.onDrawn?.(strip.drawn, strip.win, strip.series!, at);
      probe?.drawn(strip.series!, this.renderer.canvas);
    }
  };

  /** Reduces and uploads a strip whose samples, window or width changed; returns whether it did. */
  private reduce(strip: Strip): boolean {
    const data = strip.source.series();
    const win = strip.source.range();
    if (!data || !win) return false;
    if (strip.series === data && strip.version === data.version && strip.t0 === win.t0 && strip.t1 === win.t1 && strip.drawnColumns === strip.columns) return false;
    strip.series = data;
    strip.version = data.version;
    strip.t0 = win.t0;
    strip.t1 = win.t1;
    strip.drawnColumns = strip.columns;
    const { lo, hi, filled } = columnsOf(data, win.t0, win.t1, strip.columns, strip.points);
    const [yMin, yMax] = valueRange(strip.source.yRange, lo, hi, filled);
    const block = strip.block;
    block.yMin = yMin;
    block.yMax = yMax;
    const vertices = polylineSegments(strip.points, strip.columns * 2, strip.segments);
    // x is already in clip space (columnsOf's -1..1): no origin.
    this.renderer.setLayer(block, 'line', strip.segments, vertices, { origin: null, kind: 'line', color: strip.color, clipY: false, visible: filled > 0 });
    strip.drawn.lo = yMin;
    strip.drawn.hi = yMax;
    strip.drawn.filled = filled;
    strip.drawn.samples = data.length;
    strip.win.t0 = win.t0;
    strip.win.t1 = win.t1;
    strip.pending = true;
    return true;
  }
}
