/**
 * True arterial saturation per second: a slowly drifting baseline and, for every
 * respiratory event, a fall that starts `lag` s after the event's onset and reaches
 * its nadir `lag` s after the event's end (20–40 s), a short plateau, then recovery.
 * Fills each event's desaturation baseline.
 */
import { SPO2_BASELINE, STAGE, VITAL_RANGE } from './constants';
import type { Rng } from './prng';
import type { Scenario } from './scenario';
import { ar1Noise, ramp, smooth } from './series';
import type { SimProfile } from './types';

const BASELINE_RANGE = VITAL_RANGE.spo2Baseline;

/** The true SpO2 curve, %, one value per second. */
export function buildSaturation(scenario: Scenario, profile: SimProfile, rng: Rng): Float32Array {
  const n = scenario.seconds;
  const baseline = ar1Noise(n, rng, SPO2_BASELINE.driftTauS, SPO2_BASELINE.driftSigma);
  const shift = new Float32Array(n);
  for (let s = 0; s < n; s++) {
    const stage = scenario.stage[s];
    shift[s] = stage === STAGE.rem ? SPO2_BASELINE.remShift : stage === STAGE.deep ? SPO2_BASELINE.deepShift : 0;
  }
  smooth(shift, SPO2_BASELINE.shiftTauS);
  for (let s = 0; s < n; s++) {
    const v = profile.spo2Baseline + baseline[s]! + shift[s]!;
    baseline[s] = Math.min(BASELINE_RANGE[1], Math.max(BASELINE_RANGE[0], v));
  }

  const spo2 = baseline.slice();
  for (const e of scenario.events) {
    const d = e.desat;
    d.baseline = Math.round(baseline[d.start]! * 10) / 10;
    const fall = d.nadir - d.start;
    const end = Math.min(n, d.nadir + d.hold + d.recovery);
    for (let s = d.start; s < end; s++) {
      let depth: number;
      if (s <= d.nadir) depth = ramp((s - d.start) / fall);
      else if (s <= d.nadir + d.hold) depth = 1;
      else depth = 1 - ramp((s - d.nadir - d.hold) / d.recovery);
      spo2[s] = baseline[s]! - d.drop * depth;
    }
  }
  return spo2;
}
