import { describe, expect, it } from 'vitest';
import { monitoringHours } from '../../engine/detect/kpis';
import { formatHours } from '../../engine/duration';
import { customizedIndex, nightKpis, sleepMetrics, type DetectedEvent, type Series } from '../../engine/detect';

const T0 = Date.UTC(2026, 0, 1, 22);
const EPOCH = 30_000;
const epochs = (codes: number[]): Series => ({ values: Float32Array.from(codes), rate: 1 / 30, t0: T0 });

describe('sleep metrics (hand-computed)', () => {
  // 20 epochs (10 min): out of bed 2, awake in bed 4, sleep 6, awake 2, sleep 4, awake 2.
  const tb = epochs([0, 0, ...Array(18).fill(1)]);
  const stages = epochs([5, 5, 5, 5, 5, 5, 2, 2, 1, 1, 4, 4, 5, 5, 2, 2, 2, 4, 5, 5]);
  const m = sleepMetrics({ startMs: T0, stopMs: T0 + 20 * EPOCH, stages, tb });

  it('TST, TBT, SOL, WASO and sleep efficiency', () => {
    expect(m.tstS).toBe(10 * 30);
    expect(m.tbtH).toBeCloseTo(10 / 60, 10);
    expect(m.bedInMs).toBe(T0 + 2 * EPOCH);
    expect(m.bedOutMs).toBe(T0 + 20 * EPOCH);
    expect(m.solS).toBe(4 * 30);
    expect(m.sleepOnsetMs).toBe(T0 + 6 * EPOCH);
    expect(m.finalWakeMs).toBe(T0 + 18 * EPOCH);
    expect(m.wasoS).toBe(2 * 30);
    expect(m.sleepEfficiency).toBe(50);
  });

  it('actigraph bands', () => {
    expect(m.sleepBands).toEqual([
      { from: T0 + 6 * EPOCH, to: T0 + 12 * EPOCH },
      { from: T0 + 14 * EPOCH, to: T0 + 18 * EPOCH },
    ]);
    expect(m.awakeBands[0]).toEqual({ from: T0, to: T0 + 6 * EPOCH });
    expect(m.undefinedBands).toEqual([]);
  });

  it('without an in-bed signal, bed-in and bed-out are the recording\'s start and stop to the second', () => {
    // A CPAP night stopping 32 s into its last epoch: bed-out is the stop, not the last whole epoch's end.
    const stop = T0 + 10 * EPOCH + 32_000;
    const s = sleepMetrics({ startMs: T0, stopMs: stop });
    expect([s.bedInMs, s.bedOutMs]).toEqual([T0, stop]);
    // With one, bed-out is the end of the last epoch in bed.
    const withTb = sleepMetrics({ startMs: T0, stopMs: stop, tb: epochs([1, 1, 1, 1, 1, 1, 1, 1, 0, 0]) });
    expect(withTb.bedOutMs).toBe(T0 + 8 * EPOCH);
  });

  it('falls back to SA and marks missing epochs undefined', () => {
    const sa = epochs([0, 1, 1, Number.NaN, 1, 0]);
    const s = sleepMetrics({ startMs: T0, stopMs: T0 + 6 * EPOCH, sa });
    expect(s.tstS).toBe(90);
    expect(s.undefinedBands).toEqual([{ from: T0 + 3 * EPOCH, to: T0 + 4 * EPOCH }]);
  });
});

describe('indices (hand-computed)', () => {
  const ev = (kind: DetectedEvent['kind'], n: number) => Array.from({ length: n }, (_, i) => ({ kind, onsetMs: T0 + i * 60_000, durationMs: 15_000 }));
  const sleep = { tstS: 5 * 3600, tbtH: 8 } as Parameters<typeof nightKpis>[0]['sleep'];
  const sqb: Series = { values: Float32Array.from({ length: 6 * 3600 }, (_, i) => (i < 4 * 3600 ? 1 : 0)), rate: 1, t0: T0 };
  const br: Series = { values: Float32Array.from({ length: 7 * 3600 }, (_, i) => (i % 2 ? 14 : Number.NaN)), rate: 1, t0: T0 };

  it('AHI and ODI per hour of sleep; RII per hour of the chosen divisor', () => {
    const events = [...ev('apnea', 12), ...ev('hypopnea', 8), ...ev('desaturation', 15)];
    const k = nightKpis({ events, sleep, sqb, br, divisor: 'TBT' });
    expect(k).toMatchObject({ apneas: 12, hypopneas: 8, desaturations: 15, ahi: 4, odi: 3, rii: 2.5, gsdH: 4, quality: true, tbrH: 3.5, tstH: 5, tbtH: 8 });
    // Without a quality channel the good-signal hours are not known: flagged, not a figure of 0.
    expect(nightKpis({ events, sleep, br, divisor: 'TBT' })).toMatchObject({ quality: false, gsdH: 0 });
    expect(nightKpis({ events, sleep, sqb, br, divisor: 'GSD' }).rii).toBe(5);
    expect(nightKpis({ events, sleep, sqb, br, divisor: 'TST' }).rii).toBe(4);
    expect(nightKpis({ events, sleep, sqb, br, divisor: 'TBR' }).rii).toBe(5.71);
    expect(nightKpis({ events, sleep: { ...sleep, tstS: 0 } }).ahi).toBeNull();
  });

  it('keeps durations to the second, as h:mm:ss shows them', () => {
    // A 7:33:20 bed time, 5:20:43 of breathing signal (every other second valid) and 5:26:30 of sleep.
    const odd: Series = { values: Float32Array.from({ length: 2 * 19_243 }, (_, i) => (i % 2 ? 14 : Number.NaN)), rate: 1, t0: T0 };
    const k = nightKpis({ events: [], sleep: { tstS: 653 * 30, tbtH: 27_200 / 3600 } as typeof sleep, br: odd, divisor: 'TBT', monitoringH: monitoringHours(odd, undefined) });
    expect(formatHours(k.tbtH)).toBe('7:33:20');
    expect(formatHours(k.tbrH)).toBe('5:20:43');
    expect(formatHours(k.monitoringH)).toBe('5:20:43');
    expect(formatHours(k.tstH)).toBe('5:26:30');
  });

  it('customized index counts annotations by label', () => {
    expect(customizedIndex(['Apnea', 'Apnea', 'Movement', 'Snoring', 'Central Apnea'])).toEqual({
      Apnea: 2, Hypoapnea: 0, Movement: 1, 'Central Apnea': 1, 'Obstructive Apnea': 0, Irregularities: 0,
    });
  });
});
