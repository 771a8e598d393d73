// The practice calendar's month: pure shaping of the server's entries into a Monday-first
// grid (the same grid as the night picker's), apart from drawing.
import { addMonths, monthGrid } from '../night/calendar';
import type { CalendarEvent } from './api';

export interface CalendarDay {
  /** YYYY-MM-DD, or null for the padding before the 1st and after the last day. */
  date: string | null;
  events: CalendarEvent[];
  today: boolean;
}

/** What an entry is, in the order a day lists them. */
const EVENT_ORDER: Record<CalendarEvent['kind'], number> = { checkup: 0, booking: 1, return: 2 };

const pad = (n: number) => String(n).padStart(2, '0');

/** First and last day (YYYY-MM-DD) of a month (0-based), the range to ask the server for. */
export function monthRange(year: number, month: number): { from: string; to: string } {
  const last = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return { from: `${year}-${pad(month + 1)}-01`, to: `${year}-${pad(month + 1)}-${pad(last)}` };
}

/** The weeks of a month with each day's entries (check-ups first, then bookings and returns, each by patient code). */
export function buildMonth(year: number, month: number, events: readonly CalendarEvent[], today: string): CalendarDay[][] {
  const byDay = new Map<string, CalendarEvent[]>();
  for (const e of events) {
    const list = byDay.get(e.date) ?? [];
    list.push(e);
    byDay.set(e.date, list);
  }
  for (const list of byDay.values()) list.sort((a, b) => EVENT_ORDER[a.kind] - EVENT_ORDER[b.kind] || a.patient_code.localeCompare(b.patient_code));
  return monthGrid(year, month).map((week) => week.map((date) => ({ date, events: date ? (byDay.get(date) ?? []) : [], today: date === today })));
}

/** How many entries of each kind the month holds (the legend's counts). */
export function countKinds(events: readonly CalendarEvent[]): Record<CalendarEvent['kind'], number> {
  const counts = { checkup: 0, booking: 0, return: 0 };
  for (const e of events) counts[e.kind] += 1;
  return counts;
}

/** The month of a YYYY-MM-DD day (month 0-based). */
export function monthOf(day: string): { year: number; month: number } {
  return { year: Number(day.slice(0, 4)), month: Number(day.slice(5, 7)) - 1 };
}

export { addMonths };
