// Trend view logic (spec 2 §2 "Trend view", §4, §5, §9): which durations are offered,
// the night dates a duration covers, which channels the view offers, the y scale of a
// chart, and the zoom over days. Pure functions; the components only render them.
import { DateTime } from 'luxon';

/** Durations in the order of the dropdown; their index is the spec's option index. */
const DURATIONS = ['last3', 'last10', 'lastMonth', 'custom'] as const;
export type Duration = (typeof DURATIONS)[number];

/** A span of night dates, both ends included (ISO yyyy-MM-dd). */
export interface DateSpan {
  from: string;
  to: string;
}

/** Trend-view channels in their default order (spec 2 §9). */
const TREND_CHANNELS = ['RII', 'BR', 'HR', 'SQ', 'SE', 'SPO2', 'PR', 'bp', 'blood_sugar', 'body_temp', 'weight', 'AHI', 'MOV', 'ODI'] as const;

/** Channels that are one index value per night rather than a signal's box statistics. */
export const INDEX_CHANNELS: ReadonlySet<string> = new Set(['RII', 'SQ', 'SE', 'AHI', 'ODI']);

/** Paid memberships get neither AHI nor ODI (spec 2 §1). */
const NOT_FOR_PAID: ReadonlySet<string> = new Set(['AHI', 'ODI']);

/**
 * Durations offered for an account `ageDays` old (spec 2 §4): under 3 days only custom,
 * 3 to 10 days last 3 nights and custom, 10 to 30 days also last 10 nights, 30 days
 * or more all four.
 */
export function offeredDurations(ageDays: number): Duration[] {
  if (ageDays < 3) return ['custom'];
  if (ageDays < 10) return ['last3', 'custom'];
  if (ageDays < 30) return ['last3', 'last10', 'custom'];
  return [...DURATIONS];
}

/** Whole days from the account's creation to `today` (both ISO dates). */
export function accountAgeDays(createdIso: string, today: string): number {
  const created = DateTime.fromISO(createdIso).startOf('day');
  return Math.max(0, Math.floor(DateTime.fromISO(today).diff(created, 'days').days));
}

/** The nights a preset covers, ending yesterday (spec 2 §4). */
export function presetSpan(duration: Exclude<Duration, 'custom'>, today: string): DateSpan {
  const to = DateTime.fromISO(today).minus({ days: 1 });
  const from = duration === 'last3' ? to.minus({ days: 2 }) : duration === 'last10' ? to.minus({ days: 9 }) : to.minus({ months: 1 }).plus({ days: 1 });
  return { from: from.toISODate()!, to: to.toISODate()! };
}

/** Why a custom span is refused (an i18n key under trend.errors), or null (spec 2 §5). */
export function customSpanError(span: DateSpan, createdIso: string, today: string): 'fromBeforeAccount' | 'toAfterYesterday' | 'toNotAfterFrom' | null {
  const created = DateTime.fromISO(createdIso).toISODate()!;
  const yesterday = DateTime.fromISO(today).minus({ days: 1 }).toISODate()!;
  if (span.from < created) return 'fromBeforeAccount';
  if (span.to > yesterday) return 'toAfterYesterday';
  if (span.to <= span.from) return 'toNotAfterFrom';
  return null;
}

/** A night key (Unix seconds at 00:00 UTC of the night's local date) as its ISO date. */
export const nightDateIso = (night: number): string => DateTime.fromSeconds(night, { zone: 'utc' }).toISODate()!;

/**
 * The first date a trend may show: the account's creation (spec 2 §5), or the patient's first
 * night when that is older (a night imported from before the patient's account was made).
 */
export function trendSince(createdIso: string, nightKeys: readonly number[]): string {
  const first = nightKeys.length > 0 ? nightDateIso(Math.min(...nightKeys)) : null;
  return first !== null && first < createdIso ? first : createdIso;
}

/** True when none of the nights falls in the span. */
export function noNightIn(span: DateSpan, nightKeys: readonly number[]): boolean {
  return !nightKeys.some((k) => {
    const d = nightDateIso(k);
    return d >= span.from && d <= span.to;
  });
}

/**
 * A custom span of two weeks ending with the patient's last night (not before `since`, and at
 * least two days, as a custom span must be: spec 2 §5), to show nights older than a preset reaches.
 */
export function spanUpToNight(lastNight: number, since: string, today: string): DateSpan {
  const last = DateTime.fromISO(nightDateIso(lastNight));
  const yesterday = DateTime.fromISO(today).minus({ days: 1 });
  let to = DateTime.min(last, yesterday);
  let from = DateTime.max(to.minus({ days: 13 }), DateTime.fromISO(since));
  if (from >= to) to = DateTime.min(from.plus({ days: 1 }), yesterday);
  if (from >= to) from = to.minus({ days: 1 });
  return { from: from.toISODate()!, to: to.toISODate()! };
}

/** Every date of the span, in order. */
export function datesOf(span: DateSpan): string[] {
  const out: string[] = [];
  const end = DateTime.fromISO(span.to);
  for (let d = DateTime.fromISO(span.from); d <= end && out.length < 400; d = d.plus({ days: 1 })) out.push(d.toISODate()!);
  return out;
}

/**
 * The trend call's times (spec 2 §7): 09:00 of the first night's date and of the day after
 * the last, in seconds, so the last night (which starts that evening) is inside.
 */
export function callTimes(span: DateSpan, zone: string): { start: number; stop: number } {
  const at9 = (iso: string, plusDays: number) => DateTime.fromISO(iso, { zone }).plus({ days: plusDays }).set({ hour: 9 }).toSeconds();
  return { start: Math.round(at9(span.from, 0)), stop: Math.round(at9(span.to, 1)) };
}

