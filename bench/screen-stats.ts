// Figures of the screen half of `npm run bench:realtime` from what bench/live-probe.js
// recorded in the page (pure: unit-tested in tests/unit/screen-stats.test.ts).
import { percentile } from '../engine/percentile';

/** One recording of bench/live-probe.js, as its take() returns it. */
export interface ProbeTake {
  /** [sentMs, arrivedMs, paintedMs] per frame painted: sent on the device's clock, the others on the page's. */
  paints: number[];
  /** [rAF timestamp, work ms, draws, callbacks] per display frame. */
  frames: number[];
  /** Long tasks (ms) while recording. */
  longTasks: number[];
  longTasksObserved: boolean;
}

/** One reading of both clocks: the bench's before and after, the page's in between. */
export interface ClockReading {
  before: number;
  page: number;
  after: number;
}

/** page clock − bench clock (ms), from the reading with the shortest round trip, and its uncertainty (half that round trip). */
export function clockOffset(readings: readonly ClockReading[]): { offsetMs: number; uncertaintyMs: number } {
  if (readings.length === 0) throw new Error('no clock readings');
  const best = readings.reduce((a, b) => (b.after - b.before < a.after - a.before ? b : a));
  return { offsetMs: best.page - (best.before + best.after) / 2, uncertaintyMs: (best.after - best.before) / 2 };
}

const r2 = (v: number) => Math.round(v * 100) / 100;
const pct = (values: readonly number[], p: number) => (values.length ? r2(percentile(values, p)) : null);

export interface LatencySummary {
  frames: number;
  p50: number | null;
  p99: number | null;
  max: number | null;
  /** Device send → the frame's arrival in the page (network, ingest and its commit, fan-out, decoding). */
  arrival_p50: number | null;
  arrival_p99: number | null;
  /** Arrival in the page → painted (waiting for the display frame, drawing, raster). */
  screen_p50: number | null;
  screen_p99: number | null;
}

/**
 * Send-to-painted latency over every frame of every take (pooled, not a median of rounds).
 * `offsetMs` is the page clock minus the device's (clockOffset), taken off arrival and paint.
 */
export function latencySummary(takes: readonly ProbeTake[], offsetMs: number): LatencySummary {
  const total: number[] = [];
  const arrival: number[] = [];
  const screen: number[] = [];
  for (const t of takes) {
    for (let i = 0; i + 2 < t.paints.length; i += 3) {
      const sent = t.paints[i]!;
      const arrived = t.paints[i + 1]! - offsetMs;
      const painted = t.paints[i + 2]! - offsetMs;
      total.push(painted - sent);
      arrival.push(arrived - sent);
      screen.push(painted - arrived);
    }
  }
  return {
    frames: total.length,
    p50: pct(total, 0.5),
    p99: pct(total, 0.99),
    max: total.length ? r2(Math.max(...total)) : null,
    arrival_p50: pct(arrival, 0.5),
    arrival_p99: pct(arrival, 0.99),
    screen_p50: pct(screen, 0.5),
    screen_p99: pct(screen, 0.99),
  };
}

export interface FrameSummary {
  /** Display frames recorded, and those in which at least one plot drew. */
  frames: number;
  frames_with_draws: number;
  /** Animation-frame work of every display frame (ms). */
  p50: number | null;
  p99: number | null;
  /** The same over the frames that drew (what a like-for-like ratio compares). */
  drawn_p50: number | null;
  drawn_p99: number | null;
  /** Work per plot drawn, in the frames that drew. */
  per_draw_p50: number | null;
  draws_per_drawn_frame: number | null;
  /** Time between display frames (ms) and the share of gaps over 1.5 of its median (frames the display missed). */
  interval_p50: number | null;
  interval_p99: number | null;
  missed_pct: number | null;
  long_tasks: number | null;
  long_task_ms: number | null;
}

/** Frame figures over every take (pooled); intervals only within a take. */
export function frameSummary(takes: readonly ProbeTake[]): FrameSummary {
  const work: number[] = [];
  const drawn: number[] = [];
  const perDraw: number[] = [];
  const intervals: number[] = [];
  let draws = 0;
  let longTasks = 0;
  let longTaskMs = 0;
  for (const t of takes) {
    let last = Number.NaN;
    for (let i = 0; i + 3 < t.frames.length; i += 4) {
      const ts = t.frames[i]!;
      const w = t.frames[i + 1]!;
      const d = t.frames[i + 2]!;
      work.push(w);
      if (d > 0) {
        drawn.push(w);
        perDraw.push(w / d);
        draws += d;
      }
      if (Number.isFinite(last)) intervals.push(ts - last);
      last = ts;
    }
    longTasks += t.longTasks.length;
    longTaskMs += t.longTasks.reduce((s, v) => s + v, 0);
  }
  const observed = takes.length > 0 && takes.every((t) => t.longTasksObserved);
  const typical = intervals.length ? percentile(intervals, 0.5) : Number.NaN;
  return {
    frames: work.length,
    frames_with_draws: drawn.length,
    p50: pct(work, 0.5),
    p99: pct(work, 0.99),
    drawn_p50: pct(drawn, 0.5),
    drawn_p99: pct(drawn, 0.99),
    per_draw_p50: pct(perDraw, 0.5),
    draws_per_drawn_frame: drawn.length ? r2(draws / drawn.length) : null,
    interval_p50: pct(intervals, 0.5),
    interval_p99: pct(intervals, 0.99),
    missed_pct: intervals.length ? r2((100 * intervals.filter((v) => v > 1.5 * typical).length) / intervals.length) : null,
    long_tasks: observed ? longTasks : null,
    long_task_ms: observed ? r2(longTaskMs) : null,
  };
}

/** peer ÷ ours of a figure (how many times slower the peer is), or null when either is missing or zero. */
export function ratio(peer: number | null, ours: number | null): number | null {
  return peer === null || ours === null || ours <= 0 ? null : r2(peer / ours);
}
