// The WebGL context and the one program the chart renderer draws every layer with: a
// position attribute (x in ms from the layer's origin, y in the channel's unit) mapped to
// clip space by four uniforms, and a flat colour.

/** Context attributes the renderer draws with. */
const GL_ATTRIBUTES: WebGLContextAttributes = { antialias: false, alpha: true, premultipliedAlpha: true, preserveDrawingBuffer: false };

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
export function chartGl(canvas: HTMLCanvasElement): ChartGl {
  const gl = canvas.getContext('webgl', GL_ATTRIBUTES);
  if (!gl) throw new Error('WebGL is not available in this browser');
  const shaders: [WebGLShader, WebGLShader] = [shader(gl, gl.VERTEX_SHADER, VERT), shader(gl, gl.FRAGMENT_SHADER, FRAG)];
  const program = gl.createProgram();
  if (!program) throw new Error('WebGL could not create a program');
  for (const s of shaders) gl.attachShader(program, s);
  gl.linkProgram(program);
  return { canvas, gl, program, shaders };
}
