import { describe, expect, it } from 'vitest';
import { detectDesaturations, detectRespiratoryEvents, toSeries, type Series } from '../../engine/detect';

const T0 = Date.UTC(2026, 0, 1, 22);
const series = (values: number[], rate: number): Series => ({ values: Float32Array.from(values), rate, t0: T0 });

/** SpO2 at 1 Hz: flat baseline with one drop (fall, hold, recovery), times in s. */
function spo2WithDrop(base: number, drop: number, at: number, fallS: number, holdS: number, riseS: number, total = 600): number[] {
  const v: number[] = [];
  for (let t = 0; t < total; t++) {
    let x = base;
    if (t >= at && t < at + fallS) x = base - (drop * (t - at + 1)) / fallS;
    else if (t >= at + fallS && t < at + fallS + holdS) x = base - drop;
    else if (t >= at + fallS + holdS && t < at + fallS + holdS + riseS) x = base - drop + (drop * (t - at - fallS - holdS + 1)) / riseS;
    v.push(Math.round(x * 10) / 10);
  }
  return v;
}

describe('desaturations', () => {
  it('finds a 4-point drop lasting longer than 10 s, from the start of the fall', () => {
    const ev = detectDesaturations(series(spo2WithDrop(96, 4, 300, 10, 5, 10), 1));
    expect(ev).toHaveLength(1);
    expect((ev[0].onsetMs - T0) / 1000).toBeGreaterThanOrEqual(300);
    expect((ev[0].onsetMs - T0) / 1000).toBeLessThanOrEqual(303);
    expect(ev[0].durationMs / 1000).toBeGreaterThanOrEqual(15);
    expect(ev[0]).toMatchObject({ baseline: 96, nadir: 92 });
  });

  it('needs the chosen drop: 3.5 points is an event under the 3% rule, not under 4%', () => {
    const v = spo2WithDrop(96, 3.5, 300, 8, 6, 8);
    expect(detectDesaturations(series(v, 1), { dropPct: 3 })).toHaveLength(1);
    expect(detectDesaturations(series(v, 1), { dropPct: 4 })).toHaveLength(0);
  });

  it('ignores drops of 2 points, drops shorter than 10 s, and missing data', () => {
    expect(detectDesaturations(series(spo2WithDrop(96, 2, 300, 10, 10, 10), 1))).toHaveLength(0);
    expect(detectDesaturations(series(spo2WithDrop(96, 5, 300, 1, 3, 1), 1))).toHaveLength(0);
    const stored = Float32Array.from(spo2WithDrop(96, 0, 0, 1, 1, 1).map((v, t) => (t >= 300 && t < 330 ? -1 : v)));
    expect(detectDesaturations(toSeries('SPO2', stored, 1, T0))).toHaveLength(0);
  });

  it('does not count samples of bad signal quality', () => {
    const sqb = series(Array.from({ length: 600 }, (_, t) => (t >= 290 && t < 340 ? 0 : 1)), 1);
    expect(detectDesaturations(series(spo2WithDrop(96, 5, 300, 10, 5, 10), 1), {}, sqb)).toHaveLength(0);
  });
});

/** Breathing at 20 Hz, 15/min, amplitude 1, scaled by `amp(t)` (t in s). */
function breathing(amp: (t: number) => number, totalS = 600): Series {
  const rate = 20;
  const v = new Float32Array(totalS * rate);
  for (let i = 0; i < v.length; i++) v[i] = amp(i / rate) * Math.sin((2 * Math.PI * 0.25 * i) / rate) + 5;
  return { values: v, rate, t0: T0 };
}

describe('apneas and hypopneas', () => {
  it('an amplitude down by 95% for 15 s is an apnea', () => {
    const ev = detectRespiratoryEvents(breathing((t) => (t >= 300 && t < 315 ? 0.05 : 1)));
    expect(ev.map((e) => e.kind)).toEqual(['apnea']);
    expect(Math.abs((ev[0].onsetMs - T0) / 1000 - 300)).toBeLessThanOrEqual(3);
    expect(Math.abs(ev[0].durationMs / 1000 - 15)).toBeLessThanOrEqual(3);
  });

  it('a 50% reduction for 20 s is a hypopnea only with a desaturation after it', () => {
    const signal = breathing((t) => (t >= 300 && t < 320 ? 0.5 : 1));
    expect(detectRespiratoryEvents(signal)).toEqual([]);
    const desat = [{ kind: 'desaturation' as const, onsetMs: T0 + 330_000, durationMs: 20_000 }];
    expect(detectRespiratoryEvents(signal, desat).map((e) => e.kind)).toEqual(['hypopnea']);
    const unrelated = [{ kind: 'desaturation' as const, onsetMs: T0 + 500_000, durationMs: 20_000 }];
    expect(detectRespiratoryEvents(signal, unrelated)).toEqual([]);
    expect(detectRespiratoryEvents(signal, [], { flowOnlyHypopneas: true }).map((e) => e.kind)).toEqual(['hypopnea']);
  });

  it('ignores pauses shorter than 10 s, reductions under 30%, and bad signal', () => {
    expect(detectRespiratoryEvents(breathing((t) => (t >= 300 && t < 306 ? 0 : 1)))).toEqual([]);
    expect(detectRespiratoryEvents(breathing((t) => (t >= 300 && t < 330 ? 0.8 : 1)), [], { flowOnlyHypopneas: true })).toEqual([]);
    const sqb = series(Array.from({ length: 600 }, (_, t) => (t >= 295 && t < 325 ? 0 : 1)), 1);
    expect(detectRespiratoryEvents(breathing((t) => (t >= 300 && t < 315 ? 0 : 1)), [], {}, sqb)).toEqual([]);
  });
});
