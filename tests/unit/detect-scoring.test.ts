import { describe, expect, it } from 'vitest';
import { analyseNight, detectRespiratoryEvents, type DetectedEvent, type Series } from '../../engine/detect';

const T0 = Date.UTC(2026, 0, 1, 22);
const TOTAL_S = 600;
const AT_S = 300;

/**
 * Breathing (15/min unless told) at `rate` Hz with a slow baseline drift, amplitude 1
 * scaled by `amp(t)`: like a CPAP flow or a cannula, at any sample rate.
 */
function breathing(amp: (t: number) => number, rate = 25, periodS = 4, totalS = TOTAL_S): Series {
  const v = new Float32Array(Math.round(totalS * rate));
  for (let i = 0; i < v.length; i++) {
    const t = i / rate;
    v[i] = amp(t) * Math.sin((2 * Math.PI * t) / periodS) + 0.2 * Math.sin((2 * Math.PI * t) / 300) + 0.01 * Math.sin(2 * Math.PI * 1.1 * t);
  }
  return { values: v, rate, t0: T0 };
}
const eventOf = (level: number, lengthS: number) => (t: number) => (t >= AT_S && t < AT_S + lengthS ? level : 1);
const desatAt = (s: number, drop = 4): DetectedEvent => ({ kind: 'desaturation', onsetMs: T0 + s * 1000, durationMs: 20_000, baseline: 96, nadir: 96 - drop });
const kinds = (e: DetectedEvent[]) => e.map((x) => x.kind);

describe('apneas on the AASM rule (≥ 90 % drop for ≥ 10 s)', () => {
  it('scores a 12-s apnea and measures its length on the signal', () => {
    const ev = detectRespiratoryEvents(breathing(eventOf(0.02, 12)));
    expect(kinds(ev)).toEqual(['apnea']);
    expect(Math.abs((ev[0].onsetMs - T0) / 1000 - AT_S)).toBeLessThanOrEqual(1.5);
    expect(Math.abs(ev[0].durationMs / 1000 - 12)).toBeLessThanOrEqual(1.5);
    expect(ev[0].apneaType).toBe('unclassified');
    expect(ev[0].reason).toMatchObject({ rule: 'AASM apnea ≥90 % ≥10 s' });
    expect(ev[0].reason!.dropPct).toBeGreaterThanOrEqual(90);
    expect(ev[0].reason!.durationS).toBeGreaterThanOrEqual(10);
  });

  it('leaves a 7-s pause alone (just under 10 s), and scores 11 s (just over)', () => {
    expect(detectRespiratoryEvents(breathing(eventOf(0, 7)), [], { flowOnlyHypopneas: true })).toEqual([]);
    expect(kinds(detectRespiratoryEvents(breathing(eventOf(0, 11))))).toEqual(['apnea']);
  });

  it('a stretch with 20 % of the breathing left is no apnea (80 % drop): a hypopnea at most', () => {
    const signal = breathing(eventOf(0.2, 16));
    expect(detectRespiratoryEvents(signal)).toEqual([]);
    expect(kinds(detectRespiratoryEvents(signal, [desatAt(320)]))).toEqual(['hypopnea']);
  });

  it('reads breathing right at 1, 10, 25, 100 and 256 Hz, and at 0.5 Hz for slow breathing', () => {
    for (const rate of [1, 10, 25, 100, 256]) {
      const ev = detectRespiratoryEvents(breathing(eventOf(0, 15), rate));
      expect(kinds(ev), `${rate} Hz`).toEqual(['apnea']);
      expect(Math.abs(ev[0].durationMs / 1000 - 15), `${rate} Hz`).toBeLessThanOrEqual(2.5);
      expect(detectRespiratoryEvents(breathing(() => 1, rate)), `${rate} Hz, calm`).toEqual([]);
    }
    // 0.5 Hz holds 4 samples of a 8-s breath: a 24-s pause is still seen.
    expect(kinds(detectRespiratoryEvents(breathing(eventOf(0, 24), 0.5, 8)))).toEqual(['apnea']);
  });
});

