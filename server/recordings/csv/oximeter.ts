import { AmbiguousDateOrderError, RecordingFormatError, type ChannelData, type ParsedRecording } from '../model';
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
 * read in order: first and second occurrence). The phone app writes the date in its own
 * locale's form too ("21:34:53 16/07/2026"): a slashed date's order (day/month or month/day)
 * is the file's, read off its rows (decision 1045). Oxygen Level → SPO2 (the oximeter's
 * own channel, not the PSG reference SPO2_PSG), Pulse Rate → PR, Motion and any further
 * numeric columns kept under their own header. All float32, '--' → -1.
 */

/** Options of {@link readOximeterCsv}. */
export interface OximeterCsvOptions {
  /** IANA zone of the oximeter's clock; 'UTC' when not given. */
  timezone?: string;
  /**
   * The order of slashed dates the upload's other exports settled (true: day/month), for a file
   * whose own rows and name do not; a file that settles its own order is read by it.
   */
  slashedDayFirst?: boolean;
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
/** 'HH:MM:SS[ AM|PM] A/B/YYYY' or 'A/B/YYYY HH:MM:SS[ AM|PM]': the date's order is the file's. */
const SLASHED_TIME = /^(?:(\d{1,2}):(\d{2}):(\d{2})\s*(AM|PM)?\s+(\d{1,2})[/.](\d{1,2})[/.](\d{4})|(\d{1,2})[/.](\d{1,2})[/.](\d{4}),?\s+(\d{1,2}):(\d{2}):(\d{2})\s*(AM|PM)?)$/i;
/** 'YYYY/MM/DD HH:MM:SS': year first is always year, month, day. */
const YEAR_FIRST_SLASHED = /^(\d{4})\/(\d{1,2})\/(\d{1,2})\s+(\d{1,2}):(\d{2}):(\d{2})$/;
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
  const fields = rows.map((row) => readTimeFields(fileName, header[timeAt], row.line, row.cells[timeAt] ?? ''));
  const dayFirst = slashedDayFirst(fileName, header[timeAt], fields, options.slashedDayFirst);
  const times = new Float64Array(rows.length);
  const lines = new Int32Array(rows.length);
  rows.forEach((row, i) => {
    lines[i] = row.line;
    const ms = rowMs(fileName, header[timeAt], row.line, row.cells[timeAt] ?? '', fields[i], dayFirst, clock);
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
      ...(dayFirst !== null ? { slashedDates: dayFirst ? 'day/month' : 'month/day' } : {}),
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

/**
 * A time cell's wall-clock fields. A slashed date ('16/07/2026') keeps its two numbers before
 * the year unassigned (`leading`, `trailing`) until the file's order is known.
 */
type TimeFields =
  | { kind: 'dated'; year: number; month: number; day: number; hour: number; minute: number; second: number }
  | Slashed;
type Slashed = { kind: 'slashed'; year: number; leading: number; trailing: number; hour: number; minute: number; second: number };

function readTimeFields(file: string, column: string, line: number, cell: string): TimeFields {
  const w = WELLUE_TIME.exec(cell);
  if (w) {
    const month = MONTHS.indexOf(w[5].toLowerCase()) + 1;
    const hour = twelveHourClock(Number(w[1]), w[4]);
    if (month > 0 && hour !== null) return dated(Number(w[7]), month, Number(w[6]), hour, Number(w[2]), Number(w[3]));
  }
  const iso = ISO_LOCAL_TIME.exec(cell) ?? YEAR_FIRST_SLASHED.exec(cell);
  if (iso) return dated(Number(iso[1]), Number(iso[2]), Number(iso[3]), Number(iso[4]), Number(iso[5]), Number(iso[6]));
  const s = SLASHED_TIME.exec(cell);
  if (s) {
    // Time first (groups 1–7) or date first (groups 8–14).
    const [h, mi, se, marker, a, b, y] = s[1] !== undefined ? s.slice(1, 8) : [s[11], s[12], s[13], s[14], s[8], s[9], s[10]];
    const hour = twelveHourClock(Number(h), marker);
    if (hour !== null) return { kind: 'slashed', year: Number(y), leading: Number(a), trailing: Number(b), hour, minute: Number(mi), second: Number(se) };
  }
  throw notATime(file, column, line, cell);
}

function dated(year: number, month: number, day: number, hour: number, minute: number, second: number): TimeFields {
  return { kind: 'dated', year, month, day, hour, minute, second };
}

function notATime(file: string, column: string, line: number, cell: string): RecordingFormatError {
  return new RecordingFormatError(file, `${column} (line ${line})`, `"${cell}" is not a time like "00:02:16 Mar 10 2026"`);
}

/**
 * Whether the file's slashed dates are day/month (true) or month/day (false); null when it
 * has none. The file's rows tell first ({@link orderOfRows}), then the date the app wrote into
 * the file's name ("O2Ring_20261104013524.csv"), then the order the upload's other exports
 * settled. A file none of these settles is refused rather than read a month off.
 */
function slashedDayFirst(file: string, column: string, fields: TimeFields[], settledByUpload: boolean | undefined): boolean | null {
  const slashed = fields.filter((f): f is Slashed => f.kind === 'slashed');
  if (slashed.length === 0) return null;
  const order = orderOfRows(file, column, slashed) ?? orderOfName(file, slashed[0]) ?? settledByUpload;
  if (order !== undefined) return order;
  const example = slashed.find((f) => f.leading !== f.trailing) ?? slashed[0];
  throw new AmbiguousDateOrderError(
    file,
    column,
    `its dates (such as "${pad(example.leading)}/${pad(example.trailing)}/${example.year}") read as day/month and as month/day alike, and neither its rows, its name nor the upload's other files tell which`,
  );
}

/**
 * The order the rows tell: a number past 12 is a day; failing that, the night's dates must
 * follow one another (a night over midnight steps its day by one, which the other reading
 * makes a month). Dates that read the same both ways (05/05) are day/month; undefined when
 * the rows cannot tell.
 */
function orderOfRows(file: string, column: string, slashed: Slashed[]): boolean | undefined {
  const dayFirst = slashed.some((f) => f.leading > 12);
  const monthFirst = slashed.some((f) => f.trailing > 12);
  if (dayFirst && monthFirst) {
    throw new RecordingFormatError(file, column, 'its dates mix day/month and month/day (both numbers of a date go past 12 in different rows)');
  }
  if (dayFirst || monthFirst) return dayFirst;
  const follows = (asDayFirst: boolean) =>
    slashed.every((f, i) => {
      const step = i === 0 ? 0 : dayOf(f, asDayFirst) - dayOf(slashed[i - 1], asDayFirst);
      return step === 0 || step === 1;
    });
  const dayFirstFollows = follows(true);
  if (dayFirstFollows !== follows(false)) return dayFirstFollows;
  return slashed.every((f) => f.leading === f.trailing) ? true : undefined;
}

/** The order in which the first row's date is the one in the file's name, its start on the phone's clock (a day either side at most). */
function orderOfName(file: string, first: Slashed): boolean | undefined {
  const named = dateInName(file);
  if (named === null) return undefined;
  const near = (asDayFirst: boolean) => Math.abs(dayOf(first, asDayFirst) - named) <= 1;
  return near(true) !== near(false) ? near(true) : undefined;
}

/** A slashed date in days since 1970, read in one order. */
const dayOf = (f: Slashed, dayFirst: boolean): number => Date.UTC(f.year, (dayFirst ? f.trailing : f.leading) - 1, dayFirst ? f.leading : f.trailing) / DAY_MS;

/** A calendar date written as YYYYMMDD in a file name (as the phone app names its exports), in days since 1970; null when none. */
function dateInName(file: string): number | null {
  for (const m of file.matchAll(/(?<!\d)(\d{4})(\d{2})(\d{2})(?:\d{4}|\d{6})?(?!\d)/g)) {
    const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
    const ms = Date.UTC(year, month - 1, day);
    if (year >= 1990 && month >= 1 && month <= 12 && new Date(ms).getUTCDate() === day) return ms / DAY_MS;
  }
  return null;
}

const DAY_MS = 86_400_000;
const pad = (n: number) => String(n).padStart(2, '0');

/** ms UTC of a row's time, its slashed date read in the file's order. */
function rowMs(file: string, column: string, line: number, cell: string, f: TimeFields, dayFirst: boolean | null, clock: LocalClock): number {
  const ms =
    f.kind === 'dated'
      ? clock.toUtcMs(f.year, f.month, f.day, f.hour, f.minute, f.second)
      : clock.toUtcMs(f.year, dayFirst ? f.trailing : f.leading, dayFirst ? f.leading : f.trailing, f.hour, f.minute, f.second);
  if (ms === null) throw notATime(file, column, line, cell);
  return ms;
}

/** 24-hour hour from an optional AM/PM marker; null for an impossible hour. */
function twelveHourClock(hour: number, marker: string | undefined): number | null {
  if (!marker) return hour;
  if (hour < 1 || hour > 12) return null;
  return (hour % 12) + (marker.toUpperCase() === 'PM' ? 12 : 0);
}
