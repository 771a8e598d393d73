// The one WebGL context of a screen. Every chart block is a DOM box; each frame the
// renderer reads the boxes and draws each block into its own viewport and scissor
// rectangle of a single canvas that covers the viewport. Buffers persist between frames;
// a pan or page step only changes uniforms. Frames are requested, never drawn directly:
// at most one draw per animation frame, whatever asks for it.
import type { TimeRange } from '../../time/range';
import { ChartBlock, type Layer } from './block';
import { CHARTS_FRAMED_MARK, FIRST_CHART_MARK, markOnce, stats } from './stats';
import { LayoutWatch } from './layoutWatch';
import { chartGl } from './canvas';
import { rememberFirstCanvasSize } from './warmCanvas';

/** What one frame did, for the benchmark. */
export interface FrameInfo {
  start: number;
  end: number;
  blocks: number;
  /** Whether `isComplete()` said the data drawn covers the current range. */
  complete: boolean;
}

export interface RendererOptions {
  /** Called after each frame (benchmark). */
  onFrame?: (info: FrameInfo) => void;
  /** Whether the data now drawn is final for the range (benchmark's "painted"). */
  isComplete?: () => boolean;
  /**
   * Whether the final data is about to arrive (views asked for less than a frame ago): an
   * animation frame then draws nothing rather than the old views stretched, and the views are
   * drawn as they arrive (drawNow); a frame later the stretched views are drawn all the same.
   */
  arriving?: () => boolean;
  /** Wait for the GPU after each frame so frame times are real (benchmark only). */
  finish?: boolean;
  /**
   * Draw on a 2D canvas until the first frame that drew data, then make the WebGL context
   * and go on with it. Creating a context blocks the main thread (tens to hundreds of ms
   * with a software GL), so a screen whose first paint matters (the night) draws its first
   * frames without one; buffers and every later frame are WebGL.
   */
  glAfterFirstPaint?: boolean;
  /**
   * Draw on a CPU 2D canvas for good, never WebGL: where WebGL itself draws on the CPU, a
   * screen drawn every frame (the live board) otherwise waits on the main thread, each frame,
   * for the GPU process to draw and read the whole canvas back for the software compositor.
   */
  canvas2d?: boolean;
  /**
   * The low-latency context where WebGL draws on the CPU (decision 0998): for screens drawn on
   * input (zoom, pan), not for one drawn every frame (the live board, where it cost more).
   */
  lowLatency?: boolean;
}

/** The WebGL side of a renderer: context, program and where its inputs are. */
interface GlState {
  gl: WebGLRenderingContext;
  program: WebGLProgram;
  at: Locations;
}

/** GL primitive of each layer kind: lines and steps are segment pairs, fills are triangles. */
/** Side of a drawn point in CSS pixels: a night's ~20 blood-pressure readings must be seen, not 1–2-px specks. */
const POINT_SIZE_CSS = 6;

const PRIMITIVE = { line: 0x0001, step: 0x0001, points: 0x0000, fill: 0x0004 } as const; // LINES, LINES, POINTS, TRIANGLES

/** Where the chart program's inputs are. */
interface Locations {
  position: number;
  color: WebGLUniformLocation | null;
  xOffset: WebGLUniformLocation | null;
  xScale: WebGLUniformLocation | null;
  yMin: WebGLUniformLocation | null;
  yScale: WebGLUniformLocation | null;
  pointSize: WebGLUniformLocation | null;
  pointInset: WebGLUniformLocation | null;
}

/** Share of the remaining distance an auto-scaled axis closes per frame when it narrows. */
const Y_EASE = 0.35;

/**
 * One easing step of an auto-scaled block's value range. A side that must widen jumps at
 * once (a visible sample is never clipped); a side that may narrow glides. Returns
 * whether the range is still moving.
 */
export function easeY(block: ChartBlock): boolean {
  if (!block.yAuto || !block.yTarget) return false;
  const [lo, hi] = block.yTarget;
  const span = Math.max(1e-12, hi - lo);
  const close = (a: number, b: number) => Math.abs(a - b) <= span * 0.002;
  block.yMin = lo < block.yMin || close(block.yMin, lo) ? lo : block.yMin + (lo - block.yMin) * Y_EASE;
  block.yMax = hi > block.yMax || close(block.yMax, hi) ? hi : block.yMax + (hi - block.yMax) * Y_EASE;
  return block.yMin !== lo || block.yMax !== hi;
}

