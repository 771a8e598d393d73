/**
 * True vitals per second, before the device measures them: breathing rate, heart
 * rate (with the bradycardia–tachycardia swing of apneas), HRV, BRV and movement.
 */
import { APNEA_HEART, MOVEMENT, STAGE_PHYSIOLOGY, VITAL_RANGE, type StageCode } from './constants';
import type { Rng } from './prng';
import type { Scenario } from './scenario';
import { ar1Noise, ramp, smooth } from './series';
import type { SimProfile } from './types';

export interface Physiology {
  /** Breathing rate, br/min. */
  br: Float32Array;
  /** Heart rate, bpm. */
  hr: Float32Array;
  /** RMSSD, ms. */
  hrv: Float32Array;
  /** Breathing rate variability, br/min. */
  brv: Float32Array;
  /** Activity index, a.u. */
  mov: Float32Array;
  /** Movement intensity driving the radar artefacts (0 outside movements), a.u. */
  movement: Float32Array;
}


function stageSeries(scenario: Scenario, pick: (p: (typeof STAGE_PHYSIOLOGY)[StageCode]) => number, tau: number): Float32Array {
  const out = new Float32Array(scenario.seconds);
  for (let s = 0; s < out.length; s++) out[s] = pick(STAGE_PHYSIOLOGY[scenario.stage[s] as StageCode]);
  return smooth(out, tau);
}

function clamp(x: Float32Array, [lo, hi]: readonly [number, number]): Float32Array {
  for (let i = 0; i < x.length; i++) x[i] = Math.min(hi, Math.max(lo, x[i]!));
  return x;
}

/** Builds the true vitals of a scenario. */
export function buildPhysiology(scenario: Scenario, profile: SimProfile, rng: Rng): Physiology {
  const n = scenario.seconds;
  const movement = new Float32Array(n);
  for (const m of scenario.movements) {
    for (let s = m.start; s < Math.min(n, m.start + m.duration); s++) {
      const u = (s - m.start + 0.5) / m.duration;
      movement[s] = Math.max(movement[s]!, m.intensity * Math.sin(Math.PI * u) ** 0.5);
    }
  }

  const br = stageSeries(scenario, (p) => p.brOffset, 90);
  const brJitter = stageSeries(scenario, (p) => p.brJitter, 30);
  const brNoise = ar1Noise(n, rng, 20, 1);
  for (let s = 0; s < n; s++) br[s] = profile.breathingRate + br[s]! + brJitter[s]! * brNoise[s]!;
  clamp(br, VITAL_RANGE.br);

  const hr = stageSeries(scenario, (p) => p.hrOffset, 60);
  const hrNoise = ar1Noise(n, rng, 30, 1.5);
  for (let s = 0; s < n; s++) hr[s] = profile.heartRate + hr[s]! + hrNoise[s]! + (movement[s]! > 0 ? MOVEMENT.heartRateBpm : 0);
  for (const e of scenario.events) {
    if (e.kind === 'hypopnea') continue;
    const end = e.start + e.duration;
    for (let s = e.start; s < end; s++) hr[s] = hr[s]! + APNEA_HEART.duringBpm * ramp((s - e.start) / 5);
    for (let s = end; s < Math.min(n, end + APNEA_HEART.surgeLengthS); s++) {
      hr[s] = hr[s]! + APNEA_HEART.surgeBpm * Math.exp(-(s - end) / APNEA_HEART.surgeTauS);
    }
  }
  clamp(hr, VITAL_RANGE.hr);

  const hrv = stageSeries(scenario, (p) => p.hrvFactor, 60);
  const hrvNoise = ar1Noise(n, rng, 60, 0.12);
  for (let s = 0; s < n; s++) hrv[s] = profile.hrv * hrv[s]! * (1 + hrvNoise[s]!);
  clamp(hrv, VITAL_RANGE.hrv);

  const brv = stageSeries(scenario, (p) => p.brv, 60);
  const brvNoise = ar1Noise(n, rng, 40, 0.15);
  for (let s = 0; s < n; s++) brv[s] = Math.max(0.1, brv[s]! * (1 + brvNoise[s]!));
  for (const e of scenario.events) {
    for (let s = e.start; s < Math.min(n, e.start + e.duration + 30); s++) brv[s] = brv[s]! + 1.5;
  }

  const mov = stageSeries(scenario, (p) => p.mov, 20);
  const movNoise = ar1Noise(n, rng, 5, 0.5);
  for (let s = 0; s < n; s++) mov[s] = mov[s]! * (1 + Math.abs(movNoise[s]!)) + movement[s]!;

  return { br, hr, hrv, brv, mov, movement };
}
