// The real-time dashboard's strips, every tile's on one WebGL canvas (webgl-plot, one line a
// tile). A context per tile was what the dashboard had first, and it failed twice: Chromium
// keeps at most 16 WebGL contexts a page, so a 17th live device blanked the oldest tile's strip,
// and on a software GPU (SwiftShader) compositing 16 canvases held the page near 10 frames a
// second, which put 50 ms between a frame's arrival and its paint (bench:realtime).
//
// The canvas covers the viewport (fixed, under the app header, never taking a click); each
// display frame reads where every strip's placeholder is, and redraws only when a strip's
// samples, window or place changed. Each line is clipped (scissor) to its placeholder as its
// tile shows it, so a scrolled, dragged or shrunk tile never draws outside itself.
import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { ColorRGBA, WebglLine, WebglPlot } from 'webgl-plot';
import { paintProbe } from './paintProbe';
import { columnsOf, type LiveSeries } from './series';

interface PlotRange {
  t0: number;
  t1: number;
}

interface Strip {
  /** The placeholder the line is drawn over. */
  el: HTMLElement;
  /** The element whose box clips the line (the tile). */
  clip: HTMLElement | null;
  series: () => LiveSeries | null;
  range: () => PlotRange | null;
  color: readonly [number, number, number];
  line: WebglLine | null;
  /** What the last draw showed: a frame redraws when one of these changed. */
  drawn: { series: LiveSeries | null; version: number; t0: number; t1: number; x: number; y: number; w: number; h: number; cx: number; cy: number; cw: number; ch: number };
}

const MAX_COLUMNS = 2048;

interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

function intersect(a: Box, b: Box): Box {
  const x = Math.max(a.x, b.x);
  const y = Math.max(a.y, b.y);
  const w = Math.min(a.x + a.w, b.x + b.w) - x;
  const h = Math.min(a.y + a.h, b.y + b.h) - y;
  return { x, y, w: Math.max(0, w), h: Math.max(0, h) };
}

const boxOf = (el: Element): Box => {
  const r = el.getBoundingClientRect();
  return { x: r.left, y: r.top, w: r.width, h: r.height };
};

/** The drawing side: one plot, the strips registered with it, a loop on animation frames. */
class StripCanvas {
  private readonly strips = new Set<Strip>();
  private canvas: HTMLCanvasElement | null = null;
  private plot: WebglPlot | null = null;
  private gl: WebGLRenderingContext | null = null;
  private frame = 0;
  /** A strip came or went, or the canvas changed size: the next frame redraws all. */
  private dirty = true;
  /** Lines were made or dropped: the plot's list is rebuilt before the next draw. */
  private linesChanged = true;

  /** Draws on `canvas` from the next display frame on (strips may register before or after). */
  start(canvas: HTMLCanvasElement): void {
    this.canvas = canvas;
    // The context is made here, before webgl-plot asks for one with its own options: this canvas
    // covers the viewport, and on a software GPU a kept drawing buffer (copied whole at every
    // composite) and multisampling (four samples a pixel, resolved at every draw) made frames of
    // the whole screen slower than the 16 small canvases were. Every draw redraws every strip,
    // so nothing needs keeping; a test reads the pixels in the frame that drew them (paintProbe).
    this.gl = canvas.getContext('webgl', { antialias: false, preserveDrawingBuffer: false });
    this.plot = new WebglPlot(canvas);
    for (const strip of this.strips) strip.line = null;
    this.linesChanged = true;
    this.dirty = true;
    this.frame = requestAnimationFrame(this.tick);
  }

  stop(): void {
    cancelAnimationFrame(this.frame);
    this.plot?.removeAllLines();
    this.plot = null;
    this.gl?.getExtension('WEBGL_lose_context')?.loseContext();
    this.gl = null;
    this.canvas = null;
  }

  add(strip: Omit<Strip, 'line' | 'drawn'>): () => void {
    const entry: Strip = { ...strip, line: null, drawn: { series: null, version: -1, t0: Number.NaN, t1: Number.NaN, x: 0, y: 0, w: 0, h: 0, cx: 0, cy: 0, cw: 0, ch: 0 } };
    this.strips.add(entry);
    this.dirty = true;
    return () => {
      this.strips.delete(entry);
      this.linesChanged = true;
      this.dirty = true;
    };
  }

  private readonly tick = () => {
    this.frame = requestAnimationFrame(this.tick);
    const { plot, gl, canvas } = this;
    if (!plot || !gl || !canvas) return;
    const dpr = window.devicePixelRatio || 1;
    const width = Math.max(1, Math.round(window.innerWidth * dpr));
    const height = Math.max(1, Math.round(window.innerHeight * dpr));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
      plot.viewport(0, 0, width, height);
      this.dirty = true;
    }
    const viewport: Box = { x: 0, y: 0, w: window.innerWidth, h: window.innerHeight };