/** Draws every registered block into one canvas. */
export class ChartRenderer {
  /** WebGL, once made (at once unless `glAfterFirstPaint`). */
  private glState: GlState | null = null;
  /** The 2D context that draws until WebGL is made (`glAfterFirstPaint`). */
  private ctx2d: CanvasRenderingContext2D | null = null;
  private readonly blocks = new Set<ChartBlock>();
  private frameRequested = 0;
  /**
   * Whether a frame was drawn since the last animation frame began: at most one is drawn
   * between two, so a frame drawn at once (drawNow) after another waits for the next.
   */
  private drewSinceTick = false;
  private destroyed = false;
  /** Whether the last frame counted showed final data (isComplete): a frame is counted when that becomes true, drawn or not. */
  private lastComplete = false;
  /** Whether a frame drew a series yet (the first-paint mark). */
  private painted = false;
  /** Whether a frame had series data to draw yet, on screen or not (what waits for the first paint starts then). */
  private framed = false;
  /** The range every block without a fixed range draws. */
  range: TimeRange = { t0: 0, t1: 1 };
  /** Counts every change of what the canvas draws beside the blocks' own (a block gone, a new context, a forced redraw). */
  private version = 0;
  /** What the last drawn frame drew from (the canvas, where each block is): the same again draws only the blocks that changed. */
  private drawnLayout = '';
  /** What each block drew from in the last frame (its layers' revision, ranges, background). */
  private drawnBlocks = new Map<ChartBlock, string>();

  /** The canvas drawn into; a 2D one is replaced by a WebGL one in the same place when WebGL is made. */
  canvas: HTMLCanvasElement;

  constructor(canvas: HTMLCanvasElement, private readonly options: RendererOptions = {}) {
    this.canvas = canvas;
    this.ctx2d = options.canvas2d ? canvas.getContext('2d', { willReadFrequently: true }) : options.glAfterFirstPaint ? canvas.getContext('2d') : null;
    if (!this.ctx2d) {
      try {
        this.glState = startGl(canvas, options.lowLatency);
      } catch (error) {
        // A browser without WebGL (disabled, blocklisted, no context left) still gets its charts, in 2D.
        console.warn('WebGL could not be started; the charts are drawn in 2D', error);
        this.ctx2d = canvas.getContext('2d');
        if (!this.ctx2d) throw error;
      }
    }
    // Which context draws the canvas now (read by the e2e tests).
    canvas.dataset.backend = this.ctx2d ? '2d' : 'webgl';
    // Any layout change (panel opened, block resized, inner scroll) asks for a frame; the
    // frame reads every box again, so a trace never stays where its block used to be.
    this.layout = new LayoutWatch(this.requestFrame);
  }

  /** The WebGL context (null while the first frames are drawn in 2D). */
  get gl(): WebGLRenderingContext | null {
    return this.glState?.gl ?? null;
  }

  /** Whether frames are drawn with WebGL yet. */
  get webgl(): boolean {
    return this.glState !== null;
  }

  /**
   * Makes the WebGL context on a new canvas, moves every layer's vertices into GPU buffers,
   * puts the canvas in the 2D one's place and draws into it in the same task, so no frame
   * shows an empty canvas. Without WebGL the 2D canvas stays.
   */
  private readonly startWebGl = (): void => {
    if (this.destroyed || this.glState) return;
    const next = document.createElement('canvas');
    next.dataset.backend = 'webgl';
    for (const a of ['class', 'aria-hidden', 'data-testid']) {
      const v = this.canvas.getAttribute(a);
      if (v !== null) next.setAttribute(a, v);
    }
    let state: GlState;
    try {
      state = startGl(next, this.options.lowLatency);
    } catch (error) {
      console.warn('WebGL could not be started; the charts stay drawn in 2D', error);
      return;
    }
    this.glState = state;
    for (const block of this.blocks) {
      for (const layer of block.layers.values()) {
        const data = layer.data;
        layer.data = null;
        layer.buffer = null;
        if (data) this.upload(layer, data, layer.vertices * 2);
      }
    }
    this.canvas.replaceWith(next);
    this.canvas = next;
    this.ctx2d = null;
    this.version++;
    if (this.frameRequested) cancelAnimationFrame(this.frameRequested);
    this.frame();
  };

