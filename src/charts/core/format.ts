// Time formatting of the review screen: span readout, clock labels, night dates.
import { DateTime } from 'luxon';
import { formatIsoDay, formatNumber } from '../../format';

const pad = (n: number) => String(Math.floor(n)).padStart(2, '0');

/** A duration as HH:MM:SS (the navigator's time-span readout), sub-second spans as S.s s. */
export function formatSpan(ms: number): string {
  const total = Math.max(0, Math.round(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${pad(h)}:${pad(m)}:${pad(s)}`;
}

/** Local clock time of an instant in `zone`: HH:mm, or HH:mm:ss when `seconds`. */
export function formatClock(t: number, zone: string, seconds = false): string {
  const dt = DateTime.fromMillis(t, { zone: zone || 'UTC' });
  const valid = dt.isValid ? dt : DateTime.fromMillis(t, { zone: 'UTC' });
  return valid.toFormat(seconds ? 'HH:mm:ss' : 'HH:mm');
}

/** A night key (Unix seconds, 00:00 UTC of the night's date) as dd MMM yyyy (spec 2 §2). */
export function formatNightDate(nightKey: number, locale = 'en-US'): string {
  // The night key is the calendar day at UTC midnight: written as that day, through the one formatter.
  return formatIsoDay(DateTime.fromSeconds(nightKey, { zone: 'UTC' }).toISODate()!, locale);
}

/** Offset of `zone` from UTC at instant t, ms. */
export function zoneOffset(zone: string): (t: number) => number {
  return (t) => {
    const dt = DateTime.fromMillis(t, { zone: zone || 'UTC' });
    return dt.isValid ? dt.offset * 60_000 : 0;
  };
}

/** A statistic for the readout: 1 decimal in the UI language's writing (24,5 in de-AT), or '–' when NaN. */
export function formatValue(v: number, digits = 1, language = 'en-US'): string {
  return formatNumber(v, language, digits);
}
