// Input checks of the engine face: each throws an EngineError naming what was
// wrong, before anything is allocated, so a refused call changes nothing.
import { EngineError } from './errors';
import type { ChannelInput, ChannelRef, ThresholdBands } from './types';
import type { Ms, Px } from './units';

const MAX_SAMPLES = 0x7fff_ffff;
const MAX_PIXELS = 100_000;

/** Checks a channel to load. */
export function checkChannelInput(input: ChannelInput): void {
  checkRef(input);
  const { samples } = input;
  if (!(samples instanceof Int16Array) && !(samples instanceof Float32Array)) {
    throw new EngineError('INVALID_SAMPLES', `samples of ${describe(input)} must be an Int16Array or a Float32Array`);
  }
  if (samples.length > MAX_SAMPLES) {
    throw new EngineError('INVALID_SAMPLES', `${describe(input)} has ${samples.length} samples, more than ${MAX_SAMPLES}`);
  }
  if (input.count !== undefined && input.count !== samples.length) {
    throw new EngineError('SIZE_MISMATCH', `${describe(input)} announces ${input.count} samples but carries ${samples.length}`);
  }
  const rate = input.sampleRateHz;
  if (typeof rate !== 'number' || !Number.isFinite(rate) || rate <= 0) {
    throw new EngineError('INVALID_SAMPLE_RATE', `sample rate of ${describe(input)} must be a positive number of Hz, got ${String(rate)}`);
  }
  checkTime('t0Ms', input.t0Ms);
  for (const [name, value] of [['scale', input.scale], ['offset', input.offset]] as const) {
    if (value !== undefined && (typeof value !== 'number' || !Number.isFinite(value) || (name === 'scale' && value === 0))) {
      throw new EngineError('INVALID_SAMPLES', `${name} of ${describe(input)} must be a finite${name === 'scale' ? ', non-zero' : ''} number, got ${String(value)}`);
    }
  }
  if (input.missingCodes !== undefined && !input.missingCodes.every((c) => typeof c === 'number' && Number.isFinite(c))) {
    throw new EngineError('INVALID_SAMPLES', `missing codes of ${describe(input)} must be finite numbers`);
  }
}

/** Checks a channel reference. */
export function checkRef(ref: ChannelRef): void {
  if (typeof ref?.night !== 'string' || ref.night === '' || typeof ref.code !== 'string' || ref.code === '') {
    throw new EngineError('INVALID_CHANNEL', 'a channel needs a non-empty night and code');
  }
}

/** Checks one time in ms. */
function checkTime(name: string, t: Ms): void {
  if (typeof t !== 'number' || !Number.isFinite(t)) {
    throw new EngineError('INVALID_TIME', `${name} must be a finite time in ms, got ${String(t)}`);
  }
}

/** Checks a window [t0, t1). */
export function checkWindow(t0: Ms, t1: Ms): void {
  checkTime('t0', t0);
  checkTime('t1', t1);
  if (t1 < t0) throw new EngineError('INVALID_RANGE', `t1 (${t1}) is before t0 (${t0})`);
  if (!Number.isFinite(t1 - t0)) throw new EngineError('INVALID_RANGE', `the window from ${t0} to ${t1} is too long`);
}

/** Checks a pixel count of a view. */
export function checkPixels(pixels: Px): void {
  if (!Number.isInteger(pixels) || pixels < 1 || pixels > MAX_PIXELS) {
    throw new EngineError('INVALID_PIXELS', `pixels must be an integer from 1 to ${MAX_PIXELS}, got ${String(pixels)}`);
  }
}

/** Checks histogram edges: at least two, finite, strictly increasing. */
export function checkEdges(edges: ArrayLike<number>): void {
  if (edges.length < 2) throw new EngineError('INVALID_EDGES', `a histogram needs at least 2 edges, got ${edges.length}`);
  for (let i = 0; i < edges.length; i++) {
    if (typeof edges[i] !== 'number' || !Number.isFinite(edges[i])) {
      throw new EngineError('INVALID_EDGES', `edge ${i} is not a finite number (${String(edges[i])})`);
    }
    if (i > 0 && !(edges[i]! > edges[i - 1]!)) {
      throw new EngineError('INVALID_EDGES', `edges must increase strictly; edge ${i} (${edges[i]}) follows ${edges[i - 1]}`);
    }
  }
}

/** Checks threshold bands: finite ranges with from <= to. */
export function checkBands(bands: ThresholdBands): void {
  for (const level of ['moderate', 'severe'] as const) {
    const ranges = bands?.[level];
    if (!Array.isArray(ranges)) throw new EngineError('INVALID_BANDS', `bands.${level} must be a list of [from, to] ranges`);
    ranges.forEach((range, i) => {
      const [from, to] = Array.isArray(range) ? range : [NaN, NaN];
      if (!Number.isFinite(from) || !Number.isFinite(to) || from > to) {
        throw new EngineError('INVALID_BANDS', `bands.${level}[${i}] must be [from, to] with finite from <= to, got ${JSON.stringify(range)}`);
      }
    });
  }
}

/** Checks day boundaries: at least two finite, strictly increasing times. */
export function checkDayStarts(dayStarts: readonly Ms[], marginMs: Ms): void {
  if (dayStarts.length < 2) throw new EngineError('INVALID_DAYS', `day boundaries need at least 2 times (one day), got ${dayStarts.length}`);
  dayStarts.forEach((t, i) => {
    checkTime(`dayStarts[${i}]`, t);
    if (i > 0 && !(t > dayStarts[i - 1]!)) throw new EngineError('INVALID_DAYS', `day boundaries must increase; dayStarts[${i}] does not`);
  });
  if (!Number.isFinite(marginMs) || marginMs < 0) throw new EngineError('INVALID_DAYS', `marginMs must be a finite, non-negative ms, got ${String(marginMs)}`);
}

function describe(ref: ChannelRef): string {
  return `channel ${ref.code} of night ${ref.night}`;
}