  private readonly layout: LayoutWatch;

  /**
   * DOM boxes drawn over the charts (a sticky navigator or time axis). A block outside one
   * is clipped to the part of its box the occluder does not cover, so a trace scrolled
   * under a sticky strip never draws over it.
   */
  readonly occluders = new Set<HTMLElement>();

  /** Registers a block; returns it for the caller to fill. */
  addBlock(id: string): ChartBlock {
    const block = new ChartBlock(id);
    this.adoptBlock(block);
    return block;
  }

  /** Registers a block made elsewhere (a chart's, made in its render); again after removeBlock, it starts without layers. */
  adoptBlock(block: ChartBlock): void {
    this.blocks.add(block);
  }

  /** Unregisters a block and frees its buffers. */
  removeBlock(block: ChartBlock): void {
    // After destroy() the context took every buffer with it (unmount order is parent first).
    if (this.destroyed) return;
    const gl = this.gl;
    if (gl) for (const layer of block.layers.values()) gl.deleteBuffer(layer.buffer);
    block.layers.clear();
    if (block.el) this.layout.unwatch(block.el);
    this.blocks.delete(block);
    this.version++;
    this.requestFrame();
  }

  /**
   * Puts `data` (the first `vertices` x,y pairs) into a block's layer, reusing its GPU
   * buffer when it is large enough. `changed` (ms, absolute) says where the layer's picture
   * changed: when the block's range does not reach it, nothing on screen changed and no frame
   * is asked for (an annotation edited or deleted outside the window); null says it changed
   * nowhere on screen (the same columns again with new margins), unless the layer is new or
   * is shown or hidden by it.
   */
  setLayer(block: ChartBlock, key: string, data: Float32Array, vertices: number, spec: Omit<Layer, 'buffer' | 'data' | 'capacity' | 'vertices' | 'visible'> & { visible?: boolean }, changed?: TimeRange | null): void {
    if (this.destroyed) return;
    const floats = vertices * 2;
    let layer = block.layers.get(key);
    const shown = layer?.visible;
    if (!layer) {
      layer = { ...spec, visible: spec.visible ?? true, vertices: 0, capacity: 0, buffer: null, data: null };
      block.layers.set(key, layer);
    }
    Object.assign(layer, spec, { vertices });
    if (spec.visible !== undefined) layer.visible = spec.visible;
    // Before WebGL: a copy of the vertices, drawn in 2D and moved into a buffer when WebGL starts.
    if (this.glState) this.upload(layer, data, floats);
    else {
      // Kept between updates (a live strip's every frame): grown, never made anew for each.
      if (!layer.data || layer.data.length < floats) layer.data = new Float32Array(Math.max(floats, 64));
      layer.data.set(data.subarray(0, floats));
    }
    const range = block.fixedRange ?? this.range;
    if (changed === null && shown === layer.visible) return;
    if (changed && spec.visible === undefined && (changed.t1 < range.t0 || changed.t0 > range.t1)) return;
    block.revision++;
    this.requestFrame();
  }

  /** Puts the first `floats` of `data` into the layer's GPU buffer, reusing it when it is large enough. */
  private upload(layer: Layer, data: Float32Array, floats: number): void {
    const gl = this.glState!.gl;
    if (!layer.buffer || layer.capacity < floats) {
      if (layer.buffer) gl.deleteBuffer(layer.buffer);
      layer.capacity = Math.max(floats, 64);
      layer.buffer = gl.createBuffer();
      if (!layer.buffer) return;
      gl.bindBuffer(gl.ARRAY_BUFFER, layer.buffer);
      gl.bufferData(gl.ARRAY_BUFFER, layer.capacity * 4, gl.DYNAMIC_DRAW);
    }
    if (floats > 0) {
      gl.bindBuffer(gl.ARRAY_BUFFER, layer.buffer);
      gl.bufferSubData(gl.ARRAY_BUFFER, 0, data.subarray(0, floats));
    }
  }

