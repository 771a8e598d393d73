import { beforeAll, describe, expect, it } from 'vitest';
import { loadEngine, type Engine } from '../../engine/index';

let engine: Engine;
beforeAll(async () => {
  engine = await loadEngine();
});

function plainSum(data: Float32Array): number {
  let s = 0;
  for (const v of data) s += v;
  return s;
}

function randomData(n: number, seed: number): Float32Array {
  let x = seed >>> 0 || 1;
  const out = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    x ^= x << 13; x ^= x >>> 17; x ^= x << 5; x >>>= 0;
    out[i] = (x / 0xffffffff) * 200 - 100;
  }
  return out;
}

describe('engine.sum', () => {
  it('reports version and SIMD', () => {
    expect(engine.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(engine.simd).toBe(true);
  });

  it.each([0, 1, 2, 3, 4, 5, 7, 8, 9, 15, 17, 1000, 1001, 4099])('matches a plain sum for length %i', (n) => {
    const data = randomData(n, n + 7);
    expect(engine.sum(data)).toBeCloseTo(plainSum(data), 6);
  });

  it('reads a subarray, not its whole buffer', () => {
    const data = randomData(50, 3);
    const part = data.subarray(5, 18);
    expect(engine.sum(part)).toBeCloseTo(plainSum(part), 9);
  });

  it('releases its memory', () => {
    const before = engine.memory();
    for (let i = 0; i < 20; i++) engine.sum(randomData(10_000, i + 1));
    const after = engine.memory();
    expect(after.liveBytes).toBe(before.liveBytes);
    expect(after.liveBlocks).toBe(before.liveBlocks);
  });
});
