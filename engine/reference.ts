// Plain TypeScript versions of what the engine computes, written for clarity
// over raw samples: the oracle of the property tests and the "plain TS" peer
// of the benchmarks. Not used by the engine itself.
import { GAP_BEFORE, MISSING_CODES, nonPositiveIsMissing, PERCENTILES } from './constants';
import { boundAt, viewBoundary } from './time';
import type { BandCounts, ChannelInput, ThresholdBands } from './types';

/** Physical values of a channel input with NaN where a sample is missing (spec 2 §5). */
export function referencePhysical(input: ChannelInput): Float32Array {
  const codes = input.missingCodes ?? MISSING_CODES;
  const nonPositive = input.nonPositiveMissing ?? nonPositiveIsMissing(input.code, codes);
  const scale = input.scale ?? 1;
  const offset = input.offset ?? 0;
  const out = new Float32Array(input.samples.length);
  input.samples.forEach((raw, i) => {
    const v = Math.fround(raw * scale + offset);
    const missing = !Number.isFinite(v) || codes.includes(raw) || (nonPositive && v <= 0);
    out[i] = missing ? NaN : v;
  });
  return out;
}

/** One M4 view column. */
export interface ReferenceColumn {
  first: number;
  min: number;
  max: number;
  last: number;
  flags: number;
}

/** M4 by brute force: column c holds samples [viewBoundary(c), viewBoundary(c + 1)). */
export function referenceView(values: Float32Array, a: number, b: number, pixels: number): ReferenceColumn[] {
  const n = values.length;
  const columns: ReferenceColumn[] = [];
  let lastValid = boundAt(a, n) - 1;
  for (let c = 0; c < pixels; c++) {
    const s = viewBoundary(a, b, pixels, c, n);
    const e = viewBoundary(a, b, pixels, c + 1, n);
    const column: ReferenceColumn = { first: NaN, min: Infinity, max: -Infinity, last: NaN, flags: 0 };
    for (let i = s; i < e; i++) {
      const v = values[i]!;
      if (Number.isNaN(v)) continue;
      if (Number.isNaN(column.first)) {
        column.first = v;
        if (i > lastValid + 1) column.flags |= GAP_BEFORE;
      }
      column.last = v;
      column.min = Math.min(column.min, v);
      column.max = Math.max(column.max, v);
      lastValid = i;
    }
    if (Number.isNaN(column.first)) {
      column.min = NaN;
      column.max = NaN;
    }
    columns.push(column);
  }
  return columns;
}

/** Percentile p of sorted values, interpolating linearly between order statistics. */
function referencePercentile(sorted: ArrayLike<number>, p: number): number {
  const pos = p * (sorted.length - 1);
  const k = Math.floor(pos);
  const frac = pos - k;
  const a = sorted[k]!;
  return frac === 0 ? a : a + frac * (sorted[k + 1]! - a);
}

/** Statistics of values[s, e) by sorting. */
export function referenceStats(values: Float32Array, s: number, e: number) {
  const valid: number[] = [];
  let sum = 0;
  for (let i = s; i < e; i++) {
    const v = values[i]!;
    if (!Number.isNaN(v)) {
      valid.push(v);
      sum += v;
    }
  }
  const sorted = Float64Array.from(valid).sort();
  const count = sorted.length;
  const at = (p: number) => (count ? referencePercentile(sorted, p) : NaN);
  return {
    samples: e - s,
    count,
    missingCount: e - s - count,
    min: count ? sorted[0]! : NaN,
    max: count ? sorted[count - 1]! : NaN,
    mean: count ? sum / count : NaN,
    p10: at(PERCENTILES.lower),
    p50: at(PERCENTILES.median),
    p90: at(PERCENTILES.upper),
  };
}

/** Histogram of values[s, e) over edges, the last bin closed; plus below/above. */
export function referenceHistogram(values: Float32Array, s: number, e: number, edges: ArrayLike<number>) {
  const counts = new Array<number>(edges.length - 1).fill(0);
  let below = 0;
  let above = 0;
  const last = edges[edges.length - 1]!;
  for (let i = s; i < e; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) continue;
    if (v < edges[0]!) below++;
    else if (v > last) above++;
    else {
      let bin = counts.length - 1;
      for (let j = 0; j < counts.length; j++) {
        if (v >= edges[j]! && v < edges[j + 1]!) {
          bin = j;
          break;
        }
      }
      counts[bin]!++;
    }
  }
  return { counts, below, above };
}

/** Band counts of values[s, e); severe wins over moderate. */
export function referenceBands(values: Float32Array, s: number, e: number, bands: ThresholdBands): BandCounts {
  const inAny = (v: number, ranges: ThresholdBands['severe']) => ranges.some(([from, to]) => v >= from && v <= to);
  const counts: BandCounts = { normal: 0, moderate: 0, severe: 0 };
  for (let i = s; i < e; i++) {
    const v = values[i]!;
    if (Number.isNaN(v)) continue;
    if (inAny(v, bands.severe)) counts.severe++;
    else if (inAny(v, bands.moderate)) counts.moderate++;
    else counts.normal++;
  }
  return counts;
}

/**
 * M4 over raw samples in plain TypeScript, typed arrays out (the benchmark's
 * "plain TS" peer: same algorithm and layout as the engine's scan).
 */
export function plainM4(values: Float32Array, a: number, b: number, pixels: number): Float32Array {
  const n = values.length;
  const out = new Float32Array(pixels * 4);
  let s = boundAt(a, n);
  for (let c = 0; c < pixels; c++) {
    const e = viewBoundary(a, b, pixels, c + 1, n);
    let first = NaN;
    let last = NaN;
    let lo = Infinity;
    let hi = -Infinity;
    for (let i = s; i < e; i++) {
      const v = values[i]!;
      if (v !== v) continue;
      if (first !== first) first = v;
      last = v;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    out[c * 4] = first;
    out[c * 4 + 1] = lo;
    out[c * 4 + 2] = hi;
    out[c * 4 + 3] = last;
    s = e > s ? e : s;
  }
  return out;
}