  /** Shows or hides a layer without touching its buffer. */
  setVisible(block: ChartBlock, key: string, visible: boolean): void {
    const layer = block.layers.get(key);
    if (layer && layer.visible !== visible) {
      layer.visible = visible;
      block.revision++;
      this.requestFrame();
    }
  }

  /** Asks for a frame; many requests before the next animation frame make one draw. */
  readonly requestFrame = (): void => {
    if (this.frameRequested || this.destroyed) return;
    this.frameRequested = requestAnimationFrame(this.tick);
  };

  /** An animation frame: a new interval begins; draws unless the final data is about to arrive. */
  private readonly tick = (): void => {
    this.frameRequested = 0;
    this.drewSinceTick = false;
    if (!this.destroyed && this.options.arriving?.() && !(this.options.isComplete?.() ?? true)) {
      this.requestFrame();
      return;
    }
    this.frame();
  };

  /** Asks for a frame drawn even when nothing it draws from changed (the benchmark's full redraw). */
  redraw(): void {
    this.version++;
    this.requestFrame();
  }

  /**
   * Draws at once, in the task that changed the range (a key's page step), when the data
   * for it is already there: the step reaches the screen with the next composite instead
   * of waiting for an animation-frame callback a busy main thread may run late. A frame
   * already requested is folded into this one; without the data, the requested frame stays.
   */
  drawNow(): void {
    if (this.destroyed || !(this.options.isComplete?.() ?? true)) return;
    // Drawn since the last animation frame began: the next one draws it (both would show in the same composite).
    if (this.drewSinceTick) {
      this.requestFrame();
      return;
    }
    if (this.frameRequested) cancelAnimationFrame(this.frameRequested);
    this.frame();
    // The next animation frame begins a new interval (and draws whatever changed meanwhile).
    this.requestFrame();
  }

  /**
   * Draws at once from the caller's own animation-frame callback (the live board's tick):
   * that is the interval's frame, whatever was drawn before it.
   */
  drawInAnimationFrame(): void {
    if (this.destroyed || !(this.options.isComplete?.() ?? true)) return;
    if (this.frameRequested) cancelAnimationFrame(this.frameRequested);
    this.frame();
  }

  private frame(): void {
    this.frameRequested = 0;
    if (this.destroyed) return;
    const s = stats();
    const start = performance.now();
    // Auto-scaled blocks ease toward their target; another frame while any is moving.
    let moving = false;
    for (const block of this.blocks) moving = easeY(block) || moving;
    const drawn = this.draw();
    const complete = this.options.isComplete?.() ?? true;
    // Nothing on screen to draw again, but what is on screen became final (the last data changed
    // only blocks off screen, or nothing visible): a frame of no blocks, so the picture counts as final.
    if (drawn !== null || (complete && !this.lastComplete)) {
      this.lastComplete = complete;
      this.drewSinceTick = true;
      if (this.options.finish && drawn !== null) this.glState?.gl.finish();
      const end = performance.now();
      s.frames++;
      s.lastFrameComplete = complete;
      if (!complete) s.incompleteFrames++;
      this.options.onFrame?.({ start, end, blocks: drawn ?? 0, complete });
    }
    for (const block of this.blocks) {
      const shown = block.yShown;
      if (block.onY && (!shown || shown[0] !== block.yMin || shown[1] !== block.yMax)) {
        block.yShown = [block.yMin, block.yMax];
        block.onY(block.yMin, block.yMax);
      }
    }
    if (moving) this.requestFrame();
  }

  /** Clears the whole canvas (a `width` × `height` device-pixel backing store) before the blocks draw. */
  private clearCanvas(width: number, height: number, dpr: number): void {
    const glState = this.glState;
    const ctx = this.ctx2d;
    if (glState) {
      const { gl, at } = glState;
      gl.disable(gl.SCISSOR_TEST);
      gl.clear(gl.COLOR_BUFFER_BIT);
      gl.enable(gl.SCISSOR_TEST);
      gl.uniform1f(at.pointSize, POINT_SIZE_CSS * dpr);
    } else if (ctx) {
      ctx.setTransform(1, 0, 0, 1, 0, 0);
      ctx.clearRect(0, 0, width, height);
    }
  }

