/**
 * The night's architecture per 30-s epoch: sleep onset latency, NREM–REM cycles of
 * about 90 minutes (deep sleep early, REM growing late), brief awakenings,
 * out-of-bed periods and the final awakening.
 */
import { STAGE, type StageCode } from './constants';
import { Occupancy } from './placement';
import type { Rng } from './prng';
import type { SimProfile } from './types';

/** Epoch range [start, end). */
export interface EpochSpan {
  start: number;
  end: number;
}

export interface Hypnogram {
  /** Device stage code per epoch. */
  stages: Uint8Array;
  /** 1 in bed, 0 out of bed, per epoch. */
  inBed: Uint8Array;
  cycles: EpochSpan[];
  outOfBed: EpochSpan[];
}

const EPOCHS_PER_MIN = 2;
const FIRST_CYCLE_MIN = [75, 95] as const;
const CYCLE_MIN = [85, 105] as const;
const FINAL_WAKE_MIN = [3, 15] as const;
const OUT_OF_BED_MIN = [3, 12] as const;
/** Out-of-bed periods start no earlier than this after sleep onset, min. */
const OUT_OF_BED_EARLIEST_MIN = 60;
const MAX_OUT_OF_BED = 2;

function fill(stages: Uint8Array, from: number, to: number, stage: StageCode): void {
  stages.fill(stage, Math.max(0, from), Math.min(stages.length, to));
}

/** Writes one cycle (light, deep, light, REM) into [start, start + length) and returns nothing past `limit`. */
function writeCycle(stages: Uint8Array, start: number, length: number, index: number, limit: number, rng: Rng): void {
  const deepShare = Math.max(0, 0.42 - 0.12 * index + 0.04 * rng.gauss());
  const remShare = Math.min(0.4, Math.max(0.07, 0.1 + 0.07 * index + 0.03 * rng.gauss()));
  const lightShare = 1 - deepShare - remShare;
  const lightA = Math.round(length * lightShare * 0.55);
  const deep = Math.round(length * deepShare);
  const rem = Math.max(3, Math.round(length * remShare));
  const lightB = Math.max(1, length - lightA - deep - rem);
  let t = start;
  const segments: Array<[number, StageCode]> = [[lightA, STAGE.light], [deep, STAGE.deep], [lightB, STAGE.light], [rem, STAGE.rem]];
  for (const [n, stage] of segments) {
    fill(stages, t, Math.min(t + n, limit), stage);
    t += n;
  }
  for (let e = start; e < Math.min(start + length, limit); e++) {
    if (stages[e] === STAGE.deep && rng.chance(0.08)) stages[e] = STAGE.light;
  }
}

/** Draws the hypnogram of a night of `epochs` epochs. */
export function buildHypnogram(epochs: number, profile: SimProfile, rng: Rng): Hypnogram {
  const stages = new Uint8Array(epochs).fill(STAGE.awake);
  const inBed = new Uint8Array(epochs).fill(1);
  const cycles: EpochSpan[] = [];
  const outOfBed: EpochSpan[] = [];

  const onset = Math.min(epochs, Math.round(rng.between(profile.sleepLatencyMin) * EPOCHS_PER_MIN));
  const sleepEnd = Math.max(onset, epochs - Math.round(rng.between(FINAL_WAKE_MIN) * EPOCHS_PER_MIN));
  let t = onset;
  while (t < sleepEnd) {
    const minutes = rng.between(cycles.length === 0 ? FIRST_CYCLE_MIN : CYCLE_MIN);
    const length = Math.round(minutes * EPOCHS_PER_MIN);
    writeCycle(stages, t, length, cycles.length, sleepEnd, rng);
    cycles.push({ start: t, end: Math.min(t + length, sleepEnd) });
    t += length;
    if (t < sleepEnd && rng.chance(0.5)) fill(stages, t, Math.min(t + rng.int(1, 3), sleepEnd), STAGE.awake);
  }

  const sleepHours = (sleepEnd - onset) / (60 * EPOCHS_PER_MIN);
  const awakenings = rng.poisson(profile.awakeningsPerHour * sleepHours);
  for (let i = 0; i < awakenings && sleepEnd - onset > 20; i++) {
    const at = rng.int(onset + 10, sleepEnd - 5);
    fill(stages, at, Math.min(at + rng.int(1, 4), sleepEnd), STAGE.awake);
  }

  const taken = new Occupancy(epochs);
  const wanted = Math.min(MAX_OUT_OF_BED, rng.poisson(profile.outOfBedPerNight));
  const earliest = onset + OUT_OF_BED_EARLIEST_MIN * EPOCHS_PER_MIN;
  for (let i = 0, tries = 0; outOfBed.length < wanted && tries < 50; tries++) {
    const length = Math.round(rng.between(OUT_OF_BED_MIN) * EPOCHS_PER_MIN);
    const before = 2;
    const after = rng.int(4, 12);
    const latest = sleepEnd - length - after - 20;
    if (latest <= earliest) break;
    const start = rng.int(earliest, latest);
    if (!taken.isFree(start - before - 20, start + length + after + 20)) continue;
    taken.take(start - before, start + length + after);
    fill(stages, start - before, start + length + after, STAGE.awake);
    inBed.fill(0, start, start + length);
    outOfBed.push({ start, end: start + length });
    i++;
  }
  outOfBed.sort((a, b) => a.start - b.start);
  return { stages, inBed, cycles, outOfBed };
}
