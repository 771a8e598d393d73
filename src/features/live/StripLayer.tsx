// The real-time dashboard's strips: one WebGL context (webgl-plot, a line a tile) draws every
// tile's strip, and each tile shows its own on a 2D canvas, copied from the WebGL canvas in the
// frame that drew it.
//
// A WebGL canvas per tile (the first version) broke at the 17th live device: Chromium keeps at
// most 16 WebGL contexts a page and drops the oldest, blanking that tile's strip for good. One
// WebGL canvas over the whole dashboard (the second) kept the context count at one but made
// every update present a viewport-sized canvas, which on a software GPU (SwiftShader) held the
// page at 15 frames a second (bench:realtime: display-frame interval p50 66.7 ms, latency p50
// 40 ms against 23 ms for 16 small canvases). Here the WebGL canvas is never on the page, and an
// update presents only the tile's own small 2D canvas, as the small WebGL canvases did.
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { ColorRGBA, WebglLine, WebglPlot } from 'webgl-plot';
import { paintProbe } from './paintProbe';
import { columnsOf, type LiveSeries } from './series';

interface PlotRange {
  t0: number;
  t1: number;
}

interface Strip {
  /** The tile's canvas the strip is shown on (2D). */
  canvas: HTMLCanvasElement;
  series: () => LiveSeries | null;
  range: () => PlotRange | null;
  color: readonly [number, number, number];
  line: WebglLine | null;
  /** The canvas's size changed (ResizeObserver): read again at the next frame. */
  resized: boolean;
  /** What the last draw showed: a frame redraws when one of these changed. */
  drawn: { series: LiveSeries | null; version: number; t0: number; t1: number };
}

const MAX_COLUMNS = 2048;

/** The drawing side: one plot on a canvas of its own, the strips registered with it, a loop on animation frames. */
class StripRenderer {
  private readonly strips = new Set<Strip>();
  private glCanvas: HTMLCanvasElement | null = null;
  private plot: WebglPlot | null = null;
  private gl: WebGLRenderingContext | null = null;
  private frame = 0;
  private readonly resize = new ResizeObserver((entries) => {
    for (const strip of this.strips) if (entries.some((e) => e.target === strip.canvas)) strip.resized = true;
  });

  start(): void {
    const canvas = document.createElement('canvas');
    // Made here, before webgl-plot asks for one with its own options. Nothing of it is kept
    // between frames: each strip is copied out in the task that drew it.
    this.gl = canvas.getContext('webgl', { antialias: true, preserveDrawingBuffer: false });
    this.glCanvas = canvas;
    this.plot = new WebglPlot(canvas);
    for (const strip of this.strips) {
      strip.line = null;
      strip.resized = true;
    }
    this.frame = requestAnimationFrame(this.tick);
  }

  stop(): void {
    cancelAnimationFrame(this.frame);
    this.resize.disconnect();
    this.plot?.removeAllLines();
    this.plot = null;
    this.gl?.getExtension('WEBGL_lose_context')?.loseContext();
    this.gl = null;
    this.glCanvas = null;
  }

  add(strip: Pick<Strip, 'canvas' | 'series' | 'range' | 'color'>): () => void {
    const entry: Strip = { ...strip, line: null, resized: true, drawn: { series: null, version: -1, t0: Number.NaN, t1: Number.NaN } };
    this.strips.add(entry);
    this.resize.observe(strip.canvas);
    return () => {
      this.strips.delete(entry);
      this.resize.unobserve(strip.canvas);
      this.relist();
    };
  }

  /** The plot's lines are the strips' (webgl-plot draws its list; a strip draws with only its own visible). */
  private relist(): void {
    if (!this.plot) return;
    this.plot.removeDataLines();
    for (const strip of this.strips) if (strip.line) this.plot.addDataLine(strip.line);
  }