describe('hypopneas (≥ 30 % drop for ≥ 10 s with a desaturation)', () => {
  it('needs the drop: 40 % left (60 % drop) and 65 % left (35 % drop) score, 80 % left (20 % drop) does not', () => {
    for (const level of [0.4, 0.65]) {
      const ev = detectRespiratoryEvents(breathing(eventOf(level, 20)), [desatAt(330)], { desaturationRule: 3 });
      expect(kinds(ev), `level ${level}`).toEqual(['hypopnea']);
      expect(ev[0].flowOnly).toBeUndefined();
      expect(ev[0].reason).toMatchObject({ rule: 'AASM hypopnea ≥30 % ≥10 s + 3 % desaturation', desaturationPct: 4 });
      expect(ev[0].reason!.dropPct).toBeGreaterThanOrEqual(30);
    }
    expect(detectRespiratoryEvents(breathing(eventOf(0.8, 20)), [desatAt(330)])).toEqual([]);
  });

  it('needs the duration: 7 s of 50 % breathing is no hypopnea', () => {
    expect(detectRespiratoryEvents(breathing(eventOf(0.5, 7)), [desatAt(310)])).toEqual([]);
  });

  it('scores one long event once, even when a gap in the signal cuts its low stretch', () => {
    // 40 s at 15 % of the breathing with 4 s of missing samples 24 s in: one event, not a
    // second one (the part after the gap) lying inside the first.
    const signal = breathing((t) => (t >= AT_S && t < AT_S + 40 ? 0.15 : 1));
    for (let i = (AT_S + 24) * 25; i < (AT_S + 28) * 25; i++) signal.values[i] = Number.NaN;
    const ev = detectRespiratoryEvents(signal, [desatAt(330), desatAt(350)]);
    expect(ev).toHaveLength(1);
    // It runs on past the gap (which ends 28 s in).
    expect(ev[0].durationMs / 1000).toBeGreaterThan(30);
  });

  it('needs a desaturation starting from 5 s before the onset to 45 s after the end', () => {
    const signal = breathing(eventOf(0.5, 20));
    expect(detectRespiratoryEvents(signal)).toEqual([]);
    expect(detectRespiratoryEvents(signal, [desatAt(400)])).toEqual([]);
    expect(detectRespiratoryEvents(signal, [desatAt(280)])).toEqual([]);
    expect(kinds(detectRespiratoryEvents(signal, [desatAt(360)]))).toEqual(['hypopnea']);
    expect(detectRespiratoryEvents(signal, [desatAt(360, 4)], { desaturationRule: 4 })[0].reason!.rule).toContain('4 % desaturation');
  });

  it('gives a desaturation to the event it follows, once: a neighbour\'s desaturation confirms nothing before it', () => {
    // Two 50 % hypopneas 40 s apart; one desaturation, starting 12 s into the second (past the
    // 10-s circulation delay, and inside the first one's 45-s window): the second's.
    const two = (t: number) => ((t >= AT_S && t < AT_S + 15) || (t >= AT_S + 55 && t < AT_S + 70) ? 0.5 : 1);
    const ev = detectRespiratoryEvents(breathing(two), [desatAt(AT_S + 67)]);
    expect(kinds(ev)).toEqual(['hypopnea']);
    expect((ev[0].onsetMs - T0) / 1000).toBeGreaterThan(AT_S + 50);
    // With a desaturation after each, both are scored, each with its own.
    const both = detectRespiratoryEvents(breathing(two), [desatAt(AT_S + 20, 5), desatAt(AT_S + 67, 3)]);
    expect(both.map((e) => e.reason!.desaturationPct)).toEqual([5, 3]);
  });

  it('gives a desaturation starting within the circulation delay (10 s) of an event\'s onset to the event before (detector version 7)', () => {
    // The fall starts 3 s into the second event: too soon to be the second's, so the first's.
    const two = (t: number) => ((t >= AT_S && t < AT_S + 15) || (t >= AT_S + 55 && t < AT_S + 70) ? 0.5 : 1);
    const ev = detectRespiratoryEvents(breathing(two), [desatAt(AT_S + 58)]);
    expect(kinds(ev)).toEqual(['hypopnea']);
    expect((ev[0].onsetMs - T0) / 1000).toBeLessThan(AT_S + 5);
    // Without an event before to take it (outside the first one's 45-s window), the second keeps it.
    const late = (t: number) => ((t >= AT_S && t < AT_S + 15) || (t >= AT_S + 75 && t < AT_S + 90) ? 0.5 : 1);
    const one = detectRespiratoryEvents(breathing(late), [desatAt(AT_S + 78)]);
    expect(kinds(one)).toEqual(['hypopnea']);
    expect((one[0].onsetMs - T0) / 1000).toBeGreaterThan(AT_S + 70);
  });

  it('measures a hypopnea from breath boundary to breath boundary, not from the peaks of the breaths around it (detector version 7)', () => {
    // 12 s and 20 s at 35–60 % of the breathing, starting and ending at a breath boundary of the 4-s rhythm.
    for (const lengthS of [12, 20]) {
      for (const level of [0.4, 0.5, 0.65]) {
        const ev = detectRespiratoryEvents(breathing(eventOf(level, lengthS)), [desatAt(AT_S + lengthS + 5)]);
        expect(kinds(ev), `${lengthS} s at ${level}`).toEqual(['hypopnea']);
        expect(Math.abs((ev[0].onsetMs - T0) / 1000 - AT_S)).toBeLessThanOrEqual(0.5);
        expect(Math.abs(ev[0].durationMs / 1000 - lengthS)).toBeLessThanOrEqual(0.5);
      }
    }
  });
});

