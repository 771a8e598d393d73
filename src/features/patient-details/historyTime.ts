import { DateTime } from 'luxon';

/**
 * Times of history entries: a `datetime-local` input holds a wall-clock time with no zone,
 * which the patient's zone turns into an instant (and back), so a physician types the time
 * the patient lived, wherever the physician sits.
 */

/** The input's value (yyyy-MM-ddTHH:mm) for an instant, in `zone`. */
export function toLocalInput(ms: number, zone: string): string {
  return DateTime.fromMillis(ms, { zone }).toFormat("yyyy-MM-dd'T'HH:mm");
}

/** The instant (ms UTC) of an input's wall-clock value in `zone`, or null when it is not a time. */
export function fromLocalInput(value: string, zone: string): number | null {
  if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2})?$/.test(value)) return null;
  const d = DateTime.fromISO(value, { zone });
  return d.isValid ? d.toMillis() : null;
}

/**
 * The end (exclusive, ms UTC) of the calendar day in `zone` on which a night ends: the
 * Summary lists history entries up to it (the morning after counts for the night).
 */
export function nightDayEnd(stopMs: number, zone: string): number {
  return DateTime.fromMillis(stopMs, { zone }).startOf('day').plus({ days: 1 }).toMillis();
}
