import { describe, expect, it } from 'vitest';
import { clampRange, doubleClickRange, dragRange, pageRange, presetRange, timeAtX, xAtTime } from '../../src/time/range';

const H = 3_600_000;
const night = { t0: 1_763_674_200_000, t1: 1_763_674_200_000 + 10 * H };

describe('paging', () => {
  it('moves 20% of the window each step and stops at the night edges', () => {
    const w = { t0: night.t0, t1: night.t0 + 30_000 };
    const right = pageRange(w, night, 1);
    expect(right.t0 - night.t0).toBeCloseTo(6_000, 6);
    expect(right.t1 - right.t0).toBeCloseTo(30_000, 6);
    expect(pageRange(w, night, -1)).toEqual(w);
    const end = { t0: night.t1 - 30_000, t1: night.t1 };
    expect(pageRange(end, night, 1)).toEqual(end);
  });

  it('20 steps right and 5 left leave the window 15 steps (90 s for 30 s) from the start', () => {
    let w = { t0: night.t0, t1: night.t0 + 30_000 };
    for (let i = 0; i < 20; i++) w = pageRange(w, night, 1);
    for (let i = 0; i < 5; i++) w = pageRange(w, night, -1);
    expect(w.t0 - night.t0).toBeCloseTo(90_000, 3);
  });

  it('keeps float64 precision for epoch milliseconds', () => {
    let w = { t0: night.t0, t1: night.t0 + 30_000 };
    for (let i = 0; i < 1000; i++) w = pageRange(w, night, 1);
    expect(w.t0 - night.t0).toBeCloseTo(6_000_000, 3);
  });
});

describe('presets, double-click and drag', () => {
  it('starts a preset where the window starts and fills the night for Full Night', () => {
    const w = { t0: night.t0 + H, t1: night.t0 + 2 * H };
    expect(presetRange(w, night, 30_000)).toEqual({ t0: night.t0 + H, t1: night.t0 + H + 30_000 });
    expect(presetRange(w, night, null)).toEqual(night);
    expect(presetRange({ t0: night.t1 - 1000, t1: night.t1 }, night, 600_000)).toEqual({ t0: night.t1 - 600_000, t1: night.t1 });
  });

  it('double-click selects 3 minutes around the point, then 30 seconds', () => {
    const at = night.t0 + 5 * H;
    const three = doubleClickRange(night, night, at);
    expect(three).toEqual({ t0: at - 90_000, t1: at + 90_000 });
    expect(doubleClickRange(three, night, at)).toEqual({ t0: at - 15_000, t1: at + 15_000 });
    expect(doubleClickRange(three, night, night.t0)).toEqual({ t0: night.t0, t1: night.t0 + 30_000 });
  });

  it('drag zoom works either way and refuses slivers', () => {
    expect(dragRange(night.t0 + 2 * H, night.t0 + H, night)).toEqual({ t0: night.t0 + H, t1: night.t0 + 2 * H });
    expect(dragRange(night.t0, night.t0 + 10, night)).toBeNull();
  });

  it('clamps a window wider than the night to the night', () => {
    expect(clampRange({ t0: night.t0 - H, t1: night.t1 + H }, night)).toEqual(night);
  });

  it('maps pixels to times and back', () => {
    expect(timeAtX(night, 500, 1000)).toBe(night.t0 + 5 * H);
    expect(xAtTime(night, night.t0 + 5 * H, 1000)).toBeCloseTo(500, 9);
  });
});
