import { DateTime } from 'luxon';
import { useTranslation } from 'react-i18next';

/**
 * The one place the UI turns numbers, dates, times and durations into text: Intl and
 * luxon in the UI language, instants in the patient's (or device's) time zone. Every
 * locale writes the Gregorian calendar with Latin digits — clinical dates and values must
 * read the same in the Arabic UI as in the report and the exported files — but keeps its
 * own month names, separators and decimal mark (24,46 in de-AT and fr-FR).
 */
export function intlLocale(language: string): string {
  return `${language}-u-ca-gregory-nu-latn`;
}

const numberFormats = new Map<string, Intl.NumberFormat>();

/** A number with exactly `digits` decimals in `language` ("–" when not finite). */
export function formatNumber(value: number | null | undefined, language: string, digits = 0): string {
  if (value === null || value === undefined || !Number.isFinite(value)) return '–';
  const key = `${language}|${digits}`;
  let f = numberFormats.get(key);
  if (!f) {
    // 'negative': a value that rounds to zero reads 0.0, never -0.0 (a mean of −0.03 at one digit).
    f = new Intl.NumberFormat(intlLocale(language), { minimumFractionDigits: digits, maximumFractionDigits: digits, signDisplay: 'negative' });
    numberFormats.set(key, f);
  }
  return f.format(value);
}

/** A number with at most `significant` significant digits (sample rates: 0,25 / 256). */
export function formatSignificant(value: number, language: string, significant = 3): string {
  return new Intl.NumberFormat(intlLocale(language), { maximumSignificantDigits: significant }).format(value);
}

const at = (ms: number, zone: string, language: string) => DateTime.fromMillis(Number(ms), { zone }).setLocale(intlLocale(language));

/**
 * Chinese writes a date year first with its own marks (2026年11月22日); "dd LLL yyyy" would
 * read "22 11月 2026" there (or "22 11 2026" in some ICU builds), so it gets Intl's own order.
 */
const yearFirst = (language: string) => language.startsWith('zh');
const dayText = (d: DateTime, language: string) => (yearFirst(language) ? d.toLocaleString({ year: 'numeric', month: 'long', day: 'numeric' }) : d.toFormat('dd LLL yyyy'));

/** The spec's "day, short month, year" (05 Mar 2026, 05 März 2026, 05 mars 2026). */
export function formatDay(ms: number | null | undefined, zone: string, language: string): string {
  if (ms === null || ms === undefined) return '';
  return dayText(at(ms, zone, language), language);
}

/** A calendar day given as yyyy-mm-dd, without time zone arithmetic. */
export function formatIsoDay(iso: string, language: string): string {
  return dayText(DateTime.fromISO(iso, { zone: 'UTC' }).setLocale(intlLocale(language)), language);
}

/** A short day and month of a yyyy-mm-dd day (axis labels). */
export function formatIsoDayShort(iso: string, language: string): string {
  return DateTime.fromISO(iso, { zone: 'UTC' }).setLocale(intlLocale(language)).toLocaleString({ day: '2-digit', month: 'short' });
}

/** Day and 24-hour time of an instant in `zone`. */
export function formatDateTime(ms: number, zone: string, language: string): string {
  const d = at(ms, zone, language);
  return `${dayText(d, language)}${yearFirst(language) ? ' ' : ', '}${d.toFormat('HH:mm')}`;
}

/** 24-hour clock time of an instant in `zone` (clinical times are never am/pm). */
export function formatTime(ms: number, zone: string, language: string, seconds = true): string {
  return at(ms, zone, language).toFormat(seconds ? 'HH:mm:ss' : 'HH:mm');
}

/** Month and year of a calendar month (night picker heading). */
export function formatMonth(year: number, month1: number, language: string): string {
  return DateTime.utc(year, month1, 1).setLocale(intlLocale(language)).toFormat('LLLL yyyy');
}

/** Short weekday names, Monday first. */
export function weekdayNames(language: string): string[] {
  return Array.from({ length: 7 }, (_, i) => DateTime.utc(2024, 1, 1 + i).setLocale(intlLocale(language)).toFormat('ccc'));
}

/** A duration in hours with one decimal (7,5 h). */
export function formatHours(ms: number, language: string): string {
  return formatNumber(ms / 3_600_000, language, 1);
}

/** The zone this browser keeps its clock in (when something happened, for the person reading it). */
export const browserZone = (): string => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/**
 * When something happened (a report requested, a sign-up, a configuration sent), in this
 * browser's zone, as every other day and time of the app: "04 Dec 2026, 10:12", never am/pm.
 */
export function formatInstant(at: string | number, language: string): string {
  return formatDateTime(typeof at === 'string' ? Date.parse(at) : at, browserZone(), language);
}

/** The formatters bound to the current UI language. */
export function useFormat() {
  const { i18n } = useTranslation();
  const lng = i18n.language;
  return {
    language: lng,
    number: (v: number | null | undefined, digits = 0) => formatNumber(v, lng, digits),
    significant: (v: number, n = 3) => formatSignificant(v, lng, n),
    day: (ms: number | null | undefined, zone: string) => formatDay(ms, zone, lng),
    isoDay: (iso: string) => formatIsoDay(iso, lng),
    dateTime: (ms: number, zone: string) => formatDateTime(ms, zone, lng),
    /** An instant (ISO text or ms) in this browser's zone. */
    instant: (at: string | number) => formatInstant(at, lng),
    time: (ms: number, zone: string, seconds = true) => formatTime(ms, zone, lng, seconds),
    hours: (ms: number) => formatHours(ms, lng),
  };
}
