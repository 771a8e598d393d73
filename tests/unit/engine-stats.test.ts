// stats(): fast and exact modes against a sort-based reference.
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineError, hz, loadEngine, ms, type ChannelInput, type Engine } from '../../engine/index';
import { referencePhysical, referenceStats } from '../../engine/reference';
import { rng, syntheticSignal } from '../../engine/synthetic';
import { sampleRange } from '../../engine/time';

let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine();
});

function channel(seed: number, samples: number, extra: Partial<ChannelInput> = {}): { input: ChannelInput; values: Float32Array } {
  const random = rng(seed);
  const int16 = seed % 3 === 0;
  const input: ChannelInput = {
    night: `s${seed}`,
    code: 'BR',
    samples: syntheticSignal({
      samples, seed, int16,
      missingShare: [0, 0.05, 0.5, 0.99][seed % 4]!,
      missingRun: [1, 30, 3000][seed % 3]!,
    }),
    sampleRateHz: hz([25, 250, 1][seed % 3]!),
    t0Ms: ms(1_600_000_000_000 + random() * 1e6),
    ...(int16 ? { scale: 0.01, offset: -5 } : {}),
    ...extra,
  };
  return { input, values: referencePhysical(input) };
}

describe('stats', () => {
  it('exact mode equals the sort-based reference', () => {
    for (let seed = 1; seed <= 24; seed++) {
      const { input, values } = channel(seed, [1, 7, 1000, 40_001, 150_003][seed % 5]!);
      const info = engine.load(input);
      try {
        const random = rng(seed + 100);
        for (let w = 0; w < 10; w++) {
          const span = info.t1Ms - info.t0Ms;
          const t0 = ms(info.t0Ms + (random() * 1.2 - 0.1) * span);
          const t1 = ms(t0 + random() * span * (w % 3 === 0 ? 2 : 0.3));
          const got = engine.stats(input, t0, t1, 'exact');
          const { s, e } = sampleRange(info, t0, t1);
          const want = referenceStats(values, s, e);
          expect(got.mode).toBe('exact');
          expect({ ...got, mode: undefined, missingFraction: undefined }).toEqual({ ...want, mode: undefined, missingFraction: undefined });
          expect(got.missingFraction).toBe(want.samples ? want.missingCount / want.samples : 0);
        }
      } finally {
        engine.close(input.night);
      }
    }
  });

  it('fast mode: counts, min, max exact; mean to rounding; percentiles within 0.1% of the range', () => {
    for (let seed = 1; seed <= 24; seed++) {
      const { input, values } = channel(seed, [9, 8192, 70_001, 300_007][seed % 4]!);
      const info = engine.load(input);
      try {
        const range = info.max - info.min;
        const random = rng(seed + 500);
        for (let w = 0; w < 15; w++) {
          const span = info.t1Ms - info.t0Ms;
          const t0 = ms(info.t0Ms + (random() * 1.2 - 0.1) * span);
          const t1 = ms(t0 + random() * span * (w % 3 === 0 ? 2 : 0.3));
          const got = engine.stats(input, t0, t1, 'fast');
          const { s, e } = sampleRange(info, t0, t1);
          const want = referenceStats(values, s, e);
          expect(got.mode).toBe('fast');
          expect([got.samples, got.count, got.missingCount, got.min, got.max])
            .toEqual([want.samples, want.count, want.missingCount, want.min, want.max]);
          if (want.count === 0) {
            expect([got.mean, got.p10, got.p50, got.p90].every(Number.isNaN)).toBe(true);
            continue;
          }
          expect(Math.abs(got.mean - want.mean)).toBeLessThanOrEqual(1e-9 * Math.max(1, Math.abs(want.mean)));
          for (const p of ['p10', 'p50', 'p90'] as const) {
            expect(Math.abs(got[p] - want[p]), `${p} seed ${seed} window ${w}`).toBeLessThanOrEqual(0.001 * range + 1e-9);
          }
        }
      } finally {
        engine.close(input.night);
      }
    }
  });

  it('auto picks exact up to 1M samples and fast beyond; exact refuses more than 1M', () => {
    const { input } = channel(7, 1_200_000, { night: 'big' });
    const info = engine.load(input);
    try {
      const small = engine.stats(input, info.t0Ms, ms(info.t0Ms + 999_999.5 * (1000 / info.sampleRateHz)));
      expect(small.mode).toBe('exact');
      expect(small.samples).toBe(1_000_000);
      expect(engine.stats(input, info.t0Ms, info.t1Ms).mode).toBe('fast');
      expect(() => engine.stats(input, info.t0Ms, info.t1Ms, 'exact')).toThrow(EngineError);
      expect(() => engine.stats(input, info.t0Ms, info.t1Ms, 'exact')).toThrow(/WINDOW_TOO_LARGE/);
    } finally {
      engine.close('big');
    }
  });

  it('reports the missing fraction with SPO2 rules (non-positive values missing)', () => {
    const samples = new Int16Array([95, 0, -1, 96, -2, -5, 97, 98, 0, 99]);
    const input: ChannelInput = { night: 'o', code: 'SPO2', samples, sampleRateHz: hz(1), t0Ms: ms(0) };
    const info = engine.load(input);
    try {
      expect(info.validCount).toBe(5);
      const st = engine.stats(input, ms(0), ms(10_000), 'fast');
      expect([st.count, st.missingCount, st.missingFraction, st.min, st.max, st.mean]).toEqual([5, 5, 0.5, 95, 99, 97]);
      expect(engine.stats(input, ms(0), ms(10_000), 'exact').p50).toBe(97);
    } finally {
      engine.close('o');
    }
  });

  it('exact mode handles constant windows and heavy ties', () => {
    const random = rng(99);
    const ties = new Int16Array(200_001).map(() => 90 + Math.floor(random() * 3));
    const constant = new Float32Array(1001).fill(7);
    for (const [code, samples] of [['SPO2', ties], ['BR', constant]] as const) {
      const input: ChannelInput = { night: 'ties', code, samples, sampleRateHz: hz(1), t0Ms: ms(0) };
      const info = engine.load(input);
      try {
        const want = referenceStats(referencePhysical(input), 0, samples.length);
        const got = engine.stats(input, info.t0Ms, info.t1Ms, 'exact');
        expect([got.p10, got.p50, got.p90, got.mean]).toEqual([want.p10, want.p50, want.p90, want.mean]);
      } finally {
        engine.close('ties');
      }
    }
  });

  it('treats -1, -2 and NaN as missing in every channel, but not other negatives', () => {
    const samples = new Float32Array([-3, -1, NaN, -2, 4, Infinity]);
    const input: ChannelInput = { night: 'm', code: 'Y_DIST', samples, sampleRateHz: hz(1), t0Ms: ms(0) };
    const info = engine.load(input);
    try {
      expect(info.validCount).toBe(2);
      expect(engine.stats(input, ms(0), ms(6000)).mean).toBe(0.5);
    } finally {
      engine.close('m');
    }
  });

  it('gives NaN statistics and count 0 for windows without valid samples', () => {
    const { input } = channel(4, 5000);
    const info = engine.load(input);
    try {
      for (const mode of ['fast', 'exact'] as const) {
        const st = engine.stats(input, ms(info.t1Ms + 10), ms(info.t1Ms + 1e6), mode);
        expect(st).toMatchObject({ samples: 0, count: 0, missingFraction: 0 });
        expect(st.p50).toBeNaN();
      }
    } finally {
      engine.close(input.night);
    }
  });
});
