/** Oscillator phases that follow a per-second rate, continuous at every sample rate. */

/**
 * Phase, rad, at each second boundary (seconds + 1 values) of an oscillator whose
 * rate per second is given in cycles per minute, starting at `phase0`.
 */
export function phaseAtSeconds(perMinute: Float32Array, phase0: number): Float64Array {
  const out = new Float64Array(perMinute.length + 1);
  out[0] = phase0;
  for (let s = 0; s < perMinute.length; s++) out[s + 1] = out[s]! + (2 * Math.PI * perMinute[s]!) / 60;
  return out;
}

/** Phase at time `t` s, from the boundary phases and the per-second rates. */
export function phaseAt(boundaries: Float64Array, perMinute: Float32Array, t: number): number {
  const last = perMinute.length - 1;
  const s = Math.min(last, Math.floor(t));
  return boundaries[s]! + ((2 * Math.PI * perMinute[s]!) / 60) * (t - s);
}

/** Chest volume over one breath, about ±1: inhalation a little quicker than exhalation. */
export function breathWave(phase: number): number {
  return -Math.cos(phase) + 0.18 * Math.sin(2 * phase);
}

/** Time derivative shape of breathWave (airflow), about ±1. */
export function flowWave(phase: number): number {
  return (Math.sin(phase) + 0.36 * Math.cos(2 * phase)) / 1.2;
}

const PULSE_SHARPNESS = 6;
/** Mean of exp(k (cos θ − 1)) over a cycle, removed so the pulse has no DC: e^-k I0(k) for k = 6. */
const PULSE_MEAN = 0.1667;

/** Chest wall recoil of one heartbeat: a narrow pulse per cycle, zero-mean, peak about 0.83. */
export function pulseWave(phase: number): number {
  return Math.exp(PULSE_SHARPNESS * (Math.cos(phase) - 1)) - PULSE_MEAN;
}
