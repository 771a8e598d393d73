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

/**
 * The window `range` moved by a whole window (`direction`) onto the epoch grid: from a window
 * off the grid (after Shift+→'s 6-s steps) forward to the epoch after the one it starts in, back
 * to the one it starts in, so no epoch is skipped without being shown whole.
 */
export function epochStep(range: TimeRange, domain: TimeRange, direction: 1 | -1): TimeRange {
  const width = span(range);
  const at = (range.t0 - domain.t0) / EPOCH_MS;
  // Float dust (a start 1e-9 epochs past a boundary) is on the boundary.
  const on = Math.abs(at - Math.round(at)) < 1e-6 ? Math.round(at) : null;
  const from = direction === 1 ? (on ?? Math.floor(at)) * EPOCH_MS + width : (on ?? Math.ceil(at)) * EPOCH_MS - width;
  const t0 = domain.t0 + from;
  return clampRange({ t0, t1: t0 + width }, domain);
}

/** Start of the scoring epoch that holds `t`. */
export const epochStartAt = (t: number, domain: TimeRange) => domain.t0 + Math.floor((t - domain.t0) / EPOCH_MS) * EPOCH_MS;

/** `range` with its start on the nearest epoch boundary (width kept). */
export function snapStart(range: TimeRange, domain: TimeRange): TimeRange {
  const width = span(range);
  const t0 = domain.t0 + Math.round((range.t0 - domain.t0) / EPOCH_MS) * EPOCH_MS;
  return { t0, t1: t0 + width };
}
