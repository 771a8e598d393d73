import { describe, expect, it } from 'vitest';
import { clampRange, doubleClickRange, dragRange, pageRange, presetRange, timeAtX, xAtTime, zoomAroundRange } from '../../src/time/range';

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

describe('zoom around a point (Ctrl + wheel, pinch)', () => {
  it('keeps the time under the pointer where it is on screen', () => {
    const w = { t0: night.t0 + H, t1: night.t0 + 3 * H };
    const at = night.t0 + 1.5 * H; // a quarter of the way in
    const narrower = zoomAroundRange(w, night, at, 0.5);
    expect(narrower.t1 - narrower.t0).toBeCloseTo(H, 3);
    expect((at - narrower.t0) / (narrower.t1 - narrower.t0)).toBeCloseTo(0.25, 9);
    const back = zoomAroundRange(narrower, night, at, 2);
    expect(back.t0).toBeCloseTo(w.t0, 3);
    expect(back.t1).toBeCloseTo(w.t1, 3);
  });

  it('stops at the whole night and at the narrowest window, inside the night', () => {
    expect(zoomAroundRange({ t0: night.t0 + H, t1: night.t0 + 9 * H }, night, night.t0 + 2 * H, 3)).toEqual(night);
    const tiny = zoomAroundRange({ t0: night.t0, t1: night.t0 + 2_000 }, night, night.t0 + 1_000, 0.01);
    expect(tiny.t1 - tiny.t0).toBe(1_000);
    expect(tiny.t0).toBeGreaterThanOrEqual(night.t0);
    const atEnd = zoomAroundRange({ t0: night.t1 - H, t1: night.t1 }, night, night.t1, 1.5);
    expect(atEnd.t1).toBe(night.t1);
    expect(atEnd.t1 - atEnd.t0).toBeCloseTo(1.5 * H, 3);
  });
});
