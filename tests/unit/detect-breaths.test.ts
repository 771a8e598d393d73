import { describe, expect, it } from 'vitest';
import { detectRespiratoryEvents, type DetectedEvent, type Series } from '../../engine/detect';

const T0 = Date.UTC(2026, 0, 1, 22);
const RATE = 25;
const PERIOD_S = 4;
const AT_S = 300;

/** 15 breaths/min with slow drift; `wave` 'flow' starts each breath at inspiration (sin), 'volume' at the volume minimum (−cos). */
function breathing(amp: (t: number) => number, wave: 'flow' | 'volume' = 'flow'): Series {
  const v = new Float32Array(600 * RATE);
  for (let i = 0; i < v.length; i++) {
    const t = i / RATE;
    const p = (2 * Math.PI * t) / PERIOD_S;
    v[i] = amp(t) * (wave === 'flow' ? Math.sin(p) : -Math.cos(p)) + 0.2 * Math.sin((2 * Math.PI * t) / 300) + 0.01 * Math.sin(2 * Math.PI * 1.1 * t);
  }
  return { values: v, rate: RATE, t0: T0 };
}
/** `breaths` whole breaths from AT_S at `level` of normal. */
const reducedBreaths = (level: number, breaths: number) => (t: number) => (t >= AT_S && t < AT_S + breaths * PERIOD_S ? level : 1);
const desat: DetectedEvent = { kind: 'desaturation', onsetMs: T0 + (AT_S + 20) * 1000, durationMs: 20_000, baseline: 96, nadir: 92 };
const byBreaths = { eventEdges: 'breaths' as const };

describe('event edges on whole breaths (eventEdges: breaths)', () => {
  it('measures a hypopnea from the start of its first reduced breath to the start of the first normal one', () => {
    const [ev, ...rest] = detectRespiratoryEvents(breathing(reducedBreaths(0.4, 3)), [desat], byBreaths);
    expect(rest).toEqual([]);
    expect(ev.kind).toBe('hypopnea');
    expect(Math.abs((ev.onsetMs - T0) / 1000 - AT_S)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(ev.durationMs / 1000 - 3 * PERIOD_S)).toBeLessThanOrEqual(0.5);
  });

  it('two reduced breaths (8 s) are under 10 s and no event; three (12 s) are one', () => {
    expect(detectRespiratoryEvents(breathing(reducedBreaths(0.4, 2)), [desat], byBreaths)).toEqual([]);
    expect(detectRespiratoryEvents(breathing(reducedBreaths(0.4, 3)), [desat], byBreaths)).toHaveLength(1);
  });

  it('cuts a volume signal (radar, belts) at its volume minima: the same apnea, the same length', () => {
    const ev = detectRespiratoryEvents(breathing(reducedBreaths(0.02, 3), 'volume'), [], { ...byBreaths, signal: 'volume' });
    expect(ev.map((e) => e.kind)).toEqual(['apnea']);
    // (This test wave's level steps from its minimum to the middle as the apnea starts: the
    // smoothed step reads as a last half-second of inspiration.)
    expect(Math.abs((ev[0].onsetMs - T0) / 1000 - AT_S)).toBeLessThanOrEqual(0.75);
    expect(Math.abs(ev[0].durationMs / 1000 - 3 * PERIOD_S)).toBeLessThanOrEqual(0.75);
  });

  it('a lone missing sample inside an apnea does not cut it; a long gap leaves only what is seen', () => {
    const lone = breathing(reducedBreaths(0.02, 3));
    lone.values[(AT_S + 6) * RATE] = Number.NaN;
    const ev = detectRespiratoryEvents(lone, [], byBreaths);
    expect(ev).toHaveLength(1);
    expect(Math.abs(ev[0].durationMs / 1000 - 3 * PERIOD_S)).toBeLessThanOrEqual(0.5);
    const cut = breathing(reducedBreaths(0.02, 3));
    cut.values.fill(Number.NaN, (AT_S + 4) * RATE, (AT_S + 8) * RATE);
    expect(detectRespiratoryEvents(cut, [], byBreaths)).toEqual([]);
  });
});

describe('hybrid event edges (eventEdges: hybrid): the signal\'s edges moved to breath boundaries', () => {
  const hybrid = { eventEdges: 'hybrid' as const };
  it('measures a hypopnea from the start of its first reduced breath to the start of the first normal one', () => {
    const [ev, ...rest] = detectRespiratoryEvents(breathing(reducedBreaths(0.4, 3)), [desat], hybrid);
    expect(rest).toEqual([]);
    expect(ev.kind).toBe('hypopnea');
    expect(Math.abs((ev.onsetMs - T0) / 1000 - AT_S)).toBeLessThanOrEqual(0.5);
    expect(Math.abs(ev.durationMs / 1000 - 3 * PERIOD_S)).toBeLessThanOrEqual(0.5);
  });

  it('two reduced breaths (8 s) are under 10 s and no event; three (12 s) are one; the same for flow-only hypopneas and apneas', () => {
    expect(detectRespiratoryEvents(breathing(reducedBreaths(0.4, 2)), [desat], hybrid)).toEqual([]);
    expect(detectRespiratoryEvents(breathing(reducedBreaths(0.4, 3)), [desat], hybrid)).toHaveLength(1);
    expect(detectRespiratoryEvents(breathing(reducedBreaths(0.3, 2)), [], { ...hybrid, flowOnlyHypopneas: true })).toEqual([]);
    expect(detectRespiratoryEvents(breathing(reducedBreaths(0.3, 3)), [], { ...hybrid, flowOnlyHypopneas: true }).map((e) => e.flowOnly)).toEqual([true]);
    expect(detectRespiratoryEvents(breathing(reducedBreaths(0.02, 2)), [], hybrid)).toEqual([]);
    expect(detectRespiratoryEvents(breathing(reducedBreaths(0.02, 3)), [], hybrid).map((e) => e.kind)).toEqual(['apnea']);
  });

  it('cuts a volume signal (radar, belts) at its volume minima', () => {
    const ev = detectRespiratoryEvents(breathing(reducedBreaths(0.4, 3), 'volume'), [desat], { ...hybrid, signal: 'volume' });
    expect(ev.map((e) => e.kind)).toEqual(['hypopnea']);
    expect(Math.abs((ev[0].onsetMs - T0) / 1000 - AT_S)).toBeLessThanOrEqual(0.75);
    expect(Math.abs(ev[0].durationMs / 1000 - 3 * PERIOD_S)).toBeLessThanOrEqual(0.75);
  });
});
