// Bad input: a clear error naming what was wrong, and the engine unchanged.
import { beforeAll, describe, expect, it } from 'vitest';
import { EngineError, hz, loadEngine, ms, px, type ChannelInput, type Engine, type EngineErrorCode } from '../../engine/index';

let engine: Engine;
const good: ChannelInput = { night: 'e', code: 'HR', samples: new Float32Array([60, 61, 62, 63]), sampleRateHz: hz(1), t0Ms: ms(0) };

beforeAll(async () => {
  engine = await loadEngine();
  engine.load(good);
});

function expectRefused(code: EngineErrorCode, words: RegExp, call: () => unknown): void {
  const before = { channels: engine.channels(), memory: engine.memory() };
  let caught: unknown;
  try {
    call();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(EngineError);
  expect((caught as EngineError).code).toBe(code);
  expect((caught as EngineError).message).toMatch(words);
  expect(engine.channels()).toEqual(before.channels);
  expect(engine.memory()).toEqual(before.memory);
}

describe('bad input', () => {
  it('refuses channels with mismatched sizes, bad rates, bad times or bad samples', () => {
    expectRefused('SIZE_MISMATCH', /announces 5 samples but carries 4/, () => engine.load({ ...good, night: 'x', count: 5 }));
    expectRefused('INVALID_SAMPLE_RATE', /sample rate .* got 0/, () => engine.load({ ...good, night: 'x', sampleRateHz: hz(0) }));
    expectRefused('INVALID_SAMPLE_RATE', /got -25/, () => engine.load({ ...good, night: 'x', sampleRateHz: hz(-25) }));
    expectRefused('INVALID_SAMPLE_RATE', /got NaN/, () => engine.load({ ...good, night: 'x', sampleRateHz: hz(NaN) }));
    expectRefused('INVALID_TIME', /t0Ms .* got NaN/, () => engine.load({ ...good, night: 'x', t0Ms: ms(NaN) }));
    expectRefused('INVALID_SAMPLES', /Int16Array or a Float32Array/, () => engine.load({ ...good, night: 'x', samples: [1, 2] as unknown as Float32Array }));
    expectRefused('INVALID_SAMPLES', /offset .* finite/, () => engine.load({ ...good, night: 'x', offset: Infinity }));
    expectRefused('INVALID_SAMPLES', /scale .* non-zero/, () => engine.load({ ...good, night: 'x', samples: new Int16Array(2), scale: 0 }));
    expectRefused('INVALID_CHANNEL', /non-empty night and code/, () => engine.load({ ...good, code: '' }));
    expectRefused('DUPLICATE_CHANNEL', /HR of night e is already loaded/, () => engine.load(good));
  });

  it('refuses queries with t1 < t0, NaN times, bad pixels or unknown channels', () => {
    expectRefused('INVALID_RANGE', /t1 \(10\) is before t0 \(20\)/, () => engine.view(good, ms(20), ms(10), px(10)));
    expectRefused('INVALID_TIME', /t0 must be a finite time/, () => engine.stats(good, ms(NaN), ms(10)));
    expectRefused('INVALID_RANGE', /too long/, () => engine.view(good, ms(-1.7e308), ms(1.7e308), px(10)));
    expectRefused('INVALID_TIME', /t1 must be a finite time/, () => engine.histogram(good, ms(0), ms(Infinity), [0, 1]));
    expectRefused('INVALID_PIXELS', /pixels must be an integer/, () => engine.view(good, ms(0), ms(10), px(0)));
    expectRefused('INVALID_PIXELS', /got 2.5/, () => engine.view(good, ms(0), ms(10), px(2.5)));
    expectRefused('UNKNOWN_CHANNEL', /SPO2 of night e is not loaded/, () => engine.view({ night: 'e', code: 'SPO2' }, ms(0), ms(10), px(10)));
    expectRefused('UNKNOWN_CHANNEL', /HR of night zz/, () => engine.stats({ night: 'zz', code: 'HR' }, ms(0), ms(10)));
    expectRefused('INVALID_MODE', /fast, exact or auto/, () => engine.stats(good, ms(0), ms(10), 'slow' as 'fast'));
  });

  it('refuses bad histogram edges, bands and day boundaries', () => {
    expectRefused('INVALID_EDGES', /at least 2 edges/, () => engine.histogram(good, ms(0), ms(10), [1]));
    expectRefused('INVALID_EDGES', /edge 2 \(1\) follows 3/, () => engine.histogram(good, ms(0), ms(10), [0, 3, 1]));
    expectRefused('INVALID_EDGES', /edge 1 is not a finite number/, () => engine.histogram(good, ms(0), ms(10), [0, NaN]));
    expectRefused('INVALID_BANDS', /bands.severe\[0\]/, () => engine.histogram(good, ms(0), ms(10), [0, 1], { moderate: [], severe: [[5, 1]] }));
    expectRefused('INVALID_DAYS', /at least 2 times/, () => engine.dailyStats(good, [ms(0)]));
    expectRefused('INVALID_DAYS', /must increase/, () => engine.dailyStats(good, [ms(0), ms(0)]));
  });

  it('keeps working after refusing', () => {
    expect(engine.stats(good, ms(0), ms(4000), 'exact')).toMatchObject({ count: 4, min: 60, max: 63, p50: 61.5 });
  });
});
