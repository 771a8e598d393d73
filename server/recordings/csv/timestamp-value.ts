import { RecordingFormatError, type ParsedRecording } from '../model';
import { assertTimeZone } from '../edf/start-time';
import { inferPeriodMs, toRegularSeries } from './series';
import { findColumn, readCsvTable } from './table';
import { LocalClock, requireValueCell } from './values';

/**
 * A generic two-column CSV, one channel:
 *
 *   Timestamp,Value
 *   2026-03-10T00:02:16.000Z,95
 *   2026-03-10T00:02:17.000Z,
 *
 * Timestamps are ISO 8601 (with Z or an offset; without one, local time in `timezone`) or
 * epoch numbers: seconds below 1e11 (year 5138), milliseconds from there on. Empty and
 * '--' values are the missing code -1 (the form our data-point export writes).
 */

/** Options of {@link readTimestampValueCsv}. */
export interface TimestampValueCsvOptions {
  /** Channel code of the values (the file does not say). */
  code: string;
  unit?: string;
  /** Source label; the code when not given. */
  label?: string;
  /** Zone of ISO timestamps that carry no offset; 'UTC' when not given. */
  timezone?: string;
  /** Sample rate, Hz, when known; otherwise inferred from the timestamps. */
  sampleRate?: number;
  /** Stored values meaning "missing": only for data points Nocturne wrote for our device; none by default. */
  missingCodes?: readonly number[];
}

const EPOCH_MS_THRESHOLD = 1e11;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
const ISO = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;
const DEFAULT_PERIOD_MS = 1000;
/** Rows within this factor of the median step count as regular (no gap). */
const REGULAR_STEP_FACTOR = 1.5;
/** Relative slack within which a mean rate/period is taken as the round number it nearly is. */
const SNAP = 2e-4;

/** Reads a `Timestamp,Value` CSV into one float32 channel with the caller's code. */
export function readTimestampValueCsv(text: string, fileName: string, options: TimestampValueCsvOptions): ParsedRecording {
  const zone = options.timezone ?? 'UTC';
  assertTimeZone(fileName, zone);
  const { header, rows } = readCsvTable(text, fileName);
  const timeAt = findColumn(header, ['Timestamp', 'Time']);
  const valueAt = findColumn(header, ['Value']);
  if (timeAt < 0 || valueAt < 0) {
    throw new RecordingFormatError(fileName, 'header', `expected "Timestamp,Value", found "${header.join(',')}"`);
  }
  const clock = new LocalClock(zone);
  const times = new Float64Array(rows.length);
  const lines = new Int32Array(rows.length);
  const values = new Float64Array(rows.length);
  rows.forEach((row, i) => {
    lines[i] = row.line;
    const { ms, local } = parseTimestamp(fileName, header[timeAt], row.line, row.cells[timeAt] ?? '', clock);
    times[i] = local && i > 0 ? clock.afterFold(ms, times[i - 1]) : ms;
    values[i] = requireValueCell(fileName, header[valueAt], row.line, row.cells[valueAt] ?? '');
  });
  const periodMs = options.sampleRate && options.sampleRate > 0 ? 1000 / options.sampleRate : regularPeriodMs(times);
  const series = toRegularSeries(fileName, header[timeAt], times, lines, [values], periodMs);
  const samples = series.columns[0];
  return {
    fileName,
    format: 'timestamp-value-csv',
    startMs: series.t0,
    stopMs: series.t0 + samples.length * periodMs,
    channels: [
      {
        code: options.code,
        label: options.label ?? options.code,
        unit: options.unit ?? '',
        sampleRate: 1000 / periodMs,
        t0: series.t0,
        storage: 'float32',
        scale: 1,
        offset: 0,
        samples,
        missingCodes: options.missingCodes ?? [],
      },
    ],
    events: [],
    meta: { periodMs, rows: rows.length, gapSlots: series.gapSlots, duplicateRows: series.duplicateRows },
  };
}

/**
 * Median step; when no step strays far from it, the mean step (30 Hz written to whole ms
 * has steps of 33 and 34), snapped to a whole rate in Hz or a whole period in ms when it
 * is that to within {@link SNAP}.
 */
function regularPeriodMs(times: Float64Array): number {
  const median = inferPeriodMs(times, 1, DEFAULT_PERIOD_MS);
  if (times.length < 2) return median;
  for (let i = 1; i < times.length; i++) {
    const step = times[i] - times[i - 1];
    if (step > median * REGULAR_STEP_FACTOR || step < median / REGULAR_STEP_FACTOR) return median;
  }
  const mean = (times[times.length - 1] - times[0]) / (times.length - 1);
  const rate = 1000 / mean;
  if (rate >= 1 && Math.abs(rate - Math.round(rate)) <= SNAP * rate) return 1000 / Math.round(rate);
  if (Math.abs(mean - Math.round(mean)) <= SNAP * mean) return Math.round(mean);
  return mean;
}

/** ms UTC of a cell; `local` when it was read on the zone's clock (no offset given). */
function parseTimestamp(file: string, column: string, line: number, cell: string, clock: LocalClock): { ms: number; local: boolean } {
  if (NUMBER.test(cell)) {
    const n = Number(cell);
    return { ms: Math.abs(n) < EPOCH_MS_THRESHOLD ? n * 1000 : n, local: false };
  }
  const m = ISO.exec(cell);
  if (m) {
    const fraction = m[7] ? Number(`0.${m[7]}`) * 1000 : 0;
    const fields = [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4]), Number(m[5]), Number(m[6] ?? 0)] as const;
    const local = !m[8];
    const base = local ? clock.toUtcMs(...fields, 0) : clockFree(...fields);
    if (base !== null) return { ms: base + fraction - (local ? 0 : offsetMs(m[8])), local };
  }
  throw new RecordingFormatError(file, `${column} (line ${line})`, `"${cell}" is not an ISO 8601 time or epoch seconds/milliseconds`);
}

/** The fields read as UTC, or null when they are not a calendar date/time. */
function clockFree(year: number, month: number, day: number, hour: number, minute: number, second: number): number | null {
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  const ms = Date.UTC(year, month - 1, day, hour, minute, second);
  return new Date(ms).getUTCDate() === day ? ms : null;
}

/** 'Z', '+02', '+0200', '-05:30' → ms east of UTC. */
function offsetMs(zone: string): number {
  if (zone.toUpperCase() === 'Z') return 0;
  const sign = zone[0] === '-' ? -1 : 1;
  const digits = zone.slice(1).replace(':', '');
  return sign * (Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || 0)) * 60_000;
}
