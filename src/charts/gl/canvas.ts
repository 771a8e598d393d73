// The WebGL canvas of a chart screen, made ahead of time. Creating a context costs tens
// of milliseconds with a software GL (SwiftShader), and so does linking a program when the
// page waits for it; a screen that knows it will draw soon (its data still on the way) asks
// for both while it waits. The program's compile and link are only queued here: nothing
// asks for their status, so the GPU process links while the page goes on, and the renderer
// that takes the canvas reads the result when it needs it.

/** Context attributes the renderer draws with. */
const GL_ATTRIBUTES: WebGLContextAttributes = { antialias: false, alpha: true, premultipliedAlpha: true, preserveDrawingBuffer: false };

const VERT = `
precision highp float;
attribute vec2 position;
uniform float xOffset, xScale, yMin, yScale, pointSize;
void main() {
  // x arrives in ms from a view-local origin; the float64 rebasing happened on the CPU.
  gl_Position = vec4((position.x + xOffset) * xScale - 1.0, (position.y - yMin) * yScale - 1.0, 0.0, 1.0);
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

/** Contexts and programs made ahead, by canvas, until a renderer takes them. */
const made = new WeakMap<HTMLCanvasElement, ChartGl>();
let prepared: HTMLCanvasElement | null = null;

function shader(gl: WebGLRenderingContext, type: number, source: string): WebGLShader {
  const s = gl.createShader(type);
  if (!s) throw new Error('WebGL could not create a shader');
  gl.shaderSource(s, source);
  gl.compileShader(s);
  return s;
}

/** Makes a context on `canvas` and queues the chart program's compile and link; null without WebGL. */
function makeChartGl(canvas: HTMLCanvasElement): ChartGl | null {
  const gl = canvas.getContext('webgl', GL_ATTRIBUTES);
  if (!gl) return null;
  const shaders: [WebGLShader, WebGLShader] = [shader(gl, gl.VERTEX_SHADER, VERT), shader(gl, gl.FRAGMENT_SHADER, FRAG)];
  const program = gl.createProgram();
  if (!program) throw new Error('WebGL could not create a program');
  for (const s of shaders) gl.attachShader(program, s);
  gl.linkProgram(program);
  // Sent to the GPU process now, so the link runs while this thread does other work.
  gl.flush();
  return { canvas, gl, program, shaders };
}

/** The context and program of `canvas`: the ones made ahead for it, else new ones. Throws without WebGL. */
export function chartGl(canvas: HTMLCanvasElement): ChartGl {
  const ahead = made.get(canvas);
  made.delete(canvas);
  const kit = ahead ?? makeChartGl(canvas);
  if (!kit) throw new Error('WebGL is not available in this browser');
  return kit;
}

/** Makes the next screen's canvas, context and program now (idempotent until taken). */
export function prepareChartCanvas(): void {
  if (prepared || typeof document === 'undefined') return;
  const canvas = document.createElement('canvas');
  const kit = makeChartGl(canvas);
  if (!kit) return;
  made.set(canvas, kit);
  prepared = canvas;
}

/** The prepared canvas (its context and program made), or a new one. */
export function takeChartCanvas(): HTMLCanvasElement {
  const canvas = prepared ?? document.createElement('canvas');
  prepared = null;
  return canvas;
}
