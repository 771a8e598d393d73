// Timing helpers of the benchmarks.
import { performance } from 'node:perf_hooks';
import { percentile } from '../engine/percentile';

export { percentile };

/** Milliseconds taken by one call. */
export function timeOnce(fn: () => unknown): number {
  const start = performance.now();
  fn();
  return performance.now() - start;
}

/** Durations (ms) of `runs` calls after `warmup` unmeasured ones. */
export function sample(runs: number, fn: (i: number) => unknown, warmup = Math.min(runs, 20)): number[] {
  for (let i = 0; i < warmup; i++) fn(i);
  const times: number[] = [];
  for (let i = 0; i < runs; i++) times.push(timeOnce(() => fn(i)));
  return times;
}



/** Median of durations. */
export function median(times: readonly number[]): number {
  return percentile(times, 0.5);
}

/** Rounds for the JSON report (3 significant decimals is plenty). */
export function round(value: number, digits = 4): number {
  return Number(value.toPrecision(digits));
}
