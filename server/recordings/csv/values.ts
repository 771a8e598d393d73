import { DateTime } from 'luxon';
import { RecordingFormatError } from '../model';

/** Cell and local-time parsing shared by the CSV readers. */

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;
/** Cells that mean "no value": the Wellue export's '--', empty, and spelled-out NaN. */
const MISSING_CELLS = new Set(['', '--', '-', 'nan', 'null', 'n/a']);

/**
 * A numeric cell, or NaN (missing) for '--', empty and the like; null if not a number.
 * Other tools' CSVs define no missing codes: a missing cell is a gap, not a -1.
 */
export function parseValueCell(cell: string): number | null {
  if (MISSING_CELLS.has(cell.toLowerCase())) return Number.NaN;
  return NUMBER.test(cell) ? Number(cell) : null;
}

/** Like {@link parseValueCell} but throws naming the column and line. */
export function requireValueCell(file: string, column: string, line: number, cell: string): number {
  const value = parseValueCell(cell);
  if (value === null) throw new RecordingFormatError(file, `${column} (line ${line})`, `"${cell}" is not a number or '--'`);
  return value;
}

/**
 * Local wall-clock fields to ms UTC in `zone`. The zone offset is looked up once per local
 * minute (zone changes happen on minute boundaries), so a night of rows costs a few
 * hundred time-zone lookups, not one per row. A wall time that a DST fall-back shows twice
 * is read as its first occurrence; {@link LocalClock.afterFold} moves later rows on.
 */
export class LocalClock {
  private cachedMinute = Number.NaN;
  private cachedOffsetMs = 0;

  constructor(private readonly zone: string) {}

  /** ms UTC of the local time, or null when it is not a calendar date/time. */
  toUtcMs(year: number, month: number, day: number, hour: number, minute: number, second: number, ms = 0): number | null {
    if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) return null;
    const asUtc = Date.UTC(year, month - 1, day, hour, minute, second, ms);
    if (new Date(asUtc).getUTCDate() !== day) return null;
    const minuteKey = Math.floor(asUtc / 60_000);
    if (minuteKey !== this.cachedMinute) {
      const dt = DateTime.fromObject({ year, month, day, hour, minute }, { zone: this.zone });
      if (!dt.isValid) return null;
      this.cachedOffsetMs = Date.UTC(year, month - 1, day, hour, minute) - this.firstOccurrence(dt.toMillis());
      this.cachedMinute = minuteKey;
    }
    return asUtc - this.cachedOffsetMs;
  }

  /** The earliest instant showing the same wall-clock time as `ms` (luxon picks the later one in a fold). */
  private firstOccurrence(ms: number): number {
    for (const minutes of FOLD_SHIFTS_MIN) {
      const candidate = ms - minutes * 60_000;
      if (sameWall(DateTime.fromMillis(candidate, { zone: this.zone }), DateTime.fromMillis(ms, { zone: this.zone }))) return candidate;
    }
    return ms;
  }

  /**
   * After a DST fall-back the local clock repeats an hour, and a row of the repeated hour
   * seems to go back in time. Such a row is the second occurrence of its wall time: returns
   * that later instant when it exists and is not before `previousMs`, else `ms` unchanged
   * (a genuine step back is then refused by the caller).
   */
  afterFold(ms: number, previousMs: number): number {
    if (ms >= previousMs) return ms;
    const wall = DateTime.fromMillis(ms, { zone: this.zone });
    for (const minutes of FOLD_SHIFTS_MIN) {
      const candidate = ms + minutes * 60_000;
      if (sameWall(DateTime.fromMillis(candidate, { zone: this.zone }), wall)) return candidate >= previousMs ? candidate : ms;
    }
    return ms;
  }
}

function sameWall(a: DateTime, b: DateTime): boolean {
  return a.day === b.day && a.hour === b.hour && a.minute === b.minute && a.second === b.second;
}

/** DST shifts in use worldwide, minutes (Lord Howe Island's is 30). */
const FOLD_SHIFTS_MIN = [60, 30, 120] as const;

