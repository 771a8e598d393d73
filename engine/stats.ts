// Window statistics through the engine's kernels: fast (cumulative block
// histograms) or exact (bucket selection and a small sort, up to 1M samples).
import { EXACT_MAX_SAMPLES } from './constants';
import { EngineError } from './errors';
import type { Heap } from './heap';
import type { StatsMode, WindowStats } from './types';
import type { WasmExports } from './wasm';

/** f64 slots the stats kernels write: count, min, max, mean, p10, p50, p90. */
const STATS_SLOTS = 7;

/** Statistics of samples [s, e) of the channel `handle`. */
export function windowStats(wasm: WasmExports, heap: Heap, handle: number, s: number, e: number, mode: StatsMode): WindowStats {
  const samples = e - s;
  if (mode !== 'fast' && mode !== 'exact' && mode !== 'auto') {
    throw new EngineError('INVALID_MODE', `stats mode must be fast, exact or auto, got ${String(mode)}`);
  }
  if (mode === 'exact' && samples > EXACT_MAX_SAMPLES) {
    throw new EngineError('WINDOW_TOO_LARGE', `exact statistics take at most ${EXACT_MAX_SAMPLES} samples; the window has ${samples}`);
  }
  const exact = mode === 'exact' || (mode === 'auto' && samples <= EXACT_MAX_SAMPLES);
  const out = heap.scratch(STATS_SLOTS * 8);
  if (exact) {
    heap.withBlock(samples * 8, (scratch) => wasm.statsExact(handle, s, e, out, scratch));
  } else {
    wasm.statsFast(handle, s, e, out);
  }
  const [count, min, max, mean, p10, p50, p90] = heap.readF64(out, STATS_SLOTS) as unknown as number[];
  const missingCount = samples - count!;
  return {
    mode: exact ? 'exact' : 'fast',
    samples,
    count: count!,
    missingCount,
    missingFraction: samples === 0 ? 0 : missingCount / samples,
    min: min!, max: max!, mean: mean!, p10: p10!, p50: p50!, p90: p90!,
  };
}