  private readonly tick = () => {
    this.frame = requestAnimationFrame(this.tick);
    const { plot, gl, glCanvas } = this;
    if (!plot || !gl || !glCanvas) return;
    const dpr = window.devicePixelRatio || 1;
    for (const strip of this.strips) {
      const data = strip.series();
      const win = strip.range();
      const d = strip.drawn;
      if (strip.resized) {
        strip.resized = false;
        const width = Math.max(1, Math.round(strip.canvas.clientWidth * dpr));
        const height = Math.max(1, Math.round(strip.canvas.clientHeight * dpr));
        if (strip.canvas.width !== width || strip.canvas.height !== height) {
          strip.canvas.width = width;
          strip.canvas.height = height;
          d.series = null;
        }
      }
      if (!data || !win) continue;
      if (d.series === data && d.version === data.version && d.t0 === win.t0 && d.t1 === win.t1) continue;
      const fresh = d.series !== data || d.version !== data.version;
      this.draw(strip, data, win, dpr);
      d.series = data;
      d.version = data.version;
      d.t0 = win.t0;
      d.t1 = win.t1;
      if (fresh) paintProbe()?.drawn(data, strip.canvas);
    }
  };

  private draw(strip: Strip, data: LiveSeries, win: PlotRange, dpr: number): void {
    const { plot, gl, glCanvas } = this;
    const out = strip.canvas.getContext('2d');
    if (!plot || !gl || !glCanvas || !out) return;
    const { width, height } = strip.canvas;
    // The WebGL canvas grows to the largest strip; a strip draws in its bottom-left corner.
    if (glCanvas.width < width || glCanvas.height < height) {
      glCanvas.width = Math.max(glCanvas.width, width);
      glCanvas.height = Math.max(glCanvas.height, height);
    }
    // A line holds one vertex pair per column: made again when the strip's width changed.
    const columns = Math.min(MAX_COLUMNS, Math.max(2, Math.round(width / dpr)));
    if (!strip.line || strip.line.numPoints !== columns * 2) {
      const [r, g, b] = strip.color;
      strip.line = new WebglLine(new ColorRGBA(r, g, b, 1), columns * 2);
      this.relist();
    }
    const line = strip.line;
    const { lo, hi, filled } = columnsOf(data, win.t0, win.t1, columns, line.xy);
    const pad = (hi - lo) * 0.05 || 1;
    const [ylo, yhi] = filled ? [lo - pad, hi + pad] : [0, 1];
    line.scaleY = 2 / (yhi - ylo);
    line.offsetY = -1 - ylo * line.scaleY;
    plot.viewport(0, 0, width, height);
    gl.enable(gl.SCISSOR_TEST);
    gl.scissor(0, 0, width, height);
    plot.clear();
    gl.disable(gl.SCISSOR_TEST);
    if (filled > 0) {
      for (const other of this.strips) if (other.line) other.line.visible = other === strip;
      plot.draw();
    }
    // The drawing buffer is still this frame's: copy the strip's corner out to the tile.
    out.clearRect(0, 0, width, height);
    out.drawImage(glCanvas, 0, glCanvas.height - height, width, height, 0, 0, width, height);
  }
}

const StripContext = createContext<StripRenderer | null>(null);

/** One WebGL context for the LiveStrips inside it (the dashboard's tiles). */
export function StripLayer({ children }: { children: ReactNode }) {
  // One drawing side for the page's life; strips (children, whose effects run first) register
  // with it before it starts.
  const [renderer] = useState(() => new StripRenderer());
  useEffect(() => {
    renderer.start();
    return () => renderer.stop();
  }, [renderer]);
  return <StripContext.Provider value={renderer}>{children}</StripContext.Provider>;
}

interface StripProps {
  /** Read every frame: the series may be replaced when a new recording begins. */
  series: () => LiveSeries | null;
  range: () => PlotRange | null;
  color?: readonly [number, number, number];
  testId: string;
  label: string;
}

const DEFAULT_COLOR = [0.16, 0.5, 0.73] as const;

/** A tile's strip: its canvas, drawn by the StripLayer around it. */
export function LiveStrip({ series, range, color = DEFAULT_COLOR, testId, label }: StripProps) {
  const renderer = useContext(StripContext);
  if (!renderer) throw new Error('LiveStrip outside a StripLayer');
  const ref = useRef<HTMLCanvasElement>(null);
  const props = useRef({ series, range });
  props.current = { series, range };
  const [red, green, blue] = color;
  useEffect(
    () => renderer.add({ canvas: ref.current!, series: () => props.current.series(), range: () => props.current.range(), color: [red, green, blue] }),
    [renderer, red, green, blue],
  );
  return <canvas ref={ref} dir="ltr" className="live-plot" data-testid={testId} role="img" aria-label={label} />;
}
