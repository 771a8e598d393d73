/**
 * Random runs of the "no estimate" code in vital channels: radar dropouts (all radar
 * vitals), heart-rate-only dropouts and oximeter probe dropouts. They keep clear of
 * respiratory events and desaturations so detectors can be scored on clean truth.
 */
import { DROPOUT } from './constants';
import { Occupancy } from './placement';
import type { Rng } from './prng';
import type { Dropout, DropoutGroup, RespEvent } from './scenario';
import type { SimProfile } from './types';

const GROUPS: Array<{ group: DropoutGroup; perHour: (p: SimProfile) => number; durationS: readonly [number, number] }> = [
  { group: 'radar', perHour: (p) => p.dropoutsPerHour, durationS: DROPOUT.radarS },
  { group: 'heart', perHour: (p) => p.dropoutsPerHour * DROPOUT.heartShare, durationS: DROPOUT.heartS },
  { group: 'oximeter', perHour: (p) => p.dropoutsPerHour * DROPOUT.oximeterShare, durationS: DROPOUT.oximeterS },
];
const MARGIN_S = DROPOUT.marginS;

/** Draws dropouts in bed, away from `taken` (movements, events) and from every desaturation. */
export function placeDropouts(
  present: Uint8Array, events: RespEvent[], profile: SimProfile, rng: Rng, taken: Occupancy,
): Dropout[] {
  const seconds = present.length;
  const blocked = new Occupancy(seconds);
  blocked.taken.set(taken.taken);
  for (let s = 0; s < seconds; s++) if (!present[s]) blocked.taken[s] = 1;
  for (const e of events) blocked.take(e.start, e.desat.nadir + e.desat.hold + e.desat.recovery);

  const hours = seconds / 3600;
  const dropouts: Dropout[] = [];
  for (const { group, perHour, durationS } of GROUPS) {
    const wanted = Math.max(1, rng.poisson(perHour(profile) * hours));
    let placed = 0;
    for (let tries = 0; placed < wanted && tries < wanted * 40; tries++) {
      const duration = rng.int(durationS[0], durationS[1]);
      const start = rng.int(0, Math.max(0, seconds - duration - 1));
      if (!blocked.isFree(start - MARGIN_S, start + duration + MARGIN_S)) continue;
      blocked.take(start, start + duration);
      dropouts.push({ start, duration, group });
      placed++;
    }
  }
  dropouts.sort((a, b) => a.start - b.start);
  return dropouts;
}
