import { RecordingFormatError } from '../model';
import { MAX_NIGHT_MS } from '../limits';

/**
 * Time-stamped CSV rows onto a regular sample grid. The period is the median step between
 * rows (robust to the odd gap); each row goes to the slot nearest its time; slots no row
 * reaches (gaps in the export) hold NaN: missing, never a value.
 */

/** Longest span a CSV of one night may cover; beyond it the times are surely wrong. */
const MAX_SPAN_MS = MAX_NIGHT_MS;
const GAP = Number.NaN;

/** A regular series built from rows. */
export interface RegularSeries {
  t0: number;
  periodMs: number;
  /** One Float32Array per value column, same length. */
  columns: Float32Array[];
  /** Slots left missing (NaN) because no row fell on them. */
  gapSlots: number;
  /** Rows dropped because an earlier row already filled their slot. */
  duplicateRows: number;
}

/**
 * Median of the positive steps between consecutive times, rounded to `resolutionMs`
 * (1000 for times written to the second); `fallbackMs` when fewer than two distinct times.
 */
export function inferPeriodMs(times: Float64Array, resolutionMs: number, fallbackMs: number): number {
  const steps: number[] = [];
  for (let i = 1; i < times.length; i++) if (times[i] > times[i - 1]) steps.push(times[i] - times[i - 1]);
  if (steps.length === 0) return fallbackMs;
  steps.sort((a, b) => a - b);
  const median = steps[(steps.length - 1) >> 1];
  return Math.max(resolutionMs, Math.round(median / resolutionMs) * resolutionMs);
}

/**
 * Places rows on the grid t0 + i * periodMs. `times` must not go backwards (`lines` gives
 * the CSV line of each row for the error).
 */
export function toRegularSeries(
  file: string,
  timeColumn: string,
  times: Float64Array,
  lines: Int32Array,
  values: Float64Array[],
  periodMs: number,
): RegularSeries {
  const t0 = times[0];
  for (let i = 1; i < times.length; i++) {
    if (times[i] < times[i - 1]) {
      throw new RecordingFormatError(file, `${timeColumn} (line ${lines[i]})`, 'goes back in time from the previous row');
    }
  }
  const span = times[times.length - 1] - t0;
  if (span > MAX_SPAN_MS) {
    throw new RecordingFormatError(file, timeColumn, `rows span ${(span / 3_600_000).toFixed(1)} h, more than the ${MAX_SPAN_MS / 3_600_000} h of one night`);
  }
  const length = Math.round(span / periodMs) + 1;
  const columns = values.map(() => new Float32Array(length).fill(GAP));
  const filled = new Uint8Array(length);
  let duplicateRows = 0;
  for (let r = 0; r < times.length; r++) {
    const slot = Math.round((times[r] - t0) / periodMs);
    if (filled[slot]) {
      duplicateRows++;
      continue;
    }
    filled[slot] = 1;
    for (let c = 0; c < values.length; c++) columns[c][slot] = values[c][r];
  }
  let gapSlots = 0;
  for (let i = 0; i < length; i++) if (!filled[i]) gapSlots++;
  return { t0, periodMs, columns, gapSlots, duplicateRows };
}
