// Night architecture: ~90-minute cycles, out-of-bed periods, and the device's missing codes.
import { beforeAll, describe, expect, it } from 'vitest';
import type { ChannelData } from '../../server/recordings/model';
import { simulateNight, type CycleTruth, type SimulatedNight } from '../../server/simulator/index';

const START = Date.UTC(2026, 2, 10, 21, 45);
const HOUR = 3_600_000;
const EPOCH_MS = 30_000;
const VITALS = ['BR', 'BRV', 'HR', 'HRV', 'MOV', 'SPO2', 'PR'];

const channel = (night: SimulatedNight, code: string): ChannelData => night.channels.find((c) => c.code === code)!;

/** REM periods: runs of REM epochs, merged when less than 10 min apart; as [first, last] epoch. */
function remPeriods(stages: ArrayLike<number>): Array<[number, number]> {
  const periods: Array<[number, number]> = [];
  for (let e = 0; e < stages.length; e++) {
    if (stages[e] !== 4) continue;
    const last = periods[periods.length - 1];
    if (last && e - last[1] <= 20) last[1] = e;
    else periods.push([e, e]);
  }
  return periods;
}

/** Runs of one value in a channel, as [start index, length]. */
function runsOf(samples: ArrayLike<number>, value: number): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  for (let i = 0; i < samples.length; i++) {
    if (samples[i] !== value) continue;
    const last = runs[runs.length - 1];
    if (last && last[0] + last[1] === i) last[1]++;
    else runs.push([i, 1]);
  }
  return runs;
}

let nights: SimulatedNight[];
let away: SimulatedNight;
beforeAll(() => {
  nights = ['cycles-a', 'cycles-b', 'cycles-c', 'cycles-d'].map((seed) =>
    simulateNight({ seed, startMs: START, durationMs: 8 * HOUR, profile: 'mild_osa' }));
  away = simulateNight({ seed: 'away', startMs: START, durationMs: 7 * HOUR, profile: { outOfBedPerNight: 3 } });
});

describe('simulated sleep architecture', () => {
  it('has 4–6 REM periods in 8 h, about 90 minutes apart', () => {
    const gaps: number[] = [];
    for (const night of nights) {
      const periods = remPeriods(channel(night, 'SLP_STGS').samples);
      expect(periods.length).toBeGreaterThanOrEqual(4);
      expect(periods.length).toBeLessThanOrEqual(6);
      for (let i = 1; i < periods.length; i++) gaps.push(((periods[i]![0] - periods[i - 1]![0]) * EPOCH_MS) / 60_000);
    }
    const mean = gaps.reduce((s, x) => s + x, 0) / gaps.length;
    expect(mean).toBeGreaterThan(75);
    expect(mean).toBeLessThan(110);
  });

  it('lists 80–100 minute cycles in the truth, 4–6 of them in 8 h', () => {
    for (const night of nights) {
      const cycles = night.truth.filter((t): t is CycleTruth => t.kind === 'sleep_cycle');
      expect(cycles.length).toBeGreaterThanOrEqual(4);
      expect(cycles.length).toBeLessThanOrEqual(6);
      const full = cycles.slice(0, -1).map((c) => c.durationMs / 60_000);
      const mean = full.reduce((s, x) => s + x, 0) / full.length;
      expect(mean).toBeGreaterThan(80);
      expect(mean).toBeLessThan(100);
      expect(cycles.map((c) => c.cycle)).toEqual(cycles.map((_, i) => i + 1));
    }
  });

  it('has more deep sleep early and more REM late, a sleep onset latency and a final awakening', () => {
    for (const night of nights) {
      const stages = channel(night, 'SLP_STGS').samples;
      const third = Math.floor(stages.length / 3);
      const share = (code: number, from: number, to: number): number => {
        let n = 0;
        for (let e = from; e < to; e++) if (stages[e] === code) n++;
        return n / (to - from);
      };
      expect(share(1, 0, third)).toBeGreaterThan(share(1, 2 * third, stages.length));
      expect(share(4, 2 * third, stages.length)).toBeGreaterThan(share(4, 0, third));
      expect(stages[0]).toBe(5);
      expect(stages[stages.length - 1]).toBe(5);
      const sa = channel(night, 'SA').samples;
      for (let e = 0; e < stages.length; e++) expect(sa[e]).toBe(stages[e] === 5 ? 0 : 1);
    }
  });

  it('lists sleep stage runs in the truth that match SLP_STGS', () => {
    for (const night of nights) {
      const stages = channel(night, 'SLP_STGS').samples;
      for (const t of night.truth) {
        if (t.kind !== 'sleep_stage') continue;
        const from = (t.onsetMs - START) / EPOCH_MS;
        for (let e = from; e < from + t.durationMs / EPOCH_MS; e++) expect(stages[e]).toBe(t.stage);
      }
    }
  });
});

