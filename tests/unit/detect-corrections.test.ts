import { describe, expect, it } from 'vitest';
import { analyseNight, analysisWindow, excludedIndexRanges, isValidAt, maskSeries, sleepMetrics, validMsBetween, type Series } from '../../engine/detect';
import { windowOf } from '../../server/analytics/corrections';
import { clockToMs, excludedSpans } from '../../src/features/night/corrections';

const T0 = Date.UTC(2026, 0, 1, 22);
const EPOCH = 30_000;
const MIN = 60_000;
const epochs = (codes: number[]): Series => ({ values: Float32Array.from(codes), rate: 1 / 30, t0: T0 });

describe('the analysis window of a corrected night', () => {
  it('clamps bed times to the recording, clips, sorts and merges invalid spans', () => {
    const w = analysisWindow(T0, T0 + 60 * MIN, { inMs: T0 - MIN, outMs: T0 + 50 * MIN }, [
      { from: T0 + 40 * MIN, to: T0 + 55 * MIN },
      { from: T0 + 10 * MIN, to: T0 + 20 * MIN },
      { from: T0 + 15 * MIN, to: T0 + 25 * MIN },
    ]);
    expect(w).toEqual({ bedInMs: T0, bedOutMs: T0 + 50 * MIN, bedTimesCorrected: true, invalid: [{ from: T0 + 10 * MIN, to: T0 + 25 * MIN }, { from: T0 + 40 * MIN, to: T0 + 50 * MIN }] });
    expect(validMsBetween(w, T0, T0 + 60 * MIN)).toBe(25 * MIN);
    expect(isValidAt(w, T0 + 5 * MIN)).toBe(true);
    expect(isValidAt(w, T0 + 12 * MIN)).toBe(false);
    expect(isValidAt(w, T0 + 50 * MIN)).toBe(false);
  });

  it('masks the samples outside it in a copy, never in the series given', () => {
    const s: Series = { values: new Float32Array(60).fill(1), rate: 1 / 60, t0: T0 };
    const w = analysisWindow(T0, T0 + 60 * MIN, { inMs: T0 + 5 * MIN, outMs: T0 + 50 * MIN }, [{ from: T0 + 10 * MIN, to: T0 + 20 * MIN }]);
    expect(excludedIndexRanges(w, s.t0, s.rate, 60)).toEqual([[0, 5], [10, 20], [50, 60]]);
    const m = maskSeries(s, w);
    expect(Array.from(m.values).filter(Number.isFinite).length).toBe(35);
    expect(Array.from(s.values).every((v) => v === 1)).toBe(true);
  });

  it('sleep metrics leave invalid epochs out of TST and bed time; corrected bed times are the bed times', () => {
    const stages = epochs(Array(20).fill(2));
    const tb = epochs([0, 0, ...Array(18).fill(1)]);
    const plain = sleepMetrics({ startMs: T0, stopMs: T0 + 20 * EPOCH, stages, tb });
    expect(plain.tstS).toBe(18 * 30);
    const cut = sleepMetrics({ startMs: T0, stopMs: T0 + 20 * EPOCH, stages, tb, excluded: [{ from: T0 + 4 * EPOCH, to: T0 + 8 * EPOCH }] });
    expect(cut.tstS).toBe(14 * 30);
    expect(cut.tbtH).toBeCloseTo((16 * 30) / 3600, 10);
    expect(cut.bedInMs).toBe(T0 + 2 * EPOCH);
    const fixed = sleepMetrics({ startMs: T0 + EPOCH, stopMs: T0 + 10 * EPOCH, stages, tb, fixedBedTimes: true });
    expect(fixed.bedInMs).toBe(T0 + EPOCH);
    expect(fixed.bedOutMs).toBe(T0 + 10 * EPOCH);
  });

  it('analyseNight over a window: TST and TBT follow it, the night object carries it', () => {
    const stages = epochs(Array(120).fill(2));
    const input = { startMs: T0, stopMs: T0 + 120 * EPOCH, channels: { SLP_STGS: stages } };
    const whole = analyseNight(input);
    const window = analysisWindow(T0, T0 + 120 * EPOCH, null, [{ from: T0 + 30 * EPOCH, to: T0 + 60 * EPOCH }]);
    const part = analyseNight({ ...input, window });
    expect(whole.kpis.tstH).toBe(1);
    expect(part.kpis.tstH).toBe(0.75);
    expect(part.kpis.tbtH).toBe(0.75);
    expect(part.window).toEqual(window);
    expect(whole.window).toBeUndefined();
    expect(Array.from(stages.values).every((v) => v === 2)).toBe(true);
  });

  it('the active corrections: the newest bed times not undone, every invalid span not undone', () => {
    const rec = { start_ms: T0, stop_ms: T0 + 60 * MIN };
    const c = (kind: 'bed_times' | 'invalid_span', a: number, b: number, undone = false) => ({ kind, start_ms: T0 + a * MIN, end_ms: T0 + b * MIN, undone_at: undone ? '2026-01-02T00:00:00Z' : null });
    expect(windowOf(rec, [])).toBeNull();
    expect(windowOf(rec, [c('invalid_span', 1, 2, true)])).toBeNull();
    const w = windowOf(rec, [c('bed_times', 5, 55), c('bed_times', 10, 50), c('bed_times', 20, 30, true), c('invalid_span', 15, 16), c('invalid_span', 17, 18, true)]);
    expect(w).toMatchObject({ bedInMs: T0 + 10 * MIN, bedOutMs: T0 + 50 * MIN, invalid: [{ from: T0 + 15 * MIN, to: T0 + 16 * MIN }] });
  });
});

describe('the corrections panel', () => {
  const start = Date.UTC(2026, 2, 9, 21, 30); // 22:30 in Zurich
  const stop = Date.UTC(2026, 2, 10, 5, 45); // 06:45
  it('reads a clock time as the instant within the night (either date)', () => {
    expect(clockToMs('23:00', 'Europe/Zurich', start, stop)).toBe(Date.UTC(2026, 2, 9, 22, 0));
    expect(clockToMs('02:15:30', 'Europe/Zurich', start, stop)).toBe(Date.UTC(2026, 2, 10, 1, 15, 30));
    expect(clockToMs('12:00', 'Europe/Zurich', start, stop)).toBeNull();
    expect(clockToMs('25:00', 'Europe/Zurich', start, stop)).toBeNull();
    expect(clockToMs('soon', 'Europe/Zurich', start, stop)).toBeNull();
  });

  it('shades before bed-in, the invalid spans and after bed-out', () => {
    const data = { recording_start_time: start, recording_stop_time: stop, corrected: true, window: { bed_in_time: start + MIN, bed_out_time: stop, bed_times_corrected: true, invalid_spans: [{ start_ms: start + 10 * MIN, end_ms: start + 20 * MIN }] } };
    expect(excludedSpans(data as never)).toEqual([{ startMs: start, endMs: start + MIN }, { startMs: start + 10 * MIN, endMs: start + 20 * MIN }]);
    expect(excludedSpans({ ...data, corrected: false } as never)).toEqual([]);
    // A PSG night's lights markers bound its analysis as bed times would: before and after them shaded.
    const lights = { ...data, corrected: false, window: { bed_in_time: start + 2 * MIN, bed_out_time: stop - MIN, bed_times_corrected: false, bed_times_from: 'lights', invalid_spans: [] } };
    expect(excludedSpans(lights as never)).toEqual([{ startMs: start, endMs: start + 2 * MIN }, { startMs: stop - MIN, endMs: stop }]);
  });
});