describe('one event pass (detector version 6)', () => {
  it('an unconfirmed hypopnea stays out of the baseline of the events after it', () => {
    // 70 s at 60 % with no desaturation (not scored), then 15 s at 45 % with one: against the
    // stable breathing before (1.0) that is a 55 % drop and scored; had the 60 % stretch
    // counted as baseline (median 0.6), it would be a 25 % drop and nothing.
    const amp = (t: number) => (t >= 150 && t < 220 ? 0.6 : t >= 240 && t < 255 ? 0.45 : 1);
    const ev = detectRespiratoryEvents(breathing(amp), [desatAt(260)]);
    expect(kinds(ev)).toEqual(['hypopnea']);
    expect((ev[0].onsetMs - T0) / 1000).toBeGreaterThan(230);
    expect(ev[0].reason!.dropPct).toBeGreaterThan(40);
  });
});

describe('flow-only hypopneas (no oximetry)', () => {
  it('are labelled flowOnly and need a ≥ 50 % drop (AASM 1999) for ≥ 10 s', () => {
    const deep = detectRespiratoryEvents(breathing(eventOf(0.35, 15)), [], { flowOnlyHypopneas: true });
    expect(kinds(deep)).toEqual(['hypopnea']);
    expect(deep[0].flowOnly).toBe(true);
    expect(deep[0].reason!.rule).toBe('flow-only hypopnea ≥50 % ≥10 s (no oximetry)');
    expect(deep[0].reason!.desaturationPct).toBeUndefined();
    // 40 % drop: enough with a desaturation, not on flow alone.
    expect(detectRespiratoryEvents(breathing(eventOf(0.6, 15)), [], { flowOnlyHypopneas: true })).toEqual([]);
  });

  it('are scored where the SpO2 channel has no data over the event, not where it has', () => {
    const signal = breathing(eventOf(0.3, 15));
    const spo2 = (missing: boolean): Series => ({ values: Float32Array.from({ length: TOTAL_S }, (_, t) => (missing && t > 250 && t < 400 ? Number.NaN : 96)), rate: 1, t0: T0 });
    expect(detectRespiratoryEvents(signal, [], { oximetry: spo2(false) })).toEqual([]);
    const ev = detectRespiratoryEvents(signal, [], { oximetry: spo2(true) });
    expect(kinds(ev)).toEqual(['hypopnea']);
    expect(ev[0].flowOnly).toBe(true);
  });

  it('analyseNight treats a present but all-missing SpO2 channel as no oximetry', () => {
    const flow = breathing(eventOf(0.3, 15));
    const spo2: Series = { values: new Float32Array(TOTAL_S).fill(Number.NaN), rate: 1, t0: T0 };
    const a = analyseNight({ startMs: T0, stopMs: T0 + TOTAL_S * 1000, channels: { NC_PSG: flow, SPO2_PSG: spo2 } });
    expect(a.breathingSource).toBe('NC_PSG');
    expect(a.respiratory.map((e) => [e.kind, e.flowOnly])).toEqual([['hypopnea', true]]);
  });
});

