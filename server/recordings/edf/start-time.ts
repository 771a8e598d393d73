import { DateTime } from 'luxon';
import { RecordingFormatError } from '../model';

/**
 * The EDF start date and time: 'dd.mm.yy' and 'hh.mm.ss' on the recorder's local clock.
 * Two-digit years 85–99 are 19xx, 00–84 are 20xx (EDF spec); an EDF+ recording field
 * 'Startdate dd-MMM-yyyy' gives the four-digit year and wins when it agrees with the
 * header's day and month (it is the only source after 2084, when the header says 'yy').
 */

const MONTHS = ['JAN', 'FEB', 'MAR', 'APR', 'MAY', 'JUN', 'JUL', 'AUG', 'SEP', 'OCT', 'NOV', 'DEC'] as const;
const TWO_DIGIT_CENTURY_PIVOT = 85;
const STARTDATE = /^Startdate\s+(\d{2})-([A-Za-z]{3})-(\d{4})(\s|$)/;
const TRIPLE = /^(\d{2})\D(\d{2})\D(\d{2}|yy)$/i;

interface LocalDateTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** Throws unless `zone` is an IANA time zone luxon knows (or 'UTC'). */
export function assertTimeZone(file: string, zone: string): void {
  if (!DateTime.now().setZone(zone).isValid) {
    throw new RecordingFormatError(file, 'timezone', `"${zone}" is not a known IANA time zone`);
  }
}

/**
 * Reads the header start date/time (with the EDF+ Startdate when present) as local time in
 * `zone` and returns ms UTC. A time in a DST gap is moved forward; a time a fall-back shows
 * twice is its later occurrence (luxon's rules; the header cannot tell them apart).
 */
export function edfStartMs(
  file: string,
  startDate: string,
  startTime: string,
  recordingField: string,
  zone: string,
): number {
  assertTimeZone(file, zone);
  const local = parseLocal(file, startDate, startTime, recordingField);
  const dt = DateTime.fromObject(local, { zone });
  if (!dt.isValid) {
    throw new RecordingFormatError(file, 'startdate', `"${startDate.trim()}" is not a calendar date`);
  }
  return dt.toMillis();
}

function parseLocal(file: string, startDate: string, startTime: string, recordingField: string): LocalDateTime {
  const date = TRIPLE.exec(startDate.trim());
  if (!date) throw new RecordingFormatError(file, 'startdate', `"${startDate.trim()}" is not dd.mm.yy`);
  const time = TRIPLE.exec(startTime.trim());
  if (!time || time[3].toLowerCase() === 'yy') {
    throw new RecordingFormatError(file, 'starttime', `"${startTime.trim()}" is not hh.mm.ss`);
  }
  const day = Number(date[1]);
  const month = Number(date[2]);
  const [hour, minute, second] = [Number(time[1]), Number(time[2]), Number(time[3])];
  if (month < 1 || month > 12 || day < 1 || day > 31) {
    throw new RecordingFormatError(file, 'startdate', `"${startDate.trim()}" is not a calendar date`);
  }
  if (hour > 23 || minute > 59 || second > 59) {
    throw new RecordingFormatError(file, 'starttime', `"${startTime.trim()}" is not a time of day`);
  }
  const yy = date[3].toLowerCase() === 'yy' ? null : Number(date[3]);
  const year = plusYear(recordingField, day, month, yy) ?? twoDigitYear(file, yy);
  return { year, month, day, hour, minute, second };
}

/** The four-digit year of an EDF+ 'Startdate dd-MMM-yyyy' that matches the header date, else null. */
function plusYear(recordingField: string, day: number, month: number, yy: number | null): number | null {
  const m = STARTDATE.exec(recordingField.trim());
  if (!m) return null;
  const year = Number(m[3]);
  const sameDay = Number(m[1]) === day && MONTHS.indexOf(m[2].toUpperCase() as (typeof MONTHS)[number]) + 1 === month;
  if (!sameDay || (yy !== null && year % 100 !== yy)) return null;
  return year;
}

function twoDigitYear(file: string, yy: number | null): number {
  if (yy === null) {
    throw new RecordingFormatError(file, 'startdate', "year 'yy' needs an EDF+ 'Startdate dd-MMM-yyyy' in the recording field");
  }
  return yy >= TWO_DIGIT_CENTURY_PIVOT ? 1900 + yy : 2000 + yy;
}

/** The EDF header's 'dd.mm.yy' and 'hh.mm.ss' and the EDF+ 'dd-MMM-yyyy' for a time in `zone`. */
export function edfDateFields(ms: number, zone: string): { startDate: string; startTime: string; plusDate: string } {
  const dt = DateTime.fromMillis(ms, { zone });
  if (!dt.isValid) throw new RangeError(`"${zone}" is not a known IANA time zone`);
  const two = (n: number) => String(n).padStart(2, '0');
  return {
    startDate: `${two(dt.day)}.${two(dt.month)}.${two(dt.year % 100)}`,
    startTime: `${two(dt.hour)}.${two(dt.minute)}.${two(dt.second)}`,
    plusDate: `${two(dt.day)}-${MONTHS[dt.month - 1]}-${String(dt.year).padStart(4, '0')}`,
  };
}
