/**
 * Random runs of the "no estimate" code in vital channels: radar dropouts (all radar
 * vitals), heart-rate-only dropouts and oximeter probe dropouts. Oximeter and heart
 * dropouts keep clear of respiratory events and desaturations; a share of radar dropouts
 * may land over events (a real recording has gaps over events too: the truth list says
 * which, and the scoring truth leaves out the events a gap hides).
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
  // Radar dropouts over events only avoid the empty bed and other dropouts.
  const loose = new Occupancy(seconds);
  for (let s = 0; s < seconds; s++) if (!present[s]) loose.taken[s] = 1;
  for (const e of events) blocked.take(e.start, e.desat.nadir + e.desat.hold + e.desat.recovery);

  const hours = seconds / 3600;
  const dropouts: Dropout[] = [];
  for (const { group, perHour, durationS } of GROUPS) {
    const wanted = Math.max(1, rng.poisson(perHour(profile) * hours));
    let placed = 0;
    for (let tries = 0; placed < wanted && tries < wanted * 40; tries++) {
      const duration = rng.int(durationS[0], durationS[1]);
      const start = rng.int(0, Math.max(0, seconds - duration - 1));
      const overEvents = group === 'radar' && rng.chance(DROPOUT.overEventsShare);
      const room = overEvents ? loose : blocked;
      if (!room.isFree(start - MARGIN_S, start + duration + MARGIN_S)) continue;
      blocked.take(start, start + duration);
      loose.take(start, start + duration);
      dropouts.push({ start, duration, group });
      placed++;
    }
  }
  dropouts.sort((a, b) => a.start - b.start);
  return dropouts;
}
