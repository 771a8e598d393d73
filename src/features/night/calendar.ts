// Month grids of the night picker. Dates are UTC calendar days (a night key is 00:00 UTC
// of the night's local date), written YYYY-MM-DD.
import { DAY_MS } from '../../../engine/constants';

/** YYYY-MM-DD of a night key (Unix seconds). */
export function nightDate(nightKey: number): string {
  return new Date(nightKey * 1000).toISOString().slice(0, 10);
}

/** The weeks (Monday first) covering a month; days outside it are null. */
export function monthGrid(year: number, month: number): (string | null)[][] {
  const first = Date.UTC(year, month, 1);
  const days = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  const lead = (new Date(first).getUTCDay() + 6) % 7;
  const cells: (string | null)[] = Array.from({ length: lead }, () => null);
  for (let d = 0; d < days; d++) cells.push(new Date(first + d * DAY_MS).toISOString().slice(0, 10));
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, w) => cells.slice(w * 7, w * 7 + 7));
}

/** Year and month (0-based) after adding `delta` months. */
export function addMonths(year: number, month: number, delta: number): { year: number; month: number } {
  const total = year * 12 + month + delta;
  return { year: Math.floor(total / 12), month: ((total % 12) + 12) % 12 };
}
