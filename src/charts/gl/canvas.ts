// The WebGL context and the one program the chart renderer draws every layer with: a
// position attribute (x in ms from the layer's origin, y in the channel's unit) mapped to
// clip space by four uniforms, and a flat colour.

import { STORAGE } from '../../config';
import { readItem, writeItem } from '../../state/storage';

/** Context attributes the renderer draws with. */
const GL_ATTRIBUTES: WebGLContextAttributes = { antialias: false, alpha: true, premultipliedAlpha: true, preserveDrawingBuffer: false };

/** WebGL drawn on the CPU; Chromium then composites the page in software too (decision 0998). */
const SOFTWARE_RENDERER = /SwiftShader|llvmpipe|softpipe|Software Rasterizer|Microsoft Basic Render/i;

/** Whether an unmasked WebGL renderer name is a CPU rasteriser. */
export const isSoftwareRenderer = (name: string): boolean => SOFTWARE_RENDERER.test(name);

const storedKind = (): string | null => readItem('localStorage', STORAGE.webglSoftware);

/** Whether this browser is known to draw WebGL on the CPU (learnt once: {@link learnRendererWhenIdle}). */
export const webglOnCpu = (): boolean => storedKind() === '1';

/** Keeps whether `gl` draws on the CPU, for the contexts made after it. */
function noteRenderer(gl: WebGLRenderingContext): void {
  const info = gl.getExtension('WEBGL_debug_renderer_info');
  if (!info) return;
  writeItem('localStorage', STORAGE.webglSoftware, isSoftwareRenderer(String(gl.getParameter(info.UNMASKED_RENDERER_WEBGL))) ? '1' : '0');
}

/**
 * Learns once per browser, when the page is idle, whether WebGL draws on the CPU (a 1-pixel
 * context, lost again), so the charts' context can ask for the low-latency path there.
 */
export function learnRendererWhenIdle(): void {
  if (typeof document === 'undefined' || storedKind() !== null) return;
  const probe = () => {
    const gl = document.createElement('canvas').getContext('webgl');
    if (!gl) return;
    noteRenderer(gl);
    gl.getExtension('WEBGL_lose_context')?.loseContext();
  };
  if (typeof requestIdleCallback === 'function') requestIdleCallback(probe, { timeout: 5_000 });
  else setTimeout(probe, 1_000);
}

/**
 * The attributes for this browser: for a `lowLatency` screen where WebGL draws on the CPU,
 * `desynchronized`, so a frame is read back for the software compositor as soon as it is drawn
 * instead of in the next frame's commit, where it held the main thread while the engine's
 * answer waited (zoom p95 24.6 → 7.2 ms). Not on a GPU, where it may mean front-buffer drawing
 * and tearing.
 */
function attributes(lowLatency: boolean): WebGLContextAttributes {
  return lowLatency && webglOnCpu() ? { ...GL_ATTRIBUTES, desynchronized: true } : GL_ATTRIBUTES;
}

const VERT = `
precision highp float;
attribute vec2 position;
uniform float xOffset, xScale, yMin, yScale, pointSize, pointInset;
void main() {
  // x arrives in ms from a view-local origin; the float64 rebasing happened on the CPU.
  float x = (position.x + xOffset) * xScale - 1.0;
  // A point inside the window is drawn whole: one at its very edge moves in by half its size (pointInset, clip space; 0 for lines and fills).
  if (pointInset > 0.0 && abs(x) <= 1.0) x = clamp(x, -1.0 + pointInset, 1.0 - pointInset);
  gl_Position = vec4(x, (position.y - yMin) * yScale - 1.0, 0.0, 1.0);
  gl_PointSize = pointSize;
}`;

const FRAG = `
precision mediump float;
uniform vec4 color;
// Premultiplied alpha, as the page compositor expects: translucent bands stay light.
void main() { gl_FragColor = vec4(color.rgb * color.a, color.a); }`;

/** A canvas with its context and the chart program (compiled and linked, or on its way). */
export interface ChartGl {
  canvas: HTMLCanvasElement;
  gl: WebGLRenderingContext;
  program: WebGLProgram;
  shaders: [WebGLShader, WebGLShader];
}

function shader(gl: WebGLRenderingContext, type: number, source: string): WebGLShader {
  const s = gl.createShader(type);
  if (!s) throw new Error('WebGL could not create a shader');
  gl.shaderSource(s, source);
  gl.compileShader(s);
  return s;
}

/** Makes a WebGL context on `canvas` and the chart program (compiled and linked; its status is the caller's to read). Throws without WebGL. */
export function chartGl(canvas: HTMLCanvasElement, lowLatency = false): ChartGl {
  const gl = canvas.getContext('webgl', attributes(lowLatency));
  if (!gl) throw new Error('WebGL is not available in this browser');
  noteRenderer(gl);
  const shaders: [WebGLShader, WebGLShader] = [shader(gl, gl.VERTEX_SHADER, VERT), shader(gl, gl.FRAGMENT_SHADER, FRAG)];
  const program = gl.createProgram();
  if (!program) throw new Error('WebGL could not create a program');
  for (const s of shaders) gl.attachShader(program, s);
  gl.linkProgram(program);
  return { canvas, gl, program, shaders };
}
