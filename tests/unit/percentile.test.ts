import { describe, expect, it } from 'vitest';
import { percentile } from '../../engine/percentile';

describe('percentile (the one every benchmark uses)', () => {
  it('takes the nearest rank over all values, not a best-of', () => {
    const values = [5, 1, 4, 2, 3, 10, 9, 8, 7, 6];
    expect(percentile(values, 0.5)).toBe(5);
    expect(percentile(values, 0.95)).toBe(10);
    expect(percentile(values, 0.99)).toBe(10);
    expect(percentile(values, 0)).toBe(1);
    expect(percentile(values, 0.1)).toBe(1);
    expect(percentile(values, 0.11)).toBe(2);
  });

  it('is NaN for no values and leaves its input unsorted', () => {
    expect(percentile([], 0.5)).toBeNaN();
    const values = [3, 1, 2];
    percentile(values, 0.5);
    expect(values).toEqual([3, 1, 2]);
  });
});
