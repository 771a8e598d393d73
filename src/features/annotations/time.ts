import { DateTime } from 'luxon';

/** The popup's zone label (spec 2 §9: "GMT +1"). */
export function zoneLabel(ms: number, zone: string): string {
  const offset = DateTime.fromMillis(ms, { zone }).offset / 60;
  const whole = Number.isInteger(offset) ? String(Math.abs(offset)) : Math.abs(offset).toFixed(1);
  return `GMT ${offset < 0 ? '-' : '+'}${whole}`;
}

/** The local clock time of ms in a zone, as seconds since local midnight. */
export function clockSeconds(ms: number, zone: string): number {
  const d = DateTime.fromMillis(ms, { zone });
  return d.hour * 3600 + d.minute * 60 + d.second;
}

/**
 * The instant within a night whose local clock reads `seconds` since midnight: on the
 * night's first date, or the next one when that is before the recording began.
 */
export function instantOfClock(seconds: number, recordingStart: number, zone: string): number {
  const day = DateTime.fromMillis(recordingStart, { zone }).startOf('day');
  const first = day.plus({ seconds }).toMillis();
  return first < recordingStart - 3_600_000 ? day.plus({ days: 1, seconds }).toMillis() : first;
}
