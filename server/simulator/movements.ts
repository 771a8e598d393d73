/** Body movement bursts: spontaneous ones (mostly while awake or in light sleep) and those around getting up. */
import { EPOCH_S, MOVEMENT, STAGE, type StageCode } from './constants';
import { Occupancy, WeightedDraw } from './placement';
import type { Rng } from './prng';
import type { Movement } from './scenario';
import type { Hypnogram } from './hypnogram';
import type { SimProfile } from './types';

const DURATION_S = MOVEMENT.durationS;

/** Draws movements; every one is marked in `taken` (so respiratory events avoid them). */
export function placeMovements(
  stage: Uint8Array, present: Uint8Array, hypnogram: Hypnogram, profile: SimProfile, rng: Rng, taken: Occupancy,
): Movement[] {
  const seconds = stage.length;
  const movements: Movement[] = [];
  const add = (start: number, duration: number, intensity: number): void => {
    movements.push({ start, duration, intensity, arousal: false, repositions: rng.chance(MOVEMENT.repositionShare) });
    taken.take(start, start + duration);
  };
  for (const span of hypnogram.outOfBed) {
    const up = Math.round(rng.between(MOVEMENT.gettingUpS));
    const back = Math.round(rng.between(MOVEMENT.gettingUpS));
    const start = span.start * EPOCH_S;
    const end = Math.min(seconds, span.end * EPOCH_S);
    if (start - up >= 0) add(start - up, up, rng.between(MOVEMENT.gettingUpIntensity));
    if (end + back <= seconds) add(end, back, rng.between(MOVEMENT.gettingUpIntensity));
  }

  const weights = new Float32Array(seconds);
  let inBedSeconds = 0;
  for (let s = 0; s < seconds; s++) {
    if (!present[s]) continue;
    inBedSeconds++;
    weights[s] = MOVEMENT.stageWeight[stage[s] as StageCode] ?? 1;
  }
  const draw = new WeightedDraw(weights);
  const wanted = rng.poisson(profile.movementsPerHour * (inBedSeconds / 3600));
  let placed = 0;
  for (let tries = 0; placed < wanted && tries < wanted * 20; tries++) {
    const start = draw.draw(rng);
    const duration = Math.round(Math.min(DURATION_S.max, DURATION_S.min + rng.exp(DURATION_S.mean - DURATION_S.min)));
    if (start < 0 || !taken.isFree(start - 5, start + duration + 5)) continue;
    let inBed = true;
    for (let s = start; s < start + duration; s++) if (!present[s]) inBed = false;
    if (!inBed) continue;
    const awake = stage[start] === STAGE.awake;
    add(start, duration, rng.between(MOVEMENT.intensity) * (awake ? 1 : 0.8));
    placed++;
  }
  return movements;
}
