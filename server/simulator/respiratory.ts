/**
 * Apneas and hypopneas, placed in sleep (mostly light sleep and REM) at the
 * profile's AHI, each with the desaturation it causes: the SpO2 nadir comes
 * 20–40 s after the end of the event. Events never overlap each other, movement or
 * wake, and their desaturations never merge.
 */
import { DESAT_DROP, EVENT_AMPLITUDE, EVENT_STAGE_WEIGHT, EVENT_TIMING, MOVEMENT, STAGE, type StageCode } from './constants';
import { Occupancy, WeightedDraw } from './placement';
import type { Rng } from './prng';
import type { Movement, RespEvent } from './scenario';
import type { SimProfile } from './types';

const TRIES_PER_EVENT = 80;

function eventKind(profile: SimProfile, rng: Rng): RespEvent['kind'] {
  if (rng.chance(profile.hypopneaShare)) return 'hypopnea';
  return rng.chance(profile.centralShare) ? 'central_apnea' : 'obstructive_apnea';
}

function duration(kind: RespEvent['kind'], rng: Rng): number {
  const [min, max] = kind === 'hypopnea' ? EVENT_TIMING.hypopneaDurationS : EVENT_TIMING.apneaDurationS;
  return Math.round(Math.min(max, min + rng.exp(EVENT_TIMING.durationTailMeanS)));
}

function desatDrop(kind: RespEvent['kind'], seconds: number, stage: StageCode, profile: SimProfile, rng: Rng): number {
  if (kind === 'hypopnea') {
    const [lo, hi] = DESAT_DROP.hypopnea;
    return Math.min(hi, Math.max(lo, lo + (hi - lo) * rng.next() * profile.desatSeverity));
  }
  const [lo, hi] = DESAT_DROP.apnea;
  const [dMin, dMax] = EVENT_TIMING.apneaDurationS;
  const byLength = lo + ((seconds - dMin) / (dMax - dMin)) * (hi - lo) * 0.8;
  const central = kind === 'central_apnea' ? 0.85 : 1;
  const rem = stage === STAGE.rem ? 1.1 : 1;
  return Math.min(hi, Math.max(lo, byLength * profile.desatSeverity * central * rem + 1.2 * rng.gauss()));
}

function shape(kind: RespEvent['kind'], rng: Rng): Pick<RespEvent, 'radar' | 'flow' | 'effort' | 'paradox'> {
  if (kind === 'hypopnea') {
    const a = rng.between(EVENT_AMPLITUDE.hypopnea);
    return { radar: a, flow: a, effort: Math.min(1, a + 0.2), paradox: false };
  }
  const radar = rng.between(EVENT_AMPLITUDE.apneaRadar);
  const flow = rng.between(EVENT_AMPLITUDE.apneaFlow);
  return kind === 'obstructive_apnea'
    ? { radar, flow, effort: rng.between(EVENT_AMPLITUDE.obstructiveEffort), paradox: true }
    : { radar, flow, effort: rng.between(EVENT_AMPLITUDE.centralEffort), paradox: false };
}

/**
 * Draws the respiratory events of a night. `taken` holds movements; events and
 * their recovery breaths are added to it. Also returns the arousal movements
 * that end some apneas.
 */
export function placeRespiratoryEvents(
  stage: Uint8Array, present: Uint8Array, profile: SimProfile, rng: Rng, taken: Occupancy,
): { events: RespEvent[]; arousals: Movement[] } {
  const seconds = stage.length;
  const weights = new Float32Array(seconds);
  let sleepSeconds = 0;
  for (let s = 0; s < seconds; s++) {
    if (!present[s] || stage[s] === STAGE.awake) continue;
    sleepSeconds++;
    weights[s] = EVENT_STAGE_WEIGHT[stage[s] as StageCode];
  }
  const draw = new WeightedDraw(weights);
  const mean = profile.ahi * (sleepSeconds / 3600);
  const wanted = Math.max(0, Math.round(mean + Math.sqrt(mean) * 0.5 * rng.gauss()));
  const desats = new Occupancy(seconds);
  const events: RespEvent[] = [];
  const gap = EVENT_TIMING.minBreathingGapS;
  const margin = EVENT_TIMING.desatMarginS;

  for (let tries = 0; events.length < wanted && tries < wanted * TRIES_PER_EVENT; tries++) {
    const start = draw.draw(rng);
    if (start < 0) break;
    const kind = eventKind(profile, rng);
    const length = duration(kind, rng);
    const end = start + length;
    if (!taken.isFree(start - gap, end + gap)) continue;
    let asleep = true;
    for (let s = start; s < end && asleep; s++) asleep = weights[s]! > 0;
    if (!asleep) continue;
    const nadir = end + rng.int(EVENT_TIMING.desatLagS[0], EVENT_TIMING.desatLagS[1]);
    const lag = nadir - end;
    const hold = rng.int(EVENT_TIMING.desatHoldS[0], EVENT_TIMING.desatHoldS[1]);
    const recovery = rng.int(EVENT_TIMING.desatRecoveryS[0], EVENT_TIMING.desatRecoveryS[1]);
    const desatStart = start + lag;
    const desatEnd = nadir + hold + recovery;
    if (!desats.isFree(desatStart - margin, desatEnd + margin)) continue;
    let oximetryInBed = true;
    for (let s = desatStart; s < desatEnd && oximetryInBed; s++) oximetryInBed = present[s] === 1;
    if (!oximetryInBed) continue;
    const at = stage[start] as StageCode;
    taken.take(start, end + EVENT_TIMING.recoveryBreathsS);
    desats.take(desatStart, desatEnd);
    events.push({
      kind, start, duration: length, stage: at, ...shape(kind, rng),
      desat: { start: desatStart, nadir, hold, recovery, drop: desatDrop(kind, length, at, profile, rng), baseline: 0 },
    });
  }
  events.sort((a, b) => a.start - b.start);

  const arousals: Movement[] = [];
  for (const event of events) {
    if (event.kind === 'hypopnea' || !rng.chance(MOVEMENT.arousalShare)) continue;
    const start = event.start + event.duration + rng.int(1, 3);
    const length = rng.int(MOVEMENT.arousalS[0], MOVEMENT.arousalS[1]);
    if (start + length > seconds) continue;
    arousals.push({ start, duration: length, intensity: rng.between(MOVEMENT.arousalIntensity), arousal: true, repositions: false });
  }
  return { events, arousals };
}
