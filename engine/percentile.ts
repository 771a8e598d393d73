/**
 * Percentile p (0..1) of a list by nearest rank — the one definition every benchmark (Node and
 * the browser's bench page) uses, so figures from different benchmarks compare. NaN when empty.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil(p * sorted.length) - 1))]!;
}
