import { describe, expect, it } from 'vitest';
import { endAt, sliderOf, windowOf } from '../../src/features/live/liveWindow';

// The Real Time screen's window and time slider (spec 1 §2).

const session = { t0Ms: 1_000_000, endMs: 1_300_000 }; // five minutes of samples
const MINUTE = 60_000;

describe('live window', () => {
  it('follows the newest data, or ends where it was put', () => {
    expect(windowOf(session, null, MINUTE)).toEqual({ t0: 1_240_000, t1: 1_300_000 });
    expect(windowOf(session, 1_100_000, MINUTE)).toEqual({ t0: 1_040_000, t1: 1_100_000 });
  });

  it('puts the slider at its end while following, else at the window start in seconds', () => {
    expect(sliderOf(session, null, MINUTE)).toEqual({ max: 240, value: 240 });
    expect(sliderOf(session, 1_100_000, MINUTE)).toEqual({ max: 240, value: 40 });
  });

  it('has nowhere to go while one window holds the whole session, or with no session', () => {
    expect(sliderOf(session, null, 10 * MINUTE)).toEqual({ max: 0, value: 0 });
    expect(sliderOf(null, null, MINUTE)).toEqual({ max: 0, value: 0 });
  });

  it('follows again once the slider reaches its end', () => {
    expect(endAt(session, 40, 240, MINUTE)).toBe(1_100_000);
    expect(endAt(session, 240, 240, MINUTE)).toBeNull();
    expect(endAt(session, 300, 240, MINUTE)).toBeNull();
  });
});