describe('apnea type from the effort belts', () => {
  const belt = (amp: (t: number) => number, sign = 1): Series => {
    const s = breathing(amp);
    for (let i = 0; i < s.values.length; i++) s.values[i] *= sign;
    return s;
  };
  const flow = breathing(eventOf(0, 20));
  it('continued effort is obstructive, absent effort central, effort coming back mixed', () => {
    const type = (thorax: Series, abdomen: Series) => detectRespiratoryEvents(flow, [], { thorax, abdomen })[0]?.apneaType;
    expect(type(belt(() => 1), belt(() => 0.9, -1))).toBe('obstructive');
    expect(type(belt(eventOf(0.02, 20)), belt(eventOf(0.02, 20)))).toBe('central');
    const late = (t: number) => (t >= AT_S && t < AT_S + 11 ? 0.02 : 1);
    expect(type(belt(late), belt(late))).toBe('mixed');
    expect(detectRespiratoryEvents(flow)[0].apneaType).toBe('unclassified');
  });
});

describe('indices without sleep staging', () => {
  it('AHI and ODI are per hour of monitoring (REI), never null when events and time exist', () => {
    const totalS = 3600;
    const flow = breathing((t) => (t % 600 >= 300 && t % 600 < 315 ? 0 : 1), 25, 4, totalS);
    const a = analyseNight({ startMs: T0, stopMs: T0 + totalS * 1000, channels: { NC_PSG: flow } });
    expect(a.sleep.tstS).toBe(0);
    expect(a.kpis.indexBasis).toBe('monitoring');
    expect(a.kpis.monitoringH).toBeCloseTo(1, 2);
    expect(a.kpis.apneas).toBe(6);
    expect(a.kpis.ahi).toBeCloseTo(6, 1);
    // No oximetry: no desaturation can be counted, so no ODI (shown "–"), not an ODI of 0.
    expect(a.kpis.odi).toBeNull();
  });

  it('with sleep staging, AHI stays per hour of sleep', () => {
    const totalS = 3600;
    const flow = breathing((t) => (t % 600 >= 300 && t % 600 < 315 ? 0 : 1), 25, 4, totalS);
    // Half an hour asleep (stage 2), half awake (5), in 30-s epochs.
    const stages: Series = { values: Float32Array.from({ length: totalS / 30 }, (_, e) => (e < 60 ? 2 : 5)), rate: 1 / 30, t0: T0 };
    const a = analyseNight({ startMs: T0, stopMs: T0 + totalS * 1000, channels: { NC_PSG: flow, SLP_STGS: stages } });
    expect(a.kpis.indexBasis).toBe('sleep');
    expect(a.kpis.tstH).toBe(0.5);
    // Six apneas, three in each half: those during scored wake are not counted (AASM), 3 / 0.5 h.
    expect(a.respiratory.every((e) => e.onsetMs < T0 + 1_800_000)).toBe(true);
    expect(a.kpis.apneas + a.kpis.hypopneas).toBe(3);
    expect(a.kpis.ahi).toBeCloseTo(6, 1);
    expect(a.kpis.ahiHoursH).toBe(0.5);
  });

  // Decision 1033: an index is per hour of the sleep its own signal was recorded in.
  const hourNight = (flowFromS: number, flowToS: number, spo2ToS?: number) => {
    const totalS = 3600;
    const flow = breathing((t) => (t % 600 >= 300 && t % 600 < 315 ? 0 : 1), 25, 4, totalS);
    for (let i = 0; i < flow.values.length; i++) if (i / 25 < flowFromS || i / 25 >= flowToS) flow.values[i] = Number.NaN;
    // Asleep the whole hour.
    const stages: Series = { values: new Float32Array(totalS / 30).fill(2), rate: 1 / 30, t0: T0 };
    const channels: Parameters<typeof analyseNight>[0]['channels'] = { NC_PSG: flow, SLP_STGS: stages };
    if (spo2ToS !== undefined) channels.SPO2 = { values: Float32Array.from({ length: totalS }, (_, t) => (t < spo2ToS ? 96 : Number.NaN)), rate: 1, t0: T0 };
    return analyseNight({ startMs: T0, stopMs: T0 + totalS * 1000, channels, riiDivisor: 'TST' });
  };

  it('a cannula that fell off halfway through the sleep: AHI per hour of the sleep it recorded, not of all of it', () => {
    const a = hourNight(0, 1800, 2700);
    expect(a.kpis.tstH).toBe(1);
    expect(a.kpis.ahiHoursH).toBe(0.5);
    // Three apneas in the half hour with flow: 6 per hour, not 3.
    expect(a.kpis.apneas + a.kpis.hypopneas).toBe(3);
    expect(a.kpis.ahi).toBeCloseTo(6, 1);
    expect(a.kpis.rii).toBeCloseTo(6, 1);
    expect(a.kpis.ahiBasis).toBe('breathing_signal');
    // The oximeter came off at 45 min: ODI per 0.75 h of sleep with SpO2.
    expect(a.kpis.odiHoursH).toBe(0.75);
    expect(a.kpis.odi).toBe(0);
  });

  it('a breathing signal recorded only while awake gives no AHI (null, with the reason), not 0', () => {
    // Awake for the first 10 min (flow then), asleep after it, without flow.
    const totalS = 3600;
    const flow = breathing(() => 1, 25, 4, totalS);
    for (let i = 600 * 25; i < flow.values.length; i++) flow.values[i] = Number.NaN;
    const stages: Series = { values: Float32Array.from({ length: totalS / 30 }, (_, e) => (e < 20 ? 5 : 2)), rate: 1 / 30, t0: T0 };
    const a = analyseNight({ startMs: T0, stopMs: T0 + totalS * 1000, channels: { NC_PSG: flow, SLP_STGS: stages }, riiDivisor: 'TST' });
    expect(a.kpis.tstH).toBeCloseTo(50 / 60, 6);
    expect(a.kpis.ahiHoursH).toBe(0);
    expect(a.kpis.ahi).toBeNull();
    expect(a.kpis.rii).toBeNull();
    expect(a.kpis.ahiBasis).toBe('no_breathing_signal_in_sleep');
    // Over bed time too: the RII counts AHI's events, scored during sleep, and no sleep had a
    // breathing signal, so a 0 would say "no irregularity" of a night where none could be seen.
    const tbt = analyseNight({ startMs: T0, stopMs: T0 + totalS * 1000, channels: { NC_PSG: flow, SLP_STGS: stages }, riiDivisor: 'TBT' });
    expect(tbt.kpis.tbtH).toBeGreaterThan(0);
    expect(tbt.kpis.rii).toBeNull();
  });

  it('counts only the events whose middle lies in sleep: not in wake, out of bed or an unscored epoch (radar SA too)', () => {
    const totalS = 3600;
    // An apnea at 300 s of every 10 minutes: six in the hour.
    const flow = breathing((t) => (t % 600 >= 300 && t % 600 < 315 ? 0 : 1), 25, 4, totalS);
    // Epochs: 0–19 sleep, 20–39 unscored (NaN), 40–59 out of bed (TB 0), 60–119 sleep.
    const stageCodes = Float32Array.from({ length: totalS / 30 }, (_, e) => (e >= 20 && e < 40 ? Number.NaN : 2));
    const tb: Series = { values: Float32Array.from({ length: totalS / 30 }, (_, e) => (e >= 40 && e < 60 ? 0 : 1)), rate: 1 / 30, t0: T0 };
    const staged = analyseNight({ startMs: T0, stopMs: T0 + totalS * 1000, channels: { NC_PSG: flow, SLP_STGS: { values: stageCodes, rate: 1 / 30, t0: T0 }, TB: tb } });
    // Sleep: 20 + 60 epochs = 40 min; apneas at 5, 15 (unscored), 25 (out of bed), 35, 45, 55 min: four in sleep.
    expect(staged.kpis.tstH).toBeCloseTo(40 / 60, 6);
    expect(staged.respiratory.map((e) => Math.floor((e.onsetMs - T0) / 600_000))).toEqual([0, 3, 4, 5]);
    expect(staged.kpis.ahi).toBeCloseTo(4 / (40 / 60), 1);
    // The radar's sleep/awake (SA), without staging: awake from 10 to 30 min.
    const sa: Series = { values: Float32Array.from({ length: totalS / 30 }, (_, e) => (e >= 20 && e < 60 ? 0 : 1)), rate: 1 / 30, t0: T0 };
    const radar = analyseNight({ startMs: T0, stopMs: T0 + totalS * 1000, channels: { NC_PSG: flow, SA: sa } });
    expect(radar.respiratory).toHaveLength(4);
    expect(radar.kpis.ahi).toBeCloseTo(6, 1);
  });

  it('the basis of a night whose signals cover all of its sleep is unchanged', () => {
    const a = hourNight(0, 3600, 3600);
    expect(a.kpis.ahiHoursH).toBe(1);
    expect(a.kpis.odiHoursH).toBe(1);
    expect(a.kpis.ahi).toBeCloseTo(6, 1);
  });
});