    // Read every strip's place and state; redraw only when one changed.
    let changed = this.dirty;
    const shown: Array<{ strip: Strip; box: Box; clip: Box; data: LiveSeries; win: PlotRange }> = [];
    for (const strip of this.strips) {
      const data = strip.series();
      const win = strip.range();
      const box = boxOf(strip.el);
      const clip = intersect(intersect(box, strip.clip ? boxOf(strip.clip) : box), viewport);
      const d = strip.drawn;
      if (d.series !== data || d.version !== (data?.version ?? -1) || d.t0 !== win?.t0 || d.t1 !== win?.t1 || d.x !== box.x || d.y !== box.y || d.w !== box.w || d.h !== box.h || d.cx !== clip.x || d.cy !== clip.y || d.cw !== clip.w || d.ch !== clip.h) changed = true;
      if (data && win && clip.w > 0 && clip.h > 0 && box.w >= 2) shown.push({ strip, box, clip, data, win });
      else Object.assign(d, { series: data, version: data?.version ?? -1, t0: win?.t0, t1: win?.t1, x: box.x, y: box.y, w: box.w, h: box.h, cx: clip.x, cy: clip.y, cw: clip.w, ch: clip.h });
    }
    if (!changed) return;
    this.dirty = false;

    // A line holds one vertex pair per column: made again when the strip's width changed.
    for (const { strip, box } of shown) {
      const columns = Math.min(MAX_COLUMNS, Math.max(2, Math.round(box.w)));
      if (!strip.line || strip.line.numPoints !== columns * 2) {
        const [r, g, b] = strip.color;
        strip.line = new WebglLine(new ColorRGBA(r, g, b, 1), columns * 2);
        this.linesChanged = true;
      }
    }
    if (this.linesChanged) {
      plot.removeDataLines();
      for (const strip of this.strips) if (strip.line) plot.addDataLine(strip.line);
      this.linesChanged = false;
    }

    gl.disable(gl.SCISSOR_TEST);
    plot.clear();
    for (const strip of this.strips) if (strip.line) strip.line.visible = false;
    gl.enable(gl.SCISSOR_TEST);
    const painted: Array<{ strip: Strip; data: LiveSeries; fresh: boolean }> = [];
    for (const { strip, box, clip, data, win } of shown) {
      const line = strip.line!;
      const columns = line.numPoints / 2;
      const { lo, hi, filled } = columnsOf(data, win.t0, win.t1, columns, line.xy);
      const pad = (hi - lo) * 0.05 || 1;
      const [ylo, yhi] = filled ? [lo - pad, hi + pad] : [0, 1];
      // columnsOf's x is -1..1 across the strip; y is data. Both mapped into the strip's box
      // in the canvas's clip space (y up).
      const left = (2 * box.x) / viewport.w - 1;
      const right = (2 * (box.x + box.w)) / viewport.w - 1;
      const top = 1 - (2 * box.y) / viewport.h;
      const bottom = 1 - (2 * (box.y + box.h)) / viewport.h;
      line.scaleX = (right - left) / 2;
      line.offsetX = (right + left) / 2;
      line.scaleY = (top - bottom) / (yhi - ylo);
      line.offsetY = bottom - ylo * line.scaleY;
      line.visible = filled > 0;
      gl.scissor(Math.floor(clip.x * dpr), Math.floor(height - (clip.y + clip.h) * dpr), Math.ceil(clip.w * dpr), Math.ceil(clip.h * dpr));
      plot.draw();
      line.visible = false;
      const d = strip.drawn;
      painted.push({ strip, data, fresh: d.series !== data || d.version !== data.version });
      Object.assign(d, { series: data, version: data.version, t0: win.t0, t1: win.t1, x: box.x, y: box.y, w: box.w, h: box.h, cx: clip.x, cy: clip.y, cw: clip.w, ch: clip.h });
    }
    gl.disable(gl.SCISSOR_TEST);
    const probe = paintProbe();
    for (const { data, fresh } of painted) if (fresh) probe?.drawn(data, canvas);
  };
}

const StripContext = createContext<StripCanvas | null>(null);

/** The dashboard's one strip canvas, for the LiveStrips inside it. */
export function StripLayer({ children }: { children: ReactNode }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  // One drawing side for the page's life; strips (children, whose effects run first) register
  // with it before its canvas is attached.
  const [layer] = useState(() => new StripCanvas());
  useEffect(() => {
    layer.start(canvasRef.current!);
    return () => layer.stop();
  }, [layer]);
  return (
    <StripContext.Provider value={layer}>
      {children}
      <canvas ref={canvasRef} className="live-strip-layer" data-testid="live-strip-layer" aria-hidden="true" />
    </StripContext.Provider>
  );
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

/** A strip's place on the page: the layer draws its line over this box, clipped by `.live-tile`. */
export function LiveStrip({ series, range, color = DEFAULT_COLOR, testId, label }: StripProps) {
  const layer = useContext(StripContext);
  if (!layer) throw new Error('LiveStrip outside a StripLayer');
  const ref = useRef<HTMLDivElement>(null);
  const props = useRef({ series, range });
  props.current = { series, range };
  const [red, green, blue] = color;
  useEffect(() => {
    const el = ref.current!;
    return layer.add({ el, clip: el.closest('.live-tile'), series: () => props.current.series(), range: () => props.current.range(), color: [red, green, blue] });
  }, [layer, red, green, blue]);
  return <div ref={ref} dir="ltr" className="live-plot" data-testid={testId} role="img" aria-label={label} />;
}
