// histogram(), threshold band counts and per-day statistics.
import { beforeAll, describe, expect, it } from 'vitest';
import {
  DAY_MARGIN_MS, DAY_MS, defaultBands, hz, loadEngine, ms, rateBands, DEFAULT_PR,
  type ChannelInput, type Engine, type Ms,
} from '../../engine/index';
import { referenceBands, referenceHistogram, referencePhysical, referenceStats } from '../../engine/reference';
import { rng } from '../../engine/synthetic';
import { sampleRange } from '../../engine/time';

let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine();
});

/** An SPO2-like int16 channel (values 35..100, zeros and device codes). */
function spo2(seed: number, n: number): ChannelInput {
  const random = rng(seed);
  const samples = new Int16Array(n);
  let v = 95;
  for (let i = 0; i < n; i++) {
    v = Math.min(100, Math.max(35, v + Math.round((random() - 0.5) * 3)));
    const r = random();
    samples[i] = r < 0.02 ? 0 : r < 0.04 ? -1 : r < 0.05 ? -2 : v;
  }
  return { night: `h${seed}`, code: 'SPO2', samples, sampleRateHz: hz(1), t0Ms: ms(1_700_000_000_000 + seed) };
}

describe('histogram', () => {
  it('equals a brute-force count for random edges and windows', () => {
    for (let seed = 1; seed <= 10; seed++) {
      const input = spo2(seed, [1, 100, 5001, 40_003][seed % 4]!);
      const info = engine.load(input);
      const values = referencePhysical(input);
      try {
        const random = rng(seed * 3);
        for (let w = 0; w < 8; w++) {
          const edgeSet = new Set<number>();
          const nEdges = 2 + Math.floor(random() * 30);
          while (edgeSet.size < nEdges) edgeSet.add(w % 2 ? Math.round(30 + random() * 75) : 30 + random() * 75);
          const edges = [...edgeSet].sort((a, b) => a - b);
          const t0 = ms(info.t0Ms + (random() - 0.1) * (info.t1Ms - info.t0Ms));
          const t1 = ms(t0 + random() * (info.t1Ms - info.t0Ms));
          const got = engine.histogram(input, t0, t1, edges);
          const { s, e } = sampleRange(info, t0, t1);
          const want = referenceHistogram(values, s, e, edges);
          expect([...got.counts]).toEqual(want.counts);
          expect([got.below, got.above]).toEqual([want.below, want.above]);
          expect(got.total).toBe(referenceStats(values, s, e).count);
        }
      } finally {
        engine.close(input.night);
      }
    }
  });

  it('counts samples in the moderate and severe bands (severe wins on overlap)', () => {
    const input = spo2(42, 30_000);
    const info = engine.load(input);
    const values = referencePhysical(input);
    try {
      const bands = defaultBands('SPO2')!;
      const got = engine.histogram(input, info.t0Ms, info.t1Ms, [0, 50, 90, 100], bands);
      const { s, e } = sampleRange(info, info.t0Ms, info.t1Ms);
      expect(got.bands).toEqual(referenceBands(values, s, e, bands));
      expect(got.bands!.normal + got.bands!.moderate + got.bands!.severe).toBe(got.total);
      expect(got.bands!.severe).toBeGreaterThan(0);
      expect(got.bands!.moderate).toBeGreaterThan(0);
    } finally {
      engine.close(input.night);
    }
  });

  it('reads PR bands with overlapping ranges at 55 as severe', () => {
    const input: ChannelInput = {
      night: 'pr', code: 'PR', samples: new Float32Array([55, 56, 60, 61, 100, 120, 121, 170, 0, -1]), sampleRateHz: hz(1), t0Ms: ms(0),
    };
    engine.load(input);
    try {
      const got = engine.histogram(input, ms(0), ms(10_000), [0, 200], rateBands(DEFAULT_PR));
      expect(got.bands).toEqual({ severe: 3, moderate: 3, normal: 2 });
      expect(got.total).toBe(8);
    } finally {
      engine.close('pr');
    }
  });
});

describe('dailyStats', () => {
  it('gives per-day statistics over each day widened by 8-hour margins', () => {
    // Three days of a 1 Hz channel starting mid-day.
    const n = 3 * 86_400;
    const random = rng(9);
    const samples = new Float32Array(n);
    for (let i = 0; i < n; i++) samples[i] = random() < 0.1 ? -1 : 10 + 20 * random();
    const dayZero = 1_700_000_000_000 - (1_700_000_000_000 % DAY_MS);
    const input: ChannelInput = { night: 'trend', code: 'BR', samples, sampleRateHz: hz(1), t0Ms: ms(dayZero + 12 * 3_600_000) };
    const info = engine.load(input);
    const values = referencePhysical(input);
    try {
      const dayStarts: Ms[] = [0, 1, 2, 3, 4].map((d) => ms(dayZero + d * DAY_MS));
      const days = engine.dailyStats(input, dayStarts, { mode: 'exact' });
      expect(days).toHaveLength(4);
      days.forEach((day, d) => {
        expect(day.start).toBe(dayStarts[d]);
        expect(day.from).toBe(dayStarts[d]! - DAY_MARGIN_MS);
        expect(day.to).toBe(dayStarts[d + 1]! + DAY_MARGIN_MS);
        const { s, e } = sampleRange(info, day.from, day.to);
        const want = referenceStats(values, s, e);
        expect([day.stats.count, day.stats.min, day.stats.max, day.stats.mean, day.stats.p10, day.stats.p50, day.stats.p90])
          .toEqual([want.count, want.min, want.max, want.mean, want.p10, want.p50, want.p90]);
      });
      // Margins make neighbouring days share samples.
      expect(days[0]!.stats.samples).toBe((12 + 8) * 3600);
      expect(days[1]!.stats.samples).toBe(40 * 3600);
      const fast = engine.dailyStats(input, dayStarts, { mode: 'fast' });
      fast.forEach((day, d) => expect(Math.abs(day.stats.p50 - days[d]!.stats.p50)).toBeLessThanOrEqual(0.001 * (info.max - info.min)));
    } finally {
      engine.close('trend');
    }
  });
});
