// Histograms of a window with caller-given edges, and counts inside
// threshold bands (vital parameters).
import { Channel, isValid } from './layout';

/**
 * Counts the valid samples of [s, e) into bins [edges[i], edges[i+1]) (the
 * last bin also takes its right edge). `out` gets nEdges - 1 bin counts, then
 * the count below edges[0] and the count above the last edge (all f64).
 */
export function histogramEdges(handle: usize, s: i32, e: i32, edges: usize, nEdges: i32, out: usize): void {
  const ch = changetype<Channel>(handle);
  const nBins = nEdges - 1;
  memory.fill(out, 0, <usize>(nBins + 2) << 3);
  const first = load<f64>(edges);
  const last = load<f64>(edges + (<usize>nBins << 3));
  for (let i = s; i < e; i++) {
    const vf = load<f32>(ch.values + (<usize>i << 2));
    if (!isValid(vf)) continue;
    const v = <f64>vf;
    let bin: i32;
    if (v < first) bin = nBins;
    else if (v > last) bin = nBins + 1;
    else if (v == last) bin = nBins - 1;
    else {
      // Largest i with edges[i] <= v.
      let lo = 0;
      let hi = nBins;
      while (hi - lo > 1) {
        const mid = (lo + hi) >> 1;
        if (load<f64>(edges + (<usize>mid << 3)) <= v) lo = mid;
        else hi = mid;
      }
      bin = lo;
    }
    const p = out + (<usize>bin << 3);
    store<f64>(p, load<f64>(p) + 1);
  }
}

/**
 * Counts the valid samples of [s, e) by band level. `ranges` holds nRanges
 * triplets (from, to, level) of f64, inclusive at both ends; a sample takes
 * the highest level of the ranges containing it (0 when none). `out` gets
 * `levels` f64 counts.
 */
export function bandCounts(handle: usize, s: i32, e: i32, ranges: usize, nRanges: i32, levels: i32, out: usize): void {
  const ch = changetype<Channel>(handle);
  memory.fill(out, 0, <usize>levels << 3);
  for (let i = s; i < e; i++) {
    const vf = load<f32>(ch.values + (<usize>i << 2));
    if (!isValid(vf)) continue;
    const v = <f64>vf;
    let level = 0;
    for (let r = 0; r < nRanges; r++) {
      const base = ranges + <usize>(r * 24);
      if (v >= load<f64>(base) && v <= load<f64>(base + 8)) {
        const l = <i32>load<f64>(base + 16);
        if (l > level) level = l;
      }
    }
    const p = out + (<usize>level << 3);
    store<f64>(p, load<f64>(p) + 1);
  }
}
