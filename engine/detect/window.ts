import type { Series } from './series';
import type { Band } from './sleep';

/** Shortest manual correction, ms: one 30-s scoring epoch (the server refuses shorter, the form says so). */
export const MIN_CORRECTION_MS = 30_000;

/**
 * A physician's manual corrections of a night, applied at analysis time (the stored samples
 * never change): the night is analysed over [bedInMs, bedOutMs) without its invalid spans.
 * `bedTimesCorrected` says whether bed-in and bed-out are the physician's (then they are the
 * night's bed times) or the recording's start and stop (then the in-bed channel decides them).
 */
export interface AnalysisWindow {
  bedInMs: number;
  bedOutMs: number;
  bedTimesCorrected: boolean;
  /** 'lights': the bed times are the files' lights-off and lights-on markers, not a physician's (decision 1023). */
  bedTimesFrom?: 'lights';
  /** Spans not to analyse, ms UTC, sorted, not overlapping, inside [bedInMs, bedOutMs). */
  invalid: Band[];
}

/**
 * The window of a night under its corrections: bed times clamped to the recording, invalid
 * spans clipped to the window, sorted and merged where they overlap or touch.
 */
export function analysisWindow(startMs: number, stopMs: number, bedTimes: { inMs: number; outMs: number } | null, invalid: readonly Band[]): AnalysisWindow {
  const bedInMs = bedTimes ? Math.max(startMs, Math.min(stopMs, bedTimes.inMs)) : startMs;
  const bedOutMs = bedTimes ? Math.max(bedInMs, Math.min(stopMs, bedTimes.outMs)) : stopMs;
  const clipped = invalid
    .map((b) => ({ from: Math.max(bedInMs, b.from), to: Math.min(bedOutMs, b.to) }))
    .filter((b) => b.to > b.from)
    .sort((a, b) => a.from - b.from);
  const merged: Band[] = [];
  for (const b of clipped) {
    const last = merged[merged.length - 1];
    if (last && b.from <= last.to) last.to = Math.max(last.to, b.to);
    else merged.push({ ...b });
  }
  return { bedInMs, bedOutMs, bedTimesCorrected: bedTimes !== null, invalid: merged };
}

/** Milliseconds of [from, to) that the window analyses (inside the bed times, outside the invalid spans). */
export function validMsBetween(w: AnalysisWindow, from: number, to: number): number {
  const a = Math.max(from, w.bedInMs);
  const b = Math.min(to, w.bedOutMs);
  if (b <= a) return 0;
  let out = b - a;
  for (const s of w.invalid) out -= Math.max(0, Math.min(b, s.to) - Math.max(a, s.from));
  return out;
}

/** Whether time t is analysed (inside [bedIn, bedOut), outside every invalid span). */
export function isValidAt(w: AnalysisWindow, t: number): boolean {
  if (t < w.bedInMs || t >= w.bedOutMs) return false;
  for (const s of w.invalid) if (t >= s.from && t < s.to) return false;
  return true;
}

/**
 * The index ranges [i0, i1) of a regular series (sample i at t0 + i / rate) that fall outside
 * the window: before bed-in, in each invalid span, from bed-out on.
 */
export function excludedIndexRanges(w: AnalysisWindow, t0: number, rate: number, length: number): Array<[number, number]> {
  const at = (t: number) => Math.min(length, Math.max(0, Math.ceil(((t - t0) * rate) / 1000)));
  const out: Array<[number, number]> = [[0, at(w.bedInMs)]];
  for (const s of w.invalid) out.push([at(s.from), at(s.to)]);
  out.push([at(w.bedOutMs), length]);
  return out.filter(([a, b]) => b > a);
}

/** A copy of the series with every sample outside the window missing (NaN). */
export function maskSeries(s: Series, w: AnalysisWindow): Series {
  const values = new Float32Array(s.values);
  for (const [a, b] of excludedIndexRanges(w, s.t0, s.rate, values.length)) values.fill(Number.NaN, a, b);
  return { values, rate: s.rate, t0: s.t0 };
}
