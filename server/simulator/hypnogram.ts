/**
 * The night's architecture per 30-s epoch: sleep onset latency, NREM–REM cycles of
 * about 90 minutes (deep sleep early, REM growing late), brief awakenings,
 * out-of-bed periods and the final awakening.
 */
import { EPOCH_S, SLEEP_ARCHITECTURE, STAGE, type StageCode } from './constants';
import { Occupancy } from './placement';
import type { Rng } from './prng';
import type { SimProfile } from './types';

/** Epoch range [start, end). */
interface EpochSpan {
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

const EPOCHS_PER_MIN = 60 / EPOCH_S;
const { firstCycleMin, cycleMin, finalWakeMin, outOfBedMin, outOfBedEarliestMin, maxOutOfBed, deepShare: DEEP, remShare: REM } = SLEEP_ARCHITECTURE;

function fill(stages: Uint8Array, from: number, to: number, stage: StageCode): void {
  stages.fill(stage, Math.max(0, from), Math.min(stages.length, to));
}

/** Writes one cycle (light, deep, light, REM) into [start, start + length), nothing at or past `limit`. */
function writeCycle(stages: Uint8Array, start: number, length: number, index: number, limit: number, rng: Rng): void {
  const deepShare = Math.max(0, DEEP.first + DEEP.perCycle * index + DEEP.sigma * rng.gauss());
  const remShare = Math.min(REM.max, Math.max(REM.min, REM.first + REM.perCycle * index + REM.sigma * rng.gauss()));
  const lightShare = 1 - deepShare - remShare;
  const lightA = Math.round(length * lightShare * SLEEP_ARCHITECTURE.lightBeforeDeep);
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
    if (stages[e] === STAGE.deep && rng.chance(SLEEP_ARCHITECTURE.deepFlicker)) stages[e] = STAGE.light;
  }
}

/** Draws the hypnogram of a night of `epochs` epochs. */
export function buildHypnogram(epochs: number, profile: SimProfile, rng: Rng): Hypnogram {
  const stages = new Uint8Array(epochs).fill(STAGE.awake);
  const inBed = new Uint8Array(epochs).fill(1);
  const cycles: EpochSpan[] = [];
  const outOfBed: EpochSpan[] = [];

  const onset = Math.min(epochs, Math.round(rng.between(profile.sleepLatencyMin) * EPOCHS_PER_MIN));
  const sleepEnd = Math.max(onset, epochs - Math.round(rng.between(finalWakeMin) * EPOCHS_PER_MIN));
  let t = onset;
  while (t < sleepEnd) {
    const minutes = rng.between(cycles.length === 0 ? firstCycleMin : cycleMin);
    const length = Math.round(minutes * EPOCHS_PER_MIN);
    writeCycle(stages, t, length, cycles.length, sleepEnd, rng);
    cycles.push({ start: t, end: Math.min(t + length, sleepEnd) });
    t += length;
    if (t < sleepEnd && rng.chance(SLEEP_ARCHITECTURE.wakeBetweenCycles)) fill(stages, t, Math.min(t + rng.int(1, 3), sleepEnd), STAGE.awake);
  }

  const sleepHours = (sleepEnd - onset) / (60 * EPOCHS_PER_MIN);
  const awakenings = rng.poisson(profile.awakeningsPerHour * sleepHours);
  for (let i = 0; i < awakenings && sleepEnd - onset > 20; i++) {
    const at = rng.int(onset + 10, sleepEnd - 5);
    fill(stages, at, Math.min(at + rng.int(1, 4), sleepEnd), STAGE.awake);
  }

  const taken = new Occupancy(epochs);
  const wanted = Math.min(maxOutOfBed, rng.poisson(profile.outOfBedPerNight));
  const earliest = onset + outOfBedEarliestMin * EPOCHS_PER_MIN;
  for (let tries = 0; outOfBed.length < wanted && tries < 50; tries++) {
    const length = Math.round(rng.between(outOfBedMin) * EPOCHS_PER_MIN);
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
  }
  outOfBed.sort((a, b) => a.start - b.start);
  return { stages, inBed, cycles, outOfBed };
}