  /**
   * Confines drawing to one block's visible rectangle `v` and paints its background `bg`.
   * On the 2D path this saves the context; the caller restores it after the block's layers.
   */
  private clipToBlock(v: Viewport, height: number, bg: ChartBlock['background']): void {
    const { vx, vy, vw, vh, sx0, sy0, sx1, sy1 } = v;
    const glState = this.glState;
    const ctx = this.ctx2d;
    if (glState) {
      const gl = glState.gl;
      gl.viewport(vx, vy, vw, vh);
      gl.scissor(sx0, sy0, sx1 - sx0, sy1 - sy0);
      if (bg) {
        gl.clearColor(bg[0] * bg[3], bg[1] * bg[3], bg[2] * bg[3], bg[3]);
        gl.clear(gl.COLOR_BUFFER_BIT);
        gl.clearColor(0, 0, 0, 0);
      }
    } else if (ctx) {
      ctx.save();
      ctx.beginPath();
      ctx.rect(sx0, height - sy1, sx1 - sx0, sy1 - sy0);
      ctx.clip();
      if (bg) {
        ctx.fillStyle = `rgba(${Math.round(bg[0] * 255)}, ${Math.round(bg[1] * 255)}, ${Math.round(bg[2] * 255)}, ${bg[3]})`;
        ctx.fillRect(sx0, height - sy1, sx1 - sx0, sy1 - sy0);
      }
    }
  }

  /**
   * Where each block draws this frame (its viewport in canvas pixels) and two keys of what the
   * frame would draw from: `layout`, the canvas and where every block is; each block's `key`,
   * its layers' revision, time and value ranges and background.
   */
  private plan(box: DOMRect, dpr: number, size: { width: number; height: number }): { placed: Placed[]; layout: string } {
    const occluded: [HTMLElement, DOMRect][] = [];
    for (const el of this.occluders) if (el.isConnected) occluded.push([el, el.getBoundingClientRect()]);
    const placed: Placed[] = [];
    const layout: Array<number | string> = [this.version, size.width, size.height, dpr];
    for (const block of this.blocks) {
      if (!block.el || !block.el.isConnected) continue;
      this.layout.watch(block.el);
      const r = block.el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      const v = blockViewport(r, box, dpr, size, occluded, block.el, block.clip?.isConnected ? paddingBox(block.clip) : null);
      if (!v) continue;
      const range = block.fixedRange ?? this.range;
      placed.push({ block, v, key: `${block.revision},${range.t0},${range.t1},${block.yMin},${block.yMax},${block.background?.join(' ') ?? ''}` });
      layout.push(block.id, v.vx, v.vy, v.vw, v.vh, v.sx0, v.sy0, v.sx1, v.sy1);
    }
    return { placed, layout: layout.join(',') };
  }

  /**
   * The blocks a frame redraws: none when the canvas, every box and every block's key are as the
   * last frame drew them; on a 2D canvas (which keeps its picture between frames) only those
   * whose key changed, when the boxes stayed put and no changed block's box overlaps another's.
   * Null: the whole canvas.
   */
  private changedOnly(placed: readonly Placed[], layout: string): Placed[] | null {
    if (layout !== this.drawnLayout) return null;
    const changed = placed.filter((p) => this.drawnBlocks.get(p.block) !== p.key);
    if (changed.length === 0) return changed;
    // WebGL draws the whole canvas each frame it draws (its buffer is not kept after a composite).
    if (!this.ctx2d) return null;
    for (const c of changed) {
      for (const p of placed) {
        if (p === c) continue;
        const a = c.v;
        const b = p.v;
        if (a.sx0 < b.sx1 && b.sx0 < a.sx1 && a.sy0 < b.sy1 && b.sy0 < a.sy1) return null;
      }
    }
    return changed;
  }

