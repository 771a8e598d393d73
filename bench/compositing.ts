// How the benchmarks' Chromium composites its frames. 'software' (the default) is what Chromium
// does on a machine without a usable GPU: the page composited on the CPU, WebGL drawn through
// SwiftShader. 'gpu' composites through SwiftShader too, which Chromium never chooses by itself:
// each presented frame's swap then took 20–100 ms (p50 37) whatever the page did (decision 0997).
// BENCH_COMPOSITING=gpu measures that mode.
export type Compositing = 'software' | 'gpu';

export function benchCompositing(): Compositing {
  return process.env.BENCH_COMPOSITING === 'gpu' ? 'gpu' : 'software';
}
