import { describe, expect, it } from 'vitest';
import { clockOffset, frameSummary, latencySummary, ratio, type ProbeTake } from '../../bench/screen-stats';

const take = (paints: number[], frames: number[], longTasks: number[] = []): ProbeTake => ({ paints, frames, longTasks, longTasksObserved: true });

describe('screen benchmark figures', () => {
  it('takes the clock offset from the reading with the shortest round trip', () => {
    const c = clockOffset([
      { before: 1000, page: 1010, after: 1008 },
      { before: 2000, page: 2003.5, after: 2001 },
      { before: 3000, page: 3020, after: 3030 },
    ]);
    expect(c.offsetMs).toBe(3);
    expect(c.uncertaintyMs).toBe(0.5);
    expect(() => clockOffset([])).toThrow();
  });

  it('pools the latency of every frame of every round and takes the page clock offset off', () => {
    // Page clock 5 ms ahead of the device's: sent 100 on the device is 105 on the page.
    const rounds = [take([100, 125, 135, 200, 215, 245], []), take([300, 315, 325], [])];
    const l = latencySummary(rounds, 5);
    expect(l.frames).toBe(3);
    // painted − offset − sent: 30, 40, 20
    expect(l.p50).toBe(30);
    expect(l.p99).toBe(40);
    expect(l.max).toBe(40);
    // arrival − offset − sent: 20, 10, 10; painted − arrival: 10, 30, 10
    expect(l.arrival_p50).toBe(10);
    expect(l.arrival_p99).toBe(20);
    expect(l.screen_p50).toBe(10);
    expect(l.screen_p99).toBe(30);
    expect(latencySummary([], 0)).toMatchObject({ frames: 0, p50: null, p99: null, max: null });
  });

  it('sums frames, splits those that drew, and counts missed display frames within a round only', () => {
    // [ts, work, draws, callbacks]: 16.7 ms apart, one gap of two intervals.
    const a = take([], [0, 1, 0, 16, 16.7, 4, 2, 16, 33.4, 2, 1, 16, 66.8, 8, 4, 16], [60, 70]);
    // A second round starting much later: the gap between rounds is no interval.
    const b = take([], [10_000, 3, 1, 16]);
    const f = frameSummary([a, b]);
    expect(f.frames).toBe(5);
    expect(f.frames_with_draws).toBe(4);
    expect(f.p50).toBe(3);
    expect(f.p99).toBe(8);
    expect(f.drawn_p50).toBe(3);
    expect(f.drawn_p99).toBe(8);
    // per draw: 2, 2, 2, 3
    expect(f.per_draw_p50).toBe(2);
    expect(f.draws_per_drawn_frame).toBe(2);
    expect(f.interval_p50).toBe(16.7);
    expect(f.interval_p99).toBe(33.4);
    expect(f.missed_pct).toBe(33.33);
    expect(f.long_tasks).toBe(2);
    expect(f.long_task_ms).toBe(130);
  });

  it('says null for long tasks when the browser could not observe them', () => {
    expect(frameSummary([{ ...take([], []), longTasksObserved: false }]).long_tasks).toBeNull();
  });

  it('gives the peer over ours, null when either is missing', () => {
    expect(ratio(10, 4)).toBe(2.5);
    expect(ratio(null, 4)).toBeNull();
    expect(ratio(10, null)).toBeNull();
    expect(ratio(10, 0)).toBeNull();
  });
});
