/**
 * PSG reference channels at 25 Hz: nasal flow NC_PSG (L/s), thorax and abdomen
 * effort belts THRX_PSG and ABD_PSG (mV), driven by the same breathing phase as the
 * radar. Obstructive apneas: flow flat, belts keep moving in opposition; central
 * apneas: everything flat. SPO2_PSG is the reference oximeter at 1 Hz.
 */
import type { ChannelData } from '../recordings/model';
import { CODE, INT16_SCALE, PSG, RATE_HZ } from './constants';
import { float32Channel, int16Channel, quantizer, sampleCount } from './channel';
import type { Envelopes } from './envelopes';
import { breathWave, flowWave, phaseAt } from './phase';
import type { Physiology } from './physiology';
import type { Rng } from './prng';
import type { Scenario } from './scenario';

const { peak: PEAK, noise: NOISE, artefact: ARTEFACT } = PSG;

function lerp(a: Float32Array, s: number, frac: number): number {
  return a[s]! + (a[s + 1]! - a[s]!) * frac;
}

/** Synthesises NC_PSG, THRX_PSG, ABD_PSG and SPO2_PSG. */
export function synthesizePsg(
  scenario: Scenario, phys: Physiology, env: Envelopes, breath: Float64Array, spo2: Float32Array, rng: Rng, t0: number,
): ChannelData[] {
  const rate = RATE_HZ.psg;
  const n = sampleCount(scenario.seconds, rate);
  const flow = new Int16Array(n);
  const thorax = new Int16Array(n);
  const abdomen = new Int16Array(n);
  const qf = quantizer(INT16_SCALE.flow, 0, true);
  const qb = quantizer(INT16_SCALE.effort, 0, true);
  const last = scenario.seconds - 1;
  for (let k = 0; k < n; k++) {
    const t = k / rate;
    const s = Math.min(last, Math.floor(t));
    const frac = t - s;
    const phase = phaseAt(breath, phys.br, t);
    const shift = Math.PI * lerp(env.paradox, s, frac);
    const artefact = phys.movement[s]!;
    flow[k] = qf(PEAK.flowLps * lerp(env.flow, s, frac) * flowWave(phase) + (NOISE.flow + ARTEFACT.flow * artefact) * rng.gauss());
    thorax[k] = qb(PEAK.thoraxMv * lerp(env.thorax, s, frac) * breathWave(phase) + (NOISE.belt + ARTEFACT.belt * artefact) * rng.gauss());
    abdomen[k] = qb(PEAK.abdomenMv * lerp(env.abdomen, s, frac) * breathWave(phase + shift) + (NOISE.belt + ARTEFACT.belt * artefact) * rng.gauss());
  }
  const ref = new Float32Array(scenario.seconds);
  for (let s = 0; s < ref.length; s++) ref[s] = Math.min(100, Math.round((spo2[s]! + NOISE.spo2 * rng.gauss()) * 10) / 10);
  return [
    int16Channel(CODE.NC_PSG, rate, t0, flow, INT16_SCALE.flow),
    int16Channel(CODE.THRX_PSG, rate, t0, thorax, INT16_SCALE.effort),
    int16Channel(CODE.ABD_PSG, rate, t0, abdomen, INT16_SCALE.effort),
    float32Channel(CODE.SPO2_PSG, RATE_HZ.vital, t0, ref),
  ];
}
