// Threshold bands of vital parameters (spec 2 §3), in the shape the engine counts.
import type { ThresholdBands } from './types';

/** Vital parameters of BR and PR as the API names them (F = fast, S = slow). */
export interface RateVitalParameters {
  modFromF: number; modToF: number; modFromS: number; modToS: number;
  sevFromF: number; sevToF: number; sevFromS: number; sevToS: number;
}

/** Vital parameters of SPO2 as the API names them. */
export interface Spo2VitalParameters {
  modFrom: number; modTo: number; sevFrom: number; sevTo: number;
}

/** Spec defaults: br moderate 10-12 and 24-30, severe 0-10 and 30-50. */
export const DEFAULT_BR: RateVitalParameters = {
  modFromF: 24, modToF: 30, modFromS: 10, modToS: 12, sevFromF: 30, sevToF: 50, sevFromS: 0, sevToS: 10,
};
/** Spec defaults: pr moderate 100-120 fast and 55-60 slow, severe 0-55 and 120-160. */
export const DEFAULT_PR: RateVitalParameters = {
  modFromF: 100, modToF: 120, modFromS: 55, modToS: 60, sevFromF: 120, sevToF: 160, sevFromS: 0, sevToS: 55,
};
/** Spec defaults: spo2 moderate 90-93, severe 40-89. */
export const DEFAULT_SPO2: Spo2VitalParameters = { modFrom: 90, modTo: 93, sevFrom: 40, sevTo: 89 };

/** Bands of BR or PR (fast and slow ranges). */
export function rateBands(vp: RateVitalParameters): ThresholdBands {
  return {
    moderate: [[vp.modFromS, vp.modToS], [vp.modFromF, vp.modToF]],
    severe: [[vp.sevFromS, vp.sevToS], [vp.sevFromF, vp.sevToF]],
  };
}

/** Bands of SPO2. */
export function spo2Bands(vp: Spo2VitalParameters): ThresholdBands {
  return { moderate: [[vp.modFrom, vp.modTo]], severe: [[vp.sevFrom, vp.sevTo]] };
}

/** Default bands of a channel code, or undefined when it has none. */
export function defaultBands(code: string): ThresholdBands | undefined {
  switch (code) {
    case 'BR': return rateBands(DEFAULT_BR);
    case 'PR': return rateBands(DEFAULT_PR);
    case 'SPO2': return spo2Bands(DEFAULT_SPO2);
    default: return undefined;
  }
}
