/**
 * The drawn plan of a night on a per-second grid, before any signal exists:
 * stage and presence per second and the events (seconds from the start).
 */
import type { StageCode } from './constants';
import type { Hypnogram } from './hypnogram';

export interface Movement {
  start: number;
  duration: number;
  /** Peak MOV, a.u. */
  intensity: number;
  arousal: boolean;
  /** Whether the body ends in a new position (new radar phase). */
  repositions: boolean;
}

interface Desaturation {
  /** Start of the fall, nadir time, s. */
  start: number;
  nadir: number;
  hold: number;
  recovery: number;
  /** %, and the baseline it is measured from (filled in once the SpO2 curve exists). */
  drop: number;
  baseline: number;
}

export interface RespEvent {
  kind: 'obstructive_apnea' | 'central_apnea' | 'hypopnea';
  start: number;
  duration: number;
  stage: StageCode;
  /** Breathing amplitude during the event, × normal: radar, nasal flow, thorax and abdomen effort. */
  radar: number;
  flow: number;
  effort: number;
  /** Thorax and abdomen move in opposition. */
  paradox: boolean;
  desat: Desaturation;
}

/** Which vital channels a dropout blanks. */
export type DropoutGroup = 'radar' | 'heart' | 'oximeter';

export interface Dropout {
  start: number;
  duration: number;
  group: DropoutGroup;
}

export interface Scenario {
  /** Whole seconds in the night. */
  seconds: number;
  hypnogram: Hypnogram;
  /** Stage code and presence (1 in bed) per second. */
  stage: Uint8Array;
  present: Uint8Array;
  movements: Movement[];
  events: RespEvent[];
  dropouts: Dropout[];
}

/** Per-second stage and presence from the per-epoch hypnogram. */
export function perSecond(hypnogram: Hypnogram, seconds: number, epochS: number): { stage: Uint8Array; present: Uint8Array } {
  const stage = new Uint8Array(seconds);
  const present = new Uint8Array(seconds);
  for (let s = 0; s < seconds; s++) {
    const e = Math.floor(s / epochS);
    stage[s] = hypnogram.stages[e]!;
    present[s] = hypnogram.inBed[e]!;
  }
  return { stage, present };
}
