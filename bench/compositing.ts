// How the benchmarks' Chromium composites its frames. 'software' (the default) is what Chromium
// does on a machine without a usable GPU: the page composited on the CPU, WebGL drawn through
// SwiftShader. 'gpu' composites through SwiftShader too, which Chromium never chooses by itself:
// each presented frame's swap then took 20–100 ms (p50 37) whatever the page did (decision 0997).
// BENCH_COMPOSITING=gpu measures that mode.
export type Compositing = 'software' | 'gpu';

export function benchCompositing(): Compositing {
  return process.env.BENCH_COMPOSITING === 'gpu' ? 'gpu' : 'software';
}

/**
 * Waits until the signed-in app has learnt whether WebGL draws on the CPU (once per browser,
 * when idle: src/charts/gl/canvas.ts), so the measured pages are what a returning user gets.
 * A peer build older than that never learns it: after 10 s it is measured as it is (said).
 */
export async function rendererKnown(page: { waitForFunction: (fn: () => boolean, arg: undefined, options: { timeout: number }) => Promise<unknown> }): Promise<void> {
  try {
    await page.waitForFunction(() => localStorage.getItem('nocturne.webglSoftware') !== null, undefined, { timeout: 10_000 });
  } catch (error) {
    if (!(error instanceof Error && error.name === 'TimeoutError')) throw error;
    console.log('(this build does not learn the WebGL renderer kind: measured as it is)');
  }
}
