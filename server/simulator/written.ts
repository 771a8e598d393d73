/**
 * What the generator actually wrote for each event, measured on its own noise-free signal
 * (issue 12): the truth of a simulated night must describe the signal, not only the
 * parameters drawn before synthesis.
 * - Breathing: AASM measures apneas and hypopneas alike "from the nadir preceding the
 *   first breath that is clearly reduced to the beginning of the first breath that
 *   approximates the baseline breathing amplitude". Breaths are the generator's own cycles
 *   (volume minimum to volume minimum of its breathing phase); a breath's size is the mean
 *   written envelope over it, as a fraction of the baseline (AASM: the breathing of the 2
 *   minutes before the event, {@link baselineLevel}); clearly reduced is ≤ 70 %
 *   (the smallest drop AASM scores). The event is the run of whole clearly reduced breaths
 *   that meets the drawn event, and its residual the size of its smallest breath: a drawn
 *   9-s event in a 4-s rhythm can be written as two reduced breaths (8 s) or three (12 s).
 * - SpO2: the drop is the written level before the fall (median of the 10 samples before
 *   it) minus the lowest written sample of the desaturation: after the oximeter's noise
 *   and its 1-% steps, a drawn 2.6 % fall can read 3 points.
 */
import { breathWave } from './phase';
import type { RespEvent } from './scenario';
import { AASM } from './scoring-truth';

interface WrittenSpan {
  /** Seconds from the start of the night. */
  start: number;
  duration: number;
}

/** An event as written: its run of whole clearly reduced breaths and the size of the smallest. */
export interface WrittenBreaths extends WrittenSpan {
  /** Smallest breath, fraction of normal breathing. */
  residual: number;
}

/** How far around an event breaths are looked at, s (two slow breaths). */
const AROUND_S = 16;
/** Sampling step over one breath, s. */
const STEP_S = 0.02;

/** The phase of the volume minimum (the start of inspiration) of the breathing wave, found numerically once. */
const BREATH_START = (() => {
  let min = Infinity;
  let at = 0;
  for (let k = 0; k < 3600; k++) {
    const p = (k / 3600) * 2 * Math.PI;
    if (breathWave(p) < min) [min, at] = [breathWave(p), p];
  }
  return at;
})();

export interface BreathingSignal {
  /** The written envelope per second (seconds + 1 points) and the normal breathing level it scales. */
  envelope: Float32Array;
  level: Float32Array;
}

/** Breath boundaries (volume minima of the breathing phase) in [from, to) s. */
function breathStarts(phases: Float64Array, perMinute: Float32Array, from: number, to: number): number[] {
  const out: number[] = [];
  const twoPi = 2 * Math.PI;
  for (let s = Math.max(0, Math.floor(from)); s < Math.min(perMinute.length, Math.ceil(to)); s++) {
    const p0 = phases[s]!;
    const p1 = phases[s + 1]!;
    for (let k = Math.ceil((p0 - BREATH_START) / twoPi); BREATH_START + twoPi * k < p1; k++) {
      out.push(s + (BREATH_START + twoPi * k - p0) / (p1 - p0));
    }
  }
  return out;
}

const lerp = (a: Float32Array, t: number) => {
  const s = Math.min(a.length - 2, Math.floor(t));
  return a[s]! + (a[s + 1]! - a[s]!) * (t - s);
};

/**
 * The written size of one breath, as a fraction of normal breathing: the mean over the
 * breath of the envelope the generator multiplied its wave by, over the baseline. (A
 * peak-to-peak would read the displacement's troughs, which sit on the breath boundaries
 * and so belong half to the breath before: a breath would look normal for its neighbour.)
 */
function breathSize(signal: BreathingSignal, from: number, to: number, baseline: number): number {
  if (!(baseline > 0)) return 1;
  let sum = 0;
  let count = 0;
  for (let t = from; t < to; t += STEP_S) {
    sum += lerp(signal.envelope, t) / baseline;
    count++;
  }
  return count > 0 ? sum / count : 1;
}

/** AASM's baseline: the breathing of the 2 minutes before the event, s. */
const BASELINE_S = 120;

/**
 * The event's baseline as AASM defines it: the normal breathing (the generator's level,
 * which events do not touch) over the 2 minutes before the event's onset, its median. Not
 * the level during the event: where the level rises at a stage change, a scorer reading
 * the 2 minutes before sees a smaller drop than the factor drawn.
 */
export function baselineLevel(level: Float32Array, start: number): number {
  const v = Array.from(level.subarray(Math.max(0, start - BASELINE_S), Math.max(0, start))).filter((x) => x > 0);
  if (v.length === 0) return level[Math.max(0, Math.min(level.length - 1, start))]!;
  v.sort((a, b) => a - b);
  return v[v.length >> 1]!;
}

/**
 * The run of whole clearly reduced breaths the generator wrote for one event on one
 * breathing signal (the longest that meets the drawn event); null when no breath there is
 * clearly reduced.
 */
export function writtenBreaths(event: RespEvent, signal: BreathingSignal, phases: Float64Array, perMinute: Float32Array): WrittenBreaths | null {
  const starts = breathStarts(phases, perMinute, event.start - AROUND_S, event.start + event.duration + AROUND_S);
  const base = baselineLevel(signal.level, event.start);
  const breaths = starts.slice(0, -1).map((from, k) => ({ from, to: starts[k + 1]!, ratio: breathSize(signal, from, starts[k + 1]!, base) }));
  let best: WrittenBreaths | null = null;
  let run = -1;
  for (let k = 0; k <= breaths.length; k++) {
    const reduced = k < breaths.length && breaths[k]!.ratio <= AASM.hypopneaResidual;
    if (reduced && run < 0) run = k;
    if (reduced || run < 0) continue;
    const start = breaths[run]!.from;
    const end = breaths[k - 1]!.to;
    const residual = Math.min(...breaths.slice(run, k).map((b) => b.ratio));
    run = -1;
    const meets = start < event.start + event.duration && end > event.start;
    if (meets && (!best || end - start > best.duration)) best = { start, duration: end - start, residual: Math.round(residual * 1000) / 1000 };
  }
  return best;
}

/** The written SpO2 of a desaturation: level before the fall, lowest sample, and their difference. */
export interface WrittenDesaturation {
  baseline: number;
  nadir: number;
  drop: number;
}

/** Samples before the fall that give its written level. */
const LEVEL_SAMPLES = 10;
const valid = (v: number) => Number.isFinite(v) && v > 0;

/** Measures one desaturation [start, end) s on the written 1 Hz SpO2; null when too little of it was written. */
export function writtenDesaturation(spo2: Float32Array, start: number, end: number): WrittenDesaturation | null {
  const before = Array.from(spo2.subarray(Math.max(0, start - LEVEL_SAMPLES), start)).filter(valid).sort((a, b) => a - b);
  const during = Array.from(spo2.subarray(start, Math.min(spo2.length, end))).filter(valid);
  if (before.length * 2 < LEVEL_SAMPLES || during.length * 2 < end - start) return null;
  const baseline = before[before.length >> 1]!;
  const nadir = Math.min(...during);
  return { baseline, nadir, drop: Math.round((baseline - nadir) * 10) / 10 };
}