/** The channels the view offers: the trend channels with data behind them, in spec order. */
export function offeredChannels(signalCodes: ReadonlySet<string>, hasNights: boolean, paid: boolean): string[] {
  return TREND_CHANNELS.filter((code) => {
    if (paid && NOT_FOR_PAID.has(code)) return false;
    if (INDEX_CHANNELS.has(code)) return hasNights;
    return signalCodes.has(code);
  });
}

/** One night of a signal channel: the engine's statistics. */
interface BoxPoint {
  date: string;
  min: number | null;
  max: number | null;
  mean: number | null;
  lowerPercentile: number | null;
  medianPercentile: number | null;
  upperPercentile: number | null;
}

/** One night of an index channel. */
export interface ValuePoint {
  date: string;
  value: number;
  /** AHI/ODI of a night without sleep staging: per hour of monitoring (REI). */
  index_basis?: 'sleep' | 'monitoring';
}

export type TrendPoint = BoxPoint | ValuePoint;

/** A night whose index has no basis (no breathing signal, or none during its sleep): the server's point with value null. */
export interface NoBasisPoint {
  date: string;
  value: null;
  ahi_basis: 'no_breathing_signal' | 'no_breathing_signal_in_sleep';
}

/** A day of the span whose index is "–", with why (the point's ahi_basis). */
export interface NoBasisDay {
  date: string;
  basis: NoBasisPoint['ahi_basis'];
}

export const isNoBasis = (p: TrendPoint | NoBasisPoint): p is NoBasisPoint => 'value' in p && p.value === null;

/**
 * The runs of consecutive days with a value, as day positions in `days`, each of two days or
 * more: what an index's line joins. A day without a value (no night, or a night with no index)
 * ends a run: a line across it would show a course nobody measured.
 */
export function valueRuns(days: readonly string[], valueOn: (date: string) => number | null): number[][] {
  const runs: number[][] = [];
  let run: number[] = [];
  days.forEach((d, i) => {
    if (valueOn(d) !== null) {
      run.push(i);
    } else {
      runs.push(run);
      run = [];
    }
  });
  runs.push(run);
  return runs.filter((r) => r.length > 1);
}

/** Index channels whose mean over the nights is shown with its 95 % interval and spread. */
export const SPREAD_CHANNELS: ReadonlySet<string> = new Set(['AHI', 'ODI', 'RII']);

/** The device's own AHI per day (device summaries), drawn in the AHI chart beside Nocturne's. */
export const DEVICE_AHI = 'DEVICE_AHI';

export const isValuePoint = (p: TrendPoint): p is ValuePoint => 'value' in p;

/** Smallest and largest number a point draws. */
function extentOf(p: TrendPoint): [number, number] | null {
  const values = isValuePoint(p) ? [p.value] : [p.min, p.max, p.lowerPercentile, p.upperPercentile, p.medianPercentile, p.mean];
  const finite = values.filter((v): v is number => v !== null && Number.isFinite(v));
  return finite.length ? [Math.min(...finite), Math.max(...finite)] : null;
}

/** A y scale with round ticks covering the points (and 0..100 for percentages); it reaches below 0 only for a value that does. */
export function yScale(points: readonly TrendPoint[], percent = false): { lo: number; hi: number; ticks: number[]; digits: number } {
  let lo = Infinity;
  let hi = -Infinity;
  for (const p of points) {
    const e = extentOf(p);
    if (e) {
      lo = Math.min(lo, e[0]);
      hi = Math.max(hi, e[1]);
    }
  }
  if (percent) {
    lo = Math.min(lo, 0);
    hi = Math.max(hi, 100);
  }
  if (!Number.isFinite(lo)) return { lo: 0, hi: 1, ticks: [0, 1], digits: 0 };
  if (hi - lo < 1e-9) {
    // One value (one night, or equal nights): a span around it, never below 0 for values that are not.
    lo = lo >= 0 ? Math.max(0, lo - 1) : lo - 1;
    hi += 1;
  }
  const raw = (hi - lo) / 4;
  const mag = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= raw)!;
  const first = Math.floor(lo / step) * step;
  const last = Math.ceil(hi / step) * step;
  const ticks: number[] = [];
  for (let v = first; v <= last + step / 2; v += step) ticks.push(Math.round(v / step) * step);
  return { lo: first, hi: last, ticks, digits: stepDigits(step) };
}

/** Decimals that write every multiple of `step` exactly (2.5 → 1, 0.25 → 2, 5 → 0): a tick reads its own value, not a rounding of it. */
function stepDigits(step: number): number {
  for (let d = 0; d < 6; d++) if (Math.abs(Math.round(step * 10 ** d) - step * 10 ** d) < 1e-6) return d;
  return 6;
}

/** The days shown: the whole span or a zoomed part of it (indices into datesOf). */
export interface DayWindow {
  first: number;
  last: number;
}

/** A zoom from a drag between two day indices, at least one day, inside [0, days). */
export function zoomTo(a: number, b: number, days: number): DayWindow {
  const first = Math.max(0, Math.min(a, b));
  const last = Math.min(days - 1, Math.max(a, b));
  return { first, last: Math.max(first, last) };
}

/** Pages a zoomed window by its own width (spec 2 §9), kept inside the span. */
export function pageWindow(w: DayWindow, direction: -1 | 1, days: number): DayWindow {
  const width = w.last - w.first + 1;
  const first = Math.max(0, Math.min(days - width, w.first + direction * width));
  return { first, last: first + width - 1 };
}
