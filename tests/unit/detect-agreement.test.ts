import { describe, expect, it } from 'vitest';
import { matchEvents } from '../../engine/detect/agreement';

const ev = (onsetS: number, durS: number) => ({ onsetMs: onsetS * 1000, durationMs: durS * 1000 });

describe('matchEvents', () => {
  it('counts two detections of one reference event as one hit and one extra', () => {
    const a = matchEvents([ev(100, 15)], [ev(101, 6), ev(108, 8)]);
    expect(a).toMatchObject({ reference: 1, detected: 2, matched: 1, missed: 0, extra: 1, sensitivity: 1, ppv: 0.5 });
  });

  it('gives each reference event its best-overlapping detection', () => {
    // The detection at 118 overlaps both references; it belongs to the second (larger overlap),
    // and the first is matched by the detection at 99.
    const a = matchEvents([ev(100, 12), ev(118, 20)], [ev(99, 10), ev(118, 18)]);
    expect(a.matched).toBe(2);
    expect(a.pairs).toEqual([
      [0, 0],
      [1, 1],
    ]);
  });

  it('misses events farther apart than the tolerance', () => {
    const a = matchEvents([ev(100, 10)], [ev(116, 10)], { toleranceMs: 2_000 });
    expect(a).toMatchObject({ matched: 0, missed: 1, extra: 1, sensitivity: 0, ppv: 0 });
  });

  it('counts borderline reference events neither way, and their detections not as extra', () => {
    const reference = [ev(0, 12), ev(100, 12)];
    const borderline = [ev(200, 10), ev(300, 10)];
    // Detected: the first reference event, one borderline event, and one with nothing near.
    const detected = [ev(1, 12), ev(201, 11), ev(500, 12)];
    const a = matchEvents(reference, detected, { borderline });
    expect(a).toMatchObject({ reference: 2, detected: 2, matched: 1, missed: 1, extra: 1, sensitivity: 0.5, ppv: 0.5, borderline: 2, borderlineDetected: 1 });
    expect(a.pairs).toEqual([[0, 0]]);
    expect(a.borderlinePairs).toEqual([[0, 1]]);
    // A detection goes to one event only: the reference event it overlaps most, not a borderline neighbour too.
    const b = matchEvents([ev(0, 12)], [ev(0, 12)], { borderline: [ev(2, 12)] });
    expect(b).toMatchObject({ matched: 1, detected: 1, borderlineDetected: 0 });
    // Without borderline events: as before.
    expect(matchEvents(reference, detected)).toMatchObject({ reference: 2, detected: 3, matched: 1, extra: 2, borderline: 0, borderlineDetected: 0 });
  });

  it('gives null ratios when a side is empty', () => {
    expect(matchEvents([], [])).toMatchObject({ sensitivity: null, ppv: null, matched: 0 });
    expect(matchEvents([ev(1, 10)], [])).toMatchObject({ sensitivity: 0, ppv: null, missed: 1 });
  });
});
