import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { hz, loadEngine, ms, validSampleCount, type Engine } from '../../engine/index';

let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine();
});

/** The engine's own count: the channel loaded, its validCount read, freed again. */
function engineCount(code: string, samples: Int16Array | Float32Array, scale: number, offset: number, missingCodes: number[]): number {
  const night = `valid-${Math.random()}`;
  try {
    return engine.load({ night, code, samples, sampleRateHz: hz(1), t0Ms: ms(0), scale, offset, missingCodes }).validCount;
  } finally {
    engine.close(night);
  }
}

describe('validSampleCount', () => {
  it('counts what the engine counts as valid: int16 and float32, codes, non-finite, SpO2 and pulse ≤ 0', () => {
    const special = fc.constantFrom(-2, -1, 0, 1, Number.NaN, Number.POSITIVE_INFINITY, Number.NEGATIVE_INFINITY, -0.5);
    fc.assert(
      fc.property(
        fc.constantFrom('SPO2', 'PR', 'HR', 'FLOW', 'BR', 'SPO2_PSG'),
        fc.boolean(),
        fc.array(fc.oneof(special, fc.integer({ min: -300, max: 300 })), { minLength: 1, maxLength: 200 }),
        fc.constantFrom(1, 0.5, 0.01, 2),
        fc.constantFrom(0, -1, 3.5),
        fc.constantFrom<number[]>([-1, -2], [], [0], [-32_768, 1.5, 40_000]),
        fc.nat(3),
        (code, int16, values, scale, offset, codes, pad) => {
          // A view into a larger buffer (as a chunk or a joined session is) counts only its own samples.
          const padded = [...Array<number>(pad).fill(-1), ...values, ...Array<number>(pad).fill(-2)];
          const whole = int16 ? Int16Array.from(padded.map((v) => (Number.isFinite(v) ? Math.trunc(v) : 0))) : Float32Array.from(padded);
          const samples = whole.subarray(pad, pad + values.length);
          expect(validSampleCount({ code, samples, scale, offset, missingCodes: codes })).toBe(engineCount(code, samples, scale, offset, codes));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a channel whose every sample is a missing code has none', () => {
    expect(validSampleCount({ code: 'PR', samples: Int16Array.from([-1, -1, -2, 0]) })).toBe(0);
    expect(validSampleCount({ code: 'FLOW', samples: Float32Array.from([Number.NaN, 0.2, -0.3]), missingCodes: [] })).toBe(2);
  });

  it("a file's breathing rate of 0 is no rate (a ResMed's before its first breaths, decision 1043); our device's BR 0 stays a value (spec 2 §5)", () => {
    const rates = Float32Array.from([0, 0, 0, 14.2, 15, 0.4]);
    expect(validSampleCount({ code: 'BR', samples: rates, missingCodes: [] })).toBe(3);
    expect(engineCount('BR', rates, 1, 0, [])).toBe(3);
    expect(engine.load({ night: 'br-file', code: 'BR', samples: rates, sampleRateHz: hz(0.5), t0Ms: ms(0), missingCodes: [] }).min).toBeCloseTo(0.4, 5);
    engine.close('br-file');
    expect(validSampleCount({ code: 'BR', samples: rates, missingCodes: [-1, -2] })).toBe(6);
    expect(engineCount('BR', rates, 1, 0, [-1, -2])).toBe(6);
    // A PSG's or CPAP's SpO2 of 0 is none, as our SPO2's.
    expect(validSampleCount({ code: 'SPO2_PSG', samples: Float32Array.from([0, 95, 96]), missingCodes: [] })).toBe(2);
  });
});