describe('simulated out-of-bed periods and missing data', () => {
  it('marks TB out, vitals -2, SQB 0 and awake while out of bed, and the radar sees an empty bed', () => {
    const periods = away.truth.filter((t) => t.kind === 'out_of_bed');
    expect(periods.length).toBeGreaterThanOrEqual(1);
    const tb = channel(away, 'TB');
    const sqb = channel(away, 'SQB');
    const y = channel(away, 'Y_DIST');
    for (const p of periods) {
      expect(p.durationMs).toBeGreaterThanOrEqual(3 * 60_000);
      const e0 = (p.onsetMs - START) / EPOCH_MS;
      for (let e = e0; e < e0 + p.durationMs / EPOCH_MS; e++) {
        expect(tb.samples[e]).toBe(0);
        expect(channel(away, 'SLP_STGS').samples[e]).toBe(5);
        expect(channel(away, 'SA').samples[e]).toBe(0);
      }
      expect(tb.samples[e0 - 1]).toBe(1);
      const s0 = (p.onsetMs - START) / 1000;
      for (let s = s0; s < s0 + p.durationMs / 1000; s++) {
        expect(sqb.samples[s]).toBe(0);
        for (const code of VITALS) expect(channel(away, code).samples[s], code).toBe(-2);
      }
      let sq = 0;
      const a = (s0 + 20) * 20;
      const b = (s0 + p.durationMs / 1000) * 20;
      for (let i = a; i < b; i++) sq += (y.samples[i]! * y.scale) ** 2;
      expect(Math.sqrt(sq / (b - a))).toBeLessThan(0.3);
    }
    const outEpochs = Array.from(tb.samples).filter((v) => v === 0).length;
    expect(outEpochs * EPOCH_MS).toBe(periods.reduce((s, p) => s + p.durationMs, 0));
  });

  it('writes runs of -1 into the vitals during movement and dropouts, with SQB 0 on the radar ones', () => {
    const night = nights[0]!;
    const sqb = channel(night, 'SQB');
    for (const code of VITALS) {
      const runs = runsOf(channel(night, code).samples, -1);
      if (code === 'MOV') expect(runs.length).toBe(0);
      else expect(runs.filter(([, n]) => n >= 5).length, code).toBeGreaterThanOrEqual(1);
    }
    for (const t of night.truth) {
      if (t.kind !== 'dropout' && t.kind !== 'movement') continue;
      const s0 = (t.onsetMs - START) / 1000;
      const codes = t.kind === 'dropout' ? t.channels : ['BR', 'BRV', 'HR', 'HRV'];
      for (let s = s0; s < s0 + t.durationMs / 1000; s++) {
        for (const code of codes) expect(channel(night, code).samples[s], code).toBe(-1);
        if (t.kind === 'movement' || codes.includes('BR')) expect(sqb.samples[s]).toBe(0);
      }
    }
    const movements = night.truth.filter((t) => t.kind === 'movement');
    expect(movements.length).toBeGreaterThan(5);
    const mov = channel(night, 'MOV');
    for (const m of movements) {
      const s0 = (m.onsetMs - START) / 1000;
      const peak = Math.max(...Array.from(mov.samples.subarray(s0, s0 + m.durationMs / 1000)));
      expect(peak).toBeGreaterThan(1);
    }
  });

  it('uses both device missing codes across a night with an out-of-bed period', () => {
    for (const code of ['BR', 'HR', 'SPO2']) {
      const samples = channel(away, code).samples;
      expect(runsOf(samples, -1).length, code).toBeGreaterThan(0);
      expect(runsOf(samples, -2).length, code).toBeGreaterThan(0);
    }
  });
});
