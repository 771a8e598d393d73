import { describe, expect, it } from 'vitest';
import { buildBands, buildRuns, buildVertices, GAP_BEFORE, maxFloats, type M4Columns } from '../../src/charts/core/geometry';

function columns(values: Array<[number, number, number, number] | null>, flags: number[] = []): M4Columns {
  const n = values.length;
  const pick = (k: number) => Float32Array.from(values.map((v) => (v ? v[k]! : Number.NaN)));
  return {
    pixels: n,
    pxMs: 10,
    x: Float32Array.from(values.map((_, i) => i * 10 + 5)),
    first: pick(0), min: pick(1), max: pick(2), last: pick(3),
    flags: Uint8Array.from(values.map((_, i) => flags[i] ?? 0)),
  };
}

const pairs = (out: Float32Array, n: number) => Array.from({ length: n }, (_, i) => [out[i * 2], out[i * 2 + 1]]);

describe('line vertices from M4 columns', () => {
  it('draws each column min→max and links columns last→first', () => {
    const out = new Float32Array(maxFloats(2));
    const n = buildVertices(columns([[1, 0, 2, 2], [3, 3, 3, 3]]), 'line', out);
    expect(pairs(out, n)).toEqual([[5, 0], [5, 2], [5, 2], [15, 3]]);
  });

  it('breaks the line where samples are missing, but not over empty columns of a sparse channel', () => {
    const out = new Float32Array(maxFloats(4));
    const sparse = buildVertices(columns([[1, 1, 1, 1], null, [2, 2, 2, 2], null]), 'line', out);
    expect(pairs(out, sparse)).toEqual([[5, 1], [25, 2]]);
    const gap = buildVertices(columns([[1, 1, 1, 1], null, [2, 2, 2, 2]], [0, 0, GAP_BEFORE]), 'line', out);
    expect(gap).toBe(0);
  });

  it('draws steps horizontally then vertically', () => {
    const out = new Float32Array(maxFloats(2));
    const n = buildVertices(columns([[0, 0, 0, 0], [3, 3, 3, 3]]), 'step', out);
    expect(pairs(out, n)).toEqual([[5, 0], [15, 0], [15, 0], [15, 3]]);
  });

  it("holds a step's last value for its sample period: before a gap, at the end of the data, never past the view", () => {
    const out = new Float32Array(maxFloats(6));
    // Epochs of 20 ms in 10-ms columns: 0 at 5, 3 at 25, then missing samples, 1 at 45 alone.
    const n = buildVertices(columns([[0, 0, 0, 0], null, [3, 3, 3, 3], null, [1, 1, 1, 1], null], [0, 0, 0, 0, GAP_BEFORE, 0]), 'step', out, 20);
    expect(pairs(out, n)).toEqual([
      [5, 0], [25, 0], [25, 0], [25, 3],
      // The run's last epoch (3) held for its 20 ms before the gap.
      [25, 3], [45, 3],
      // The lone epoch after the gap: drawn for its length, cut at the view's end (60).
      [45, 1], [60, 1],
    ]);
    // Without a period (an overview's unknown rate) nothing is added, and lines never hold.
    expect(pairs(out, buildVertices(columns([[0, 0, 0, 0], [3, 3, 3, 3]]), 'step', out))).toEqual([[5, 0], [15, 0], [15, 0], [15, 3]]);
    expect(buildVertices(columns([[1, 1, 1, 1]]), 'line', out, 20)).toBe(0);
  });

  it('draws points for sparse spot values', () => {
    const out = new Float32Array(maxFloats(3));
    const n = buildVertices(columns([null, [120, 120, 120, 120], [80, 70, 90, 85]]), 'points', out);
    expect(pairs(out, n)).toEqual([[15, 120], [25, 70], [25, 90]]);
  });
});

describe('fills', () => {
  it('shades runs of bad signal (SQB 0)', () => {
    const out = new Float32Array(maxFloats(5));
    const n = buildRuns(columns([[1, 1, 1, 1], [0, 0, 0, 0], [0, 0, 1, 1], [1, 1, 1, 1], [0, 0, 0, 0]]), 0.5, out);
    expect(n).toBe(12);
    expect(out[0]).toBe(10); // run starts at the left edge of column 1
    expect(out[2]).toBe(30); // and ends at the right edge of column 2
    expect(out[12]).toBe(40);
  });

  it('makes two triangles per threshold band', () => {
    const out = new Float32Array(24);
    expect(buildBands([[0, 10], [30, 50]], out)).toBe(12);
    expect(out[1]).toBe(0);
    expect(out[5]).toBe(10);
  });
});
