// Histogram bins of the window view: edges over a channel's range and the band each
// bin falls in (for colouring bars by threshold bands).
import type { ThresholdBands } from '../../../engine/index';

/** Fixed value ranges of the channels with bands, so bins stay put while paging. */
export const HISTOGRAM_RANGES: Record<string, readonly [number, number]> = {
  BR: [0, 50],
  PR: [30, 160],
  SPO2: [70, 100],
};

/** `bins + 1` evenly spaced edges over [lo, hi]. */
export function histogramEdges(lo: number, hi: number, bins = 25): number[] {
  const top = hi > lo ? hi : lo + 1;
  return Array.from({ length: bins + 1 }, (_, i) => lo + ((top - lo) * i) / bins);
}

/** Band of a bin by its centre: severe wins over moderate (engine/types.ts). */
export function binBand(from: number, to: number, bands: ThresholdBands | undefined): 'normal' | 'moderate' | 'severe' {
  if (!bands) return 'normal';
  const mid = (from + to) / 2;
  const inside = (ranges: ThresholdBands['severe']) => ranges.some(([a, b]) => mid >= a && mid <= b);
  if (inside(bands.severe)) return 'severe';
  if (inside(bands.moderate)) return 'moderate';
  return 'normal';
}
