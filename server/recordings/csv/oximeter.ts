import { RecordingFormatError, type ChannelData, type ParsedRecording } from '../model';
import { assertTimeZone } from '../edf/start-time';
import { inferPeriodMs, toRegularSeries } from './series';
import { findColumn, readCsvTable } from './table';
import { LocalClock, parseValueCell, requireValueCell } from './values';

/**
 * The Wellue / Checkme O2 oximeter export:
 *
 *   Time,Oxygen Level,Pulse Rate,Motion,…
 *   00:02:16 Mar 10 2026,95,62,0,…
 *   00:02:20 Mar 10 2026,--,--,3,…
 *
 * Times are the device's local clock, to the second (the hour a DST fall-back repeats is
 * read in order: first and second occurrence). Oxygen Level → SPO2 (the oximeter's
 * own channel, not the PSG reference SPO2_PSG), Pulse Rate → PR, Motion and any further
 * numeric columns kept under their own header. All float32, '--' → -1.
 */

/** Options of {@link readOximeterCsv}. */
export interface OximeterCsvOptions {
  /** IANA zone of the oximeter's clock; 'UTC' when not given. */
  timezone?: string;
}

const TIME_COLUMN = ['Time'] as const;
const KNOWN_COLUMNS = [
  { names: ['Oxygen Level', 'SpO2', 'SpO2(%)', 'Oxygen Level(%)'], code: 'SPO2', unit: '%' },
  { names: ['Pulse Rate', 'PR', 'Pulse Rate(bpm)', 'PR(bpm)'], code: 'PR', unit: 'bpm' },
  { names: ['Motion'], code: 'Motion', unit: '' },
] as const;
const MONTHS = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
/** '00:02:16 Mar 10 2026' (the Wellue form, also '10:02:16 PM Mar 10, 2026') and '2026-03-10 00:02:16'. */
const WELLUE_TIME = /^(\d{1,2}):(\d{2}):(\d{2})\s*(AM|PM)?\s+([A-Za-z]{3})[A-Za-z]*\.?\s+(\d{1,2}),?\s+(\d{4})$/i;
const ISO_LOCAL_TIME = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{1,2}):(\d{2}):(\d{2})$/;
const SECOND_MS = 1000;
const DEFAULT_PERIOD_MS = 1000;

/** Reads an oximeter CSV into SPO2, PR, Motion (and further numeric columns) channels. */
export function readOximeterCsv(text: string, fileName: string, options: OximeterCsvOptions = {}): ParsedRecording {
  const zone = options.timezone ?? 'UTC';
  assertTimeZone(fileName, zone);
  const { header, rows } = readCsvTable(text, fileName);
  const timeAt = findColumn(header, TIME_COLUMN);
  if (timeAt < 0) throw new RecordingFormatError(fileName, 'header', `has no "Time" column (found: ${header.join(', ')})`);
  const spo2At = findColumn(header, KNOWN_COLUMNS[0].names);
  if (spo2At < 0) throw new RecordingFormatError(fileName, 'header', `has no "Oxygen Level" column (found: ${header.join(', ')})`);

  const clock = new LocalClock(zone);
  const times = new Float64Array(rows.length);
  const lines = new Int32Array(rows.length);
  rows.forEach((row, i) => {
    lines[i] = row.line;
    const ms = parseOximeterTime(fileName, header[timeAt], row.line, row.cells[timeAt] ?? '', clock);
    times[i] = i > 0 ? clock.afterFold(ms, times[i - 1]) : ms;
  });

  const columns = pickColumns(header, rows, timeAt);
  const values = columns.map(({ index, name }) => {
    const out = new Float64Array(rows.length);
    rows.forEach((row, i) => (out[i] = requireValueCell(fileName, name, row.line, row.cells[index] ?? '')));
    return out;
  });
  const periodMs = inferPeriodMs(times, SECOND_MS, DEFAULT_PERIOD_MS);
  const series = toRegularSeries(fileName, header[timeAt], times, lines, values, periodMs);
  const sampleRate = SECOND_MS / periodMs;
  const channels: ChannelData[] = columns.map((c, i) => ({
    code: c.code,
    label: c.name,
    unit: c.unit,
    sampleRate,
    t0: series.t0,
    storage: 'float32',
    scale: 1,
    offset: 0,
    samples: series.columns[i],
    missingCodes: [],
  }));
  const ignored = header.filter((_name, i) => i !== timeAt && !columns.some((c) => c.index === i));
  return {
    fileName,
    format: 'oximeter-csv',
    startMs: series.t0,
    stopMs: series.t0 + series.columns[0].length * periodMs,
    channels,
    events: [],
    meta: {
      periodMs,
      rows: rows.length,
      gapSlots: series.gapSlots,
      duplicateRows: series.duplicateRows,
      ...(ignored.length > 0 ? { ignoredColumns: ignored } : {}),
    },
  };
}

interface PickedColumn {
  index: number;
  name: string;
  code: string;
  unit: string;
}

/**
 * SpO2, PR and Motion by name (their cells must be numbers or '--'); every other column
 * whose cells are all numbers or '--' under its own header, the rest listed as ignored.
 */
function pickColumns(header: string[], rows: { cells: string[] }[], timeAt: number): PickedColumn[] {
  const picked: PickedColumn[] = [];
  for (const known of KNOWN_COLUMNS) {
    const index = findColumn(header, known.names);
    if (index >= 0) picked.push({ index, name: header[index], code: known.code, unit: known.unit });
  }
  header.forEach((name, index) => {
    if (index === timeAt || name === '' || picked.some((p) => p.index === index)) return;
    if (rows.every((row) => parseValueCell(row.cells[index] ?? '') !== null)) picked.push({ index, name, code: name, unit: '' });
  });
  return picked;
}

function parseOximeterTime(file: string, column: string, line: number, cell: string, clock: LocalClock): number {
  let ms: number | null = null;
  const w = WELLUE_TIME.exec(cell);
  if (w) {
    const month = MONTHS.indexOf(w[5].toLowerCase()) + 1;
    const hour = twelveHourClock(Number(w[1]), w[4]);
    if (month > 0 && hour !== null) ms = clock.toUtcMs(Number(w[7]), month, Number(w[6]), hour, Number(w[2]), Number(w[3]));
  } else {
    const iso = ISO_LOCAL_TIME.exec(cell);
    if (iso) ms = clock.toUtcMs(Number(iso[1]), Number(iso[2]), Number(iso[3]), Number(iso[4]), Number(iso[5]), Number(iso[6]));
  }
  if (ms === null) {
    throw new RecordingFormatError(file, `${column} (line ${line})`, `"${cell}" is not a time like "00:02:16 Mar 10 2026"`);
  }
  return ms;
}

/** 24-hour hour from an optional AM/PM marker; null for an impossible hour. */
function twelveHourClock(hour: number, marker: string | undefined): number | null {
  if (!marker) return hour;
  if (hour < 1 || hour > 12) return null;
  return (hour % 12) + (marker.toUpperCase() === 'PM' ? 12 : 0);
}
