// The WebGL canvas of a chart screen, made ahead of time. Creating a context costs tens
// of milliseconds with a software GL (SwiftShader); a screen that knows it will draw
// soon (its data still on the way) asks for it while it waits, and the renderer takes it.

/** Context attributes the renderer draws with (regl reuses a context made with them). */
export const GL_ATTRIBUTES: WebGLContextAttributes = { antialias: false, alpha: true, premultipliedAlpha: true, preserveDrawingBuffer: false };

let prepared: HTMLCanvasElement | null = null;

/** Makes the next screen's canvas and its WebGL context now (idempotent until taken). */
export function prepareChartCanvas(): void {
  if (prepared || typeof document === 'undefined') return;
  const canvas = document.createElement('canvas');
  if (!canvas.getContext('webgl', GL_ATTRIBUTES)) return;
  prepared = canvas;
}

/** The prepared canvas, or a new one. */
export function takeChartCanvas(): HTMLCanvasElement {
  const canvas = prepared ?? document.createElement('canvas');
  prepared = null;
  return canvas;
}
