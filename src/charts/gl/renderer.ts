// The one WebGL context of a screen. Every chart block is a DOM box; each frame the
// renderer reads the boxes and draws each block into its own viewport and scissor
// rectangle of a single canvas that covers the viewport. Buffers persist between frames;
// a pan or page step only changes uniforms. Frames are requested, never drawn directly:
// at most one draw per animation frame, whatever asks for it.
import type { TimeRange } from '../core/range';
import { ChartBlock, type Layer } from './block';
import { FIRST_CHART_MARK, markOnce, stats } from './stats';
import { LayoutWatch } from './layoutWatch';
import { chartGl } from './canvas';

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
  /** Wait for the GPU after each frame so frame times are real (benchmark only). */
  finish?: boolean;
}

/** GL primitive of each layer kind: lines and steps are segment pairs, fills are triangles. */
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
  readonly gl: WebGLRenderingContext;
  private readonly program: WebGLProgram;
  private readonly at: Locations;
  private readonly blocks = new Set<ChartBlock>();
  private frameRequested = 0;
  private destroyed = false;
  /** Whether a frame drew a series yet (the first-paint mark). */
  private painted = false;
  /** The range every block without a fixed range draws. */
  range: TimeRange = { t0: 0, t1: 1 };

  constructor(readonly canvas: HTMLCanvasElement, private readonly options: RendererOptions = {}) {
    // The context and program made ahead for this canvas (their link done meanwhile), or new ones.
    const { gl, program, shaders } = chartGl(canvas);
    this.gl = gl;
    this.program = program;
    if (!gl.getProgramParameter(program, gl.LINK_STATUS) && !gl.isContextLost()) {
      const log = [gl.getProgramInfoLog(program), ...shaders.map((sh) => gl.getShaderInfoLog(sh))].filter(Boolean).join('\n');
      throw new Error(`The chart program did not link: ${log}`);
    }
    for (const sh of shaders) gl.deleteShader(sh);
    gl.useProgram(program);
    const u = (name: string) => gl.getUniformLocation(program, name);
    this.at = { position: gl.getAttribLocation(program, 'position'), color: u('color'), xOffset: u('xOffset'), xScale: u('xScale'), yMin: u('yMin'), yScale: u('yScale'), pointSize: u('pointSize') };
    gl.enableVertexAttribArray(this.at.position);
    gl.disable(gl.DEPTH_TEST);
    gl.enable(gl.BLEND);
    gl.blendFunc(gl.ONE, gl.ONE_MINUS_SRC_ALPHA);
    gl.clearColor(0, 0, 0, 0);
    // Any layout change (panel opened, block resized, inner scroll) asks for a frame; the
    // frame reads every box again, so a trace never stays where its block used to be.
    this.layout = new LayoutWatch(this.requestFrame);
  }

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
    this.blocks.add(block);
    return block;
  }

  /** Unregisters a block and frees its buffers. */
  removeBlock(block: ChartBlock): void {
    // After destroy() the context took every buffer with it (unmount order is parent first).
    if (this.destroyed) return;
    for (const layer of block.layers.values()) this.gl.deleteBuffer(layer.buffer);
    block.layers.clear();
    if (block.el) this.layout.unwatch(block.el);
    this.blocks.delete(block);
    this.requestFrame();
  }

  /**
   * Puts `data` (the first `vertices` x,y pairs) into a block's layer, reusing its GPU
   * buffer when it is large enough.
   */
  setLayer(block: ChartBlock, key: string, data: Float32Array, vertices: number, spec: Omit<Layer, 'buffer' | 'capacity' | 'vertices' | 'visible'> & { visible?: boolean }): void {
    if (this.destroyed) return;
    const floats = vertices * 2;
    let layer = block.layers.get(key);
    if (!layer || layer.capacity < floats) {
      const gl = this.gl;
      if (layer) gl.deleteBuffer(layer.buffer);
      const capacity = Math.max(floats, 64);
      const buffer = gl.createBuffer();
      if (!buffer) return;
      gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
      gl.bufferData(gl.ARRAY_BUFFER, capacity * 4, gl.DYNAMIC_DRAW);
      layer = { ...spec, visible: spec.visible ?? true, vertices: 0, capacity, buffer };
      block.layers.set(key, layer);
    }
    Object.assign(layer, spec, { vertices });
    if (spec.visible !== undefined) layer.visible = spec.visible;
    if (floats > 0) {
      this.gl.bindBuffer(this.gl.ARRAY_BUFFER, layer.buffer);
      this.gl.bufferSubData(this.gl.ARRAY_BUFFER, 0, data.subarray(0, floats));
    }
    this.requestFrame();
  }

  /** Shows or hides a layer without touching its buffer. */
  setVisible(block: ChartBlock, key: string, visible: boolean): void {
    const layer = block.layers.get(key);
    if (layer && layer.visible !== visible) {
      layer.visible = visible;
      this.requestFrame();
    }
  }

  /** Asks for a frame; many requests before the next animation frame make one draw. */
  readonly requestFrame = (): void => {
    if (this.frameRequested || this.destroyed) return;
    this.frameRequested = requestAnimationFrame(this.frame);
  };

  /**
   * Draws at once, in the task that changed the range (a key's page step), when the data
   * for it is already there: the step reaches the screen with the next composite instead
   * of waiting for an animation-frame callback a busy main thread may run late. A frame
   * already requested is folded into this one; without the data, the requested frame stays.
   */
  drawNow(): void {
    if (this.destroyed || !(this.options.isComplete?.() ?? true)) return;
    if (this.frameRequested) cancelAnimationFrame(this.frameRequested);
    this.frame();
  }

  private readonly frame = (): void => {
    this.frameRequested = 0;
    if (this.destroyed) return;
    const s = stats();
    const start = performance.now();
    // Auto-scaled blocks ease toward their target; another frame while any is moving.
    let moving = false;
    for (const block of this.blocks) moving = easeY(block) || moving;
    const drawn = this.draw();
    if (this.options.finish) this.gl.finish();
    const end = performance.now();
    s.frames++;
    const complete = this.options.isComplete?.() ?? true;
    s.lastFrameComplete = complete;
    if (!complete) s.incompleteFrames++;
    this.options.onFrame?.({ start, end, blocks: drawn, complete });
    for (const block of this.blocks) {
      const shown = block.yShown;
      if (block.onY && (!shown || shown[0] !== block.yMin || shown[1] !== block.yMax)) {
        block.yShown = [block.yMin, block.yMax];
        block.onY(block.yMin, block.yMax);
      }
    }
    if (moving) this.requestFrame();
  };

  /** Draws every block that intersects the canvas; returns how many. */
  private draw(): number {
    const canvas = this.canvas;
    const dpr = window.devicePixelRatio || 1;
    const box = canvas.getBoundingClientRect();
    const width = Math.max(1, Math.round(box.width * dpr));
    const height = Math.max(1, Math.round(box.height * dpr));
    if (canvas.width !== width || canvas.height !== height) {
      canvas.width = width;
      canvas.height = height;
    }
    const gl = this.gl;
    gl.disable(gl.SCISSOR_TEST);
    gl.clear(gl.COLOR_BUFFER_BIT);
    gl.enable(gl.SCISSOR_TEST);
    const at = this.at;
    const s = stats();
    let drawn = 0;
    const occluded: [HTMLElement, DOMRect][] = [];
    for (const el of this.occluders) if (el.isConnected) occluded.push([el, el.getBoundingClientRect()]);
    for (const block of this.blocks) {
      if (!block.el || !block.el.isConnected) continue;
      this.layout.watch(block.el);
      const r = block.el.getBoundingClientRect();
      if (r.width < 1 || r.height < 1) continue;
      // Block box in canvas pixels, GL origin at the bottom left.
      const vx = (r.left - box.left) * dpr;
      const vy = (box.bottom - r.bottom) * dpr;
      const vw = r.width * dpr;
      const vh = r.height * dpr;
      const sx0 = Math.max(0, Math.floor(vx));
      let sy0 = Math.max(0, Math.floor(vy));
      const sx1 = Math.min(width, Math.ceil(vx + vw));
      let sy1 = Math.min(height, Math.ceil(vy + vh));
      for (const [el, o] of occluded) {
        if (el.contains(block.el) || o.bottom <= r.top || o.top >= r.bottom || o.right <= r.left || o.left >= r.right) continue;
        // An occluder over the upper half clips the top; over the lower half, the bottom.
        if (o.top + o.bottom < r.top + r.bottom) sy1 = Math.min(sy1, Math.floor((box.bottom - o.bottom) * dpr));
        else sy0 = Math.max(sy0, Math.ceil((box.bottom - o.top) * dpr));
      }
      if (sx1 <= sx0 || sy1 <= sy0) continue;
      gl.viewport(vx, vy, vw, vh);
      gl.scissor(sx0, sy0, sx1 - sx0, sy1 - sy0);
      gl.uniform1f(at.pointSize, 3 * dpr);
      const range = block.fixedRange ?? this.range;
      const spanMs = Math.max(1e-9, range.t1 - range.t0);
      const yScale = 2 / Math.max(1e-12, block.yMax - block.yMin);
      // Fills (bands, artefacts) under the lines, whatever order they were added in.
      for (const layer of [...block.layers.values()].sort((a, b) => Number(b.kind === 'fill') - Number(a.kind === 'fill'))) {
        if (!layer.visible || layer.vertices === 0) continue;
        if (!this.painted && layer.kind !== 'fill') {
          this.painted = true;
          markOnce(FIRST_CHART_MARK);
        }
        const clipX = layer.origin === null;
        // float64 here: origin - t0 is small, so float32 keeps sub-ms precision in the shader.
        gl.uniform1f(at.xOffset, clipX ? 1 : layer.origin! - range.t0);
        gl.uniform1f(at.xScale, clipX ? 1 : 2 / spanMs);
        gl.uniform1f(at.yMin, layer.clipY ? -1 : block.yMin);
        gl.uniform1f(at.yScale, layer.clipY ? 1 : yScale);
        gl.uniform4f(at.color, layer.color[0], layer.color[1], layer.color[2], layer.color[3]);
        gl.bindBuffer(gl.ARRAY_BUFFER, layer.buffer);
        gl.vertexAttribPointer(at.position, 2, gl.FLOAT, false, 0, 0);
        gl.drawArrays(PRIMITIVE[layer.kind], 0, layer.vertices);
        s.drawCalls++;
      }
      drawn++;
    }
    return drawn;
  }

  /** Releases the context and every buffer. */
  destroy(): void {
    this.destroyed = true;
    if (this.frameRequested) cancelAnimationFrame(this.frameRequested);
    this.layout.destroy();
    const gl = this.gl;
    for (const block of this.blocks) for (const layer of block.layers.values()) gl.deleteBuffer(layer.buffer);
    this.blocks.clear();
    gl.deleteProgram(this.program);
    // The context goes now, not at garbage collection: a page holds only so many.
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  }
}
