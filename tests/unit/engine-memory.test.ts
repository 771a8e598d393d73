// Closing a night frees its memory: 50 nights loaded and closed leave the
// engine's allocator where it was, and the WebAssembly memory stops growing.
import { describe, expect, it } from 'vitest';
import { hz, loadEngine, ms, px } from '../../engine/index';
import { syntheticSignal } from '../../engine/synthetic';

const CODES = ['BR', 'HR', 'SPO2', 'Y_DIST'] as const;

describe('memory', () => {
  it('returns to its level after loading and closing 50 nights', async () => {
    const engine = await loadEngine();
    const loadNight = (k: number) => {
      const night = `night-${k}`;
      for (const code of CODES) {
        const samples = syntheticSignal({ samples: 60_000 + k, seed: k + code.length, missingShare: 0.1, int16: code === 'SPO2' });
        const info = engine.load({ night, code, samples, sampleRateHz: hz(25), t0Ms: ms(k * 1e7) });
        engine.view({ night, code }, info.t0Ms, info.t1Ms, px(2000));
        engine.stats({ night, code }, info.t0Ms, info.t1Ms, 'exact');
      }
      return night;
    };
    // Warm up once so the output area exists before the baseline.
    engine.close(loadNight(0));
    const baseline = engine.memory();
    let heapAfterFirst = 0;
    for (let k = 1; k <= 50; k++) {
      const night = loadNight(k);
      expect(engine.memory().channels).toBe(CODES.length);
      expect(engine.close(night)).toBe(CODES.length);
      if (k === 1) heapAfterFirst = engine.memory().heapBytes;
    }
    const after = engine.memory();
    expect(after.channels).toBe(0);
    expect(after.liveBytes).toBe(baseline.liveBytes);
    expect(after.liveBlocks).toBe(baseline.liveBlocks);
    // Freed blocks are reused: 49 more nights need no more linear memory
    // than one night did (allowing one growth step for fragmentation).
    expect(after.heapBytes).toBeLessThanOrEqual(heapAfterFirst + 4 * 1024 * 1024);
    engine.dispose();
    expect(engine.memory().liveBytes).toBe(0);
  });
});
