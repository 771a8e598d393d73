import { DateTime } from 'luxon';
import { browserZone, formatDay } from '../../../format';
import { DAY_MS } from '../../../../engine/constants';

// Allocation dates (spec 1 §4): days as 'YYYY-MM-DD' in the patient's zone, ms on the wire.
export { DAY_MS };

export type IsoDay = string;

/** Today in a zone, as YYYY-MM-DD. */
export function todayIn(zone: string, now = Date.now()): IsoDay {
  return DateTime.fromMillis(now, { zone }).toISODate()!;
}

/** Adds whole days to a YYYY-MM-DD. */
export function addDays(day: IsoDay, days: number): IsoDay {
  return DateTime.fromISO(day, { zone: 'UTC' }).plus({ days }).toISODate()!;
}

/** Start of a day in a zone, epoch ms: what the server receives as an allocation or return date. */
export function dayStartMs(day: IsoDay, zone: string): number {
  return DateTime.fromISO(day, { zone }).startOf('day').toMillis();
}

/** The day (in a zone) an epoch-ms instant falls on. */
export function dayOf(ms: number, zone: string): IsoDay {
  return DateTime.fromMillis(ms, { zone }).toISODate()!;
}

/** Nights between two days: the rounded day difference, at least 1. */
export function nightsBetween(from: IsoDay, to: IsoDay): number {
  const diff = Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / DAY_MS);
  return Math.max(1, diff);
}

export interface DateRange {
  allocation: IsoDay;
  deallocation: IsoDay;
}

/** Defaults: today and tomorrow. */
export function defaultRange(zone: string, now = Date.now()): DateRange {
  const today = todayIn(zone, now);
  return { allocation: today, deallocation: addDays(today, 1) };
}

export type AllocationChange = { kind: 'past'; requested: IsoDay } | { kind: 'applied'; range: DateRange };

/**
 * A new allocation date: a day before today asks for the past-date flow instead of being
 * applied; on or after the return date, the return becomes allocation + 1 day.
 */
export function changeAllocation(range: DateRange, allocation: IsoDay, today: IsoDay): AllocationChange {
  if (allocation < today) return { kind: 'past', requested: allocation };
  const deallocation = allocation >= range.deallocation ? addDays(allocation, 1) : range.deallocation;
  return { kind: 'applied', range: { allocation, deallocation } };
}

/** A new return date: never before allocation + 1 day. */
export function changeDeallocation(range: DateRange, deallocation: IsoDay): DateRange {
  const min = returnMin(range.allocation);
  return { allocation: range.allocation, deallocation: deallocation < min ? min : deallocation };
}

/** The return minimum: allocation + 1 day. */
export const returnMin = (allocation: IsoDay): IsoDay => addDays(allocation, 1);
/** The allocation maximum on the edit screen: return − 1 day. */
export const allocationMax = (deallocation: IsoDay): IsoDay => addDays(deallocation, -1);

/** Display as the spec's "day, short month, year" (e.g. 05 Mar 2026). */
export function displayDay(ms: number | null | undefined, zone: string, locale = 'en-US'): string {
  if (ms === null || ms === undefined) return '';
  return formatDay(ms, zone, locale);
}

/** Timezone from a country's entry if known, otherwise the browser's. */
export function zoneFor(country: { timezone?: string | null } | null | undefined): string {
  const tz = country?.timezone;
  return tz && DateTime.local().setZone(tz).isValid ? tz : browserZone();
}