  /**
   * Draws every block that intersects the canvas (on a 2D canvas whose boxes stayed put, only
   * the blocks that changed); returns how many, or null when nothing it draws from changed
   * since the last frame drawn (a frame asked for by a DOM change beside the charts): the
   * canvas keeps its picture, and the compositor has nothing new to draw.
   */
  private draw(): number | null {
    const canvas = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const box = canvas.getBoundingClientRect();
    const width = Math.max(1, Math.round(box.width * dpr));
    const height = Math.max(1, Math.round(box.height * dpr));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
      // New memory: what was made ahead of the screen (decision 1029) is gone with the old size.
      delete canvas.dataset.madeAhead;
      // The next visit's first canvas is made at this size ahead of its screen.
      if (this.ctx2d && this.options.glAfterFirstPaint) rememberFirstCanvasSize(width, height);
    }
    const { placed, layout } = this.plan(box, dpr, { width, height });
    const only = this.changedOnly(placed, layout);
    if (only?.length === 0) return null;
    const glState = this.glState;
    const ctx = this.ctx2d;
    if (!only) {
      this.clearCanvas(width, height, dpr);
      this.drawnLayout = layout;
      this.drawnBlocks.clear();
    }
    const s = stats();
    let paintedNow = false;
    for (const { block, v, key } of only ?? placed) {
      this.drawnBlocks.set(block, key);
      const { vx, vy, vw, vh } = v;
      const range = block.fixedRange ?? this.range;
      const spanMs = Math.max(1e-9, range.t1 - range.t0);
      const yScale = 2 / Math.max(1e-12, block.yMax - block.yMin);
      // Only this block again: its box is cleared first (the rest of the canvas keeps its picture).
      if (only) ctx!.clearRect(v.sx0, height - v.sy1, v.sx1 - v.sx0, v.sy1 - v.sy0);
      this.clipToBlock(v, height, block.background);
      // Fills (bands, artefacts) under the lines, whatever order they were added in.
      for (const layer of [...block.layers.values()].sort((a, b) => Number(b.kind === 'fill') - Number(a.kind === 'fill'))) {
        if (!layer.visible || layer.vertices === 0) continue;
        if (!this.painted && layer.kind !== 'fill') {
          this.painted = paintedNow = true;
          markOnce(FIRST_CHART_MARK, { backend: glState ? 'webgl' : '2d', canvas: canvas.dataset.madeAhead === undefined ? 'made-now' : 'made-ahead' });
        }
        const clipX = layer.origin === null;
        // float64 here: origin - t0 is small, so float32 keeps sub-ms precision in the shader.
        const u: Uniforms = {
          xOffset: clipX ? 1 : layer.origin! - range.t0,
          xScale: clipX ? 1 : 2 / spanMs,
          yMin: layer.clipY ? -1 : block.yMin,
          yScale: layer.clipY ? 1 : yScale,
          pointInset: layer.kind === 'points' ? (POINT_SIZE_CSS * dpr) / Math.max(1, vw) : 0,
        };
        if (glState) drawGl(glState, layer, u);
        else if (ctx) draw2d(ctx, layer, u, { x: vx, y: height - vy - vh, width: vw, height: vh }, POINT_SIZE_CSS * dpr);
        s.drawCalls++;
      }
      ctx?.restore();
    }
    // The first paint is out: WebGL now, in a task of its own after this frame.
    if (paintedNow && !glState && this.options.glAfterFirstPaint && !this.options.canvas2d) setTimeout(this.startWebGl, 0);
    if (!this.framed && [...this.blocks].some((b) => [...b.layers.values()].some((l) => l.kind !== 'fill' && l.vertices > 0))) {
      this.framed = true;
      markOnce(CHARTS_FRAMED_MARK);
    }
    return (only ?? placed).length;
  }

  /** Releases the context and every buffer. */
  destroy(): void {
    this.destroyed = true;
    if (this.frameRequested) cancelAnimationFrame(this.frameRequested);
    this.layout.destroy();
    const gl = this.gl;
    if (gl) for (const block of this.blocks) for (const layer of block.layers.values()) gl.deleteBuffer(layer.buffer);
    this.blocks.clear();
    if (gl && this.glState) {
      gl.deleteProgram(this.glState.program);
      // The context goes now, not at garbage collection: a page holds only so many.
      gl.getExtension('WEBGL_lose_context')?.loseContext();
    }
  }
}

