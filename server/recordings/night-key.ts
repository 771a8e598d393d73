import { DateTime } from 'luxon';

/** Hour of local time before which a start belongs to the previous evening's night. */
const NIGHT_DATE_CUTOFF_HOUR = 12;

/**
 * The night key (spec 2: Unix seconds, UTC): 00:00 UTC of the local calendar date on which
 * the night began. A recording started after midnight but before noon belongs to the
 * night that began the evening before.
 */
export function nightKey(startMs: number, timezone: string): number {
  const local = DateTime.fromMillis(startMs, { zone: timezone });
  if (!local.isValid) throw new Error(`unknown time zone "${timezone}"`);
  const day = local.hour < NIGHT_DATE_CUTOFF_HOUR ? local.minus({ days: 1 }) : local;
  return Date.UTC(day.year, day.month - 1, day.day) / 1000;
}

/** True when the zone is a valid IANA time zone. */
export function isTimeZone(zone: string): boolean {
  return DateTime.local().setZone(zone).isValid;
}

/** The date of a night key, YYYY-MM-DD (or YYYYMMDD with compact). */
export function nightDate(key: number, compact = false): string {
  const date = new Date(key * 1000).toISOString().slice(0, 10);
  return compact ? date.replaceAll('-', '') : date;
}

/** A time the spec's clients send as Unix seconds or as ms, in ms. */
export const secondsOrMs = (t: number) => (t < 1e11 ? t * 1000 : t);

/** A night key from the forms clients send: Unix seconds, YYYY-MM-DD or YYYYMMDD. */
export function parseNightKey(value: string): number | null {
  const v = value.trim();
  if (/^\d{9,11}$/.test(v)) return Number(v);
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(v);
  if (!m) return null;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return Number.isNaN(ms) ? null : ms / 1000;
}
