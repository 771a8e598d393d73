// Scoring epochs (30 s, counted from the recording start, as sleep scorers count them):
// pure arithmetic, shared by the key handler, the epoch counter and the reducer.
import { clampRange, span, type TimeRange } from './range';

/** One scoring epoch, ms. */
export const EPOCH_MS = 30_000;
/** The spec's key-press debounce (spec 2 §9) for plain arrow presses. */
export const KEY_DEBOUNCE_MS = 500;

/** Epochs in a night (the last one may be partial). */
export function epochCount(domain: TimeRange): number {
  return Math.max(1, Math.ceil((span(domain) - 0.5) / EPOCH_MS));
}

/** 1-based number of the epoch a window starts in (rounded: float dust never drops one). */
export function epochNumber(range: TimeRange, domain: TimeRange): number {
  const n = Math.floor((range.t0 - domain.t0) / EPOCH_MS + 1e-6) + 1;
  return Math.min(epochCount(domain), Math.max(1, n));
}

/** The window `range` moved by whole windows (`direction`), its start snapped to the epoch grid. */
export function epochStep(range: TimeRange, domain: TimeRange, direction: 1 | -1): TimeRange {
  const width = span(range);
  const start = range.t0 + direction * width;
  return clampRange(snapStart({ t0: start, t1: start + width }, domain), domain);
}

/** `range` with its start on the nearest epoch boundary (width kept). */
export function snapStart(range: TimeRange, domain: TimeRange): TimeRange {
  const width = span(range);
  const t0 = domain.t0 + Math.round((range.t0 - domain.t0) / EPOCH_MS) * EPOCH_MS;
  return { t0, t1: t0 + width };
}