/** How a layer's vertices map to its block: x = (x + xOffset) * xScale - 1, y = (y - yMin) * yScale - 1 (clip space). */
/** A block placed in a frame: its viewport and the key of what it draws from. */
interface Placed {
  block: ChartBlock;
  v: Viewport;
  key: string;
}

/** A block's box in canvas pixels (GL origin at the bottom left) and its scissor. */
interface Viewport {
  vx: number;
  vy: number;
  vw: number;
  vh: number;
  sx0: number;
  sy0: number;
  sx1: number;
  sy1: number;
}

/** A block's box in canvas pixels (GL origin at the bottom left) and its scissor, less what occluders cover; null when nothing of it shows. */
/** The box inside an element's borders (where its overflow is clipped), in viewport px. */
function paddingBox(el: HTMLElement): { left: number; top: number; right: number; bottom: number } {
  const r = el.getBoundingClientRect();
  const left = r.left + el.clientLeft;
  const top = r.top + el.clientTop;
  return { left, top, right: left + el.clientWidth, bottom: top + el.clientHeight };
}

function blockViewport(
  r: DOMRect,
  box: DOMRect,
  dpr: number,
  canvas: { width: number; height: number },
  occluded: readonly [HTMLElement, DOMRect][],
  el: HTMLElement,
  clip: { left: number; top: number; right: number; bottom: number } | null,
): Viewport | null {
  const vx = (r.left - box.left) * dpr;
  const vy = (box.bottom - r.bottom) * dpr;
  const vw = r.width * dpr;
  const vh = r.height * dpr;
  let sx0 = Math.max(0, Math.floor(vx));
  let sy0 = Math.max(0, Math.floor(vy));
  let sx1 = Math.min(canvas.width, Math.ceil(vx + vw));
  let sy1 = Math.min(canvas.height, Math.ceil(vy + vh));
  if (clip) {
    sx0 = Math.max(sx0, Math.floor((clip.left - box.left) * dpr));
    sx1 = Math.min(sx1, Math.ceil((clip.right - box.left) * dpr));
    sy0 = Math.max(sy0, Math.floor((box.bottom - clip.bottom) * dpr));
    sy1 = Math.min(sy1, Math.ceil((box.bottom - clip.top) * dpr));
  }
  for (const [occluder, o] of occluded) {
    if (occluder.contains(el) || o.bottom <= r.top || o.top >= r.bottom || o.right <= r.left || o.left >= r.right) continue;
    // An occluder over the upper half clips the top; over the lower half, the bottom.
    if (o.top + o.bottom < r.top + r.bottom) sy1 = Math.min(sy1, Math.floor((box.bottom - o.bottom) * dpr));
    else sy0 = Math.max(sy0, Math.ceil((box.bottom - o.top) * dpr));
  }
  return sx1 <= sx0 || sy1 <= sy0 ? null : { vx, vy, vw, vh, sx0, sy0, sx1, sy1 };
}

interface Uniforms {
  xOffset: number;
  xScale: number;
  yMin: number;
  yScale: number;
  /** Half a point's width in clip space: points at the window's edges are drawn whole (0: lines and fills). */
  pointInset: number;
}

/** Makes the context and the chart program on `canvas` and sets the state every frame shares; throws without WebGL. */
function startGl(canvas: HTMLCanvasElement, lowLatency = false): GlState {
  const { gl, program, shaders } = chartGl(canvas, lowLatency);
  if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost()) {
    const log = [gl.getProgramInfoLog(program), ...shaders.map((sh) => gl.getShaderInfoLog(sh))].filter(Boolean).join('\n');
    throw new Error(`The chart program did not link: ${log}`);
  }
  for (const sh of shaders) gl.deleteShader(sh);
  gl.useProgram(program);
  const u = (name: string) => gl.getUniformLocation(program, name);
  const at = { position: gl.getAttribLocation(program, 'position'), color: u('color'), xOffset: u('xOffset'), xScale: u('xScale'), yMin: u('yMin'), yScale: u('yScale'), pointSize: u('pointSize'), pointInset: u('pointInset') };
  gl.enableVertexAttribArray(at.position);
  gl.disable(gl.DEPTH_TEST);
  gl.enable(gl.BLEND);
  gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
  gl.clearColor(0, 0, 0, 0);
  return { gl, program, at };
}

