// Histograms of a window over caller-given edges, and counts inside the
// threshold bands of a vital parameter (severe wins where bands overlap).
import type { Heap } from './heap';
import type { BandCounts, HistogramResult, ThresholdBands } from './types';
import type { WasmExports } from './wasm';

/** Histogram of samples [s, e) of the channel `handle` over checked edges. */
export function histogramOf(
  wasm: WasmExports, heap: Heap, handle: number, s: number, e: number,
  edges: ArrayLike<number>, bands?: ThresholdBands,
): HistogramResult {
  const nBins = edges.length - 1;
  const out = heap.scratch((nBins + 2) * 8);
  const counts = heap.withF64(edges, (edgesPtr) => {
    wasm.histogramEdges(handle, s, e, edgesPtr, edges.length, out);
    return heap.readF64(out, nBins + 2);
  });
  const below = counts[nBins]!;
  const above = counts[nBins + 1]!;
  const binCounts = counts.slice(0, nBins);
  const total = binCounts.reduce((sum, c) => sum + c, 0) + below + above;
  const result: HistogramResult = { edges: Float64Array.from(edges), counts: binCounts, below, above, total };
  if (bands !== undefined) result.bands = bandCounts(wasm, heap, handle, s, e, bands);
  return result;
}

/** Valid samples of [s, e) by band: normal, moderate, severe. */
function bandCounts(wasm: WasmExports, heap: Heap, handle: number, s: number, e: number, bands: ThresholdBands): BandCounts {
  const triplets = [
    ...bands.moderate.flatMap(([from, to]) => [from, to, 1]),
    ...bands.severe.flatMap(([from, to]) => [from, to, 2]),
  ];
  const out = heap.scratch(3 * 8);
  const [normal, moderate, severe] = heap.withF64(triplets, (ranges) => {
    wasm.bandCounts(handle, s, e, ranges, triplets.length / 3, 3, out);
    return heap.readF64(out, 3);
  });
  return { normal: normal!, moderate: moderate!, severe: severe! };
}
