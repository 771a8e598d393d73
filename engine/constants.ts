import { ms } from './units';

/** One day (spec 2 §9: day length 864e5 ms). */
export const DAY_MS = ms(86_400_000);
/** Trend-view padding on both ends of each day (spec 2 §4). */
export const DAY_MARGIN_MS = ms(8 * 3_600_000);
/** Our device's missing codes (spec 2 §5): the default when a channel input does not say (wire data always says). */
export const MISSING_CODES: readonly number[] = [-1, -2];
/** Channels where any non-positive value is missing too (spec 2 §5), and the PSG's or CPAP's SpO2 beside our SPO2. */
const NON_POSITIVE_MISSING_CHANNELS: readonly string[] = ['SPO2', 'PR', 'SPO2_PSG'];
/**
 * In other tools' files (no missing codes) a breathing rate ≤ 0 is no rate either: a ResMed
 * writes RespRate 0 for the first seconds of every session, before it has seen a breath
 * (decision 1043). Our device's BR keeps the spec's rule (only its codes are missing). A file's
 * heart rate ≤ 0 never gets here: import makes it missing (server/recordings/ranges.ts).
 */
const NON_POSITIVE_MISSING_IN_FILES: readonly string[] = ['BR'];

/** Whether a physical value ≤ 0 of channel `code` is a missing sample, given the channel's missing codes ([] = another tool's file). */
export function nonPositiveIsMissing(code: string, missingCodes: readonly number[]): boolean {
  const c = code.toUpperCase();
  return NON_POSITIVE_MISSING_CHANNELS.includes(c) || (missingCodes.length === 0 && NON_POSITIVE_MISSING_IN_FILES.includes(c));
}

/** Largest window the exact statistics mode sorts. */
export const EXACT_MAX_SAMPLES = 1_000_000;
/** Percentiles of range summaries (spec 2 §5): lower, median, upper. */
export const PERCENTILES = { lower: 0.1, median: 0.5, upper: 0.9 } as const;
/** Column flag of a view: missing samples lie before this column's first valid one. */
export const GAP_BEFORE = 1;
/** Bytes a view column takes (x, first, min, max, last as float32, flags as uint8). */
export const VIEW_BYTES_PER_COLUMN = 21;