function drawGl({ gl, at }: GlState, layer: Layer, u: Uniforms): void {
  if (!layer.buffer) return;
  gl.uniform1f(at.xOffset, u.xOffset);
  gl.uniform1f(at.xScale, u.xScale);
  gl.uniform1f(at.yMin, u.yMin);
  gl.uniform1f(at.yScale, u.yScale);
  gl.uniform1f(at.pointInset, u.pointInset);
  gl.uniform4f(at.color, layer.color[0], layer.color[1], layer.color[2], layer.color[3]);
  gl.bindBuffer(gl.ARRAY_BUFFER, layer.buffer);
  gl.vertexAttribPointer(at.position, 2, gl.FLOAT, false, 0, 0);
  gl.drawArrays(PRIMITIVE[layer.kind], 0, layer.vertices);
}

/**
 * The same layer drawn with a 2D context (the frames before WebGL): the shader's mapping to
 * clip space, then the viewport's to canvas pixels (top-left origin), as segment pairs,
 * triangles or points. Colours are straight alpha here; WebGL blends the same colour
 * premultiplied, so both composite alike.
 */
function draw2d(ctx: CanvasRenderingContext2D, layer: Layer, u: Uniforms, view: { x: number; y: number; width: number; height: number }, pointSize: number): void {
  const v = layer.data;
  if (!v) return;
  const ax = (u.xScale * view.width) / 2;
  const bx = view.x + (u.xOffset * u.xScale * view.width) / 2;
  const ay = -(u.yScale * view.height) / 2;
  const by = view.y + view.height + (u.yMin * u.yScale * view.height) / 2;
  const [r, g, b, a] = layer.color;
  const style = `rgba(${Math.round(r * 255)}, ${Math.round(g * 255)}, ${Math.round(b * 255)}, ${a})`;
  const n = layer.vertices;
  if (layer.kind === 'points') {
    ctx.fillStyle = style;
    for (let i = 0; i < n; i++) {
      const x = ax * v[2 * i]! + bx;
      // As the shader: a point inside the window is drawn whole.
      const inside = x >= view.x && x <= view.x + view.width;
      const cx = inside ? Math.min(Math.max(x, view.x + pointSize / 2), view.x + view.width - pointSize / 2) : x;
      ctx.fillRect(cx - pointSize / 2, ay * v[2 * i + 1]! + by - pointSize / 2, pointSize, pointSize);
    }
    return;
  }
  ctx.beginPath();
  if (layer.kind === 'fill') {
    for (let i = 0; i + 2 < n; i += 3) {
      ctx.moveTo(ax * v[2 * i]! + bx, ay * v[2 * i + 1]! + by);
      ctx.lineTo(ax * v[2 * i + 2]! + bx, ay * v[2 * i + 3]! + by);
      ctx.lineTo(ax * v[2 * i + 4]! + bx, ay * v[2 * i + 5]! + by);
      ctx.closePath();
    }
    ctx.fillStyle = style;
    ctx.fill();
    return;
  }
  // Segment pairs; one that starts where the last ended continues the same polyline (one
  // stroke of joined lines, not a path of separate pieces: half the points for a trace).
  for (let i = 0; i + 1 < n; i += 2) {
    if (i === 0 || v[2 * i] !== v[2 * i - 2] || v[2 * i + 1] !== v[2 * i - 1]) ctx.moveTo(ax * v[2 * i]! + bx, ay * v[2 * i + 1]! + by);
    ctx.lineTo(ax * v[2 * i + 2]! + bx, ay * v[2 * i + 3]! + by);
  }
  ctx.strokeStyle = style;
  ctx.lineWidth = 1;
  ctx.stroke();
}
