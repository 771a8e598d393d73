/**
 * The radar's raw channels at 20 Hz: chest displacement Y_DIST (mm) = breathing ×
 * envelope + heartbeat micro-motion + movement artefact + sensor noise, and I/Q, the
 * carrier phase-modulated by that displacement (4π d / λ) plus static clutter.
 */
import type { ChannelData } from '../recordings/model';
import { CODE, INT16_SCALE, MOVEMENT, RADAR, RATE_HZ } from './constants';
import { int16Channel, quantizer, sampleCount } from './channel';
import type { Envelopes } from './envelopes';
import { breathWave, phaseAt, phaseAtSeconds, pulseWave } from './phase';
import type { Physiology } from './physiology';
import type { Rng } from './prng';
import type { Scenario } from './scenario';

const MOVEMENT_POLE = MOVEMENT.radarPole;

/** Carrier phase offset per second: a new one after each movement that repositions the body. */
function bodyPhase(scenario: Scenario, rng: Rng): Float32Array {
  const phase = new Float32Array(scenario.seconds + 1);
  let current = rng.uniform(0, 2 * Math.PI);
  let next = 0;
  const moves = scenario.movements.filter((m) => m.repositions);
  for (let s = 0; s < phase.length; s++) {
    while (next < moves.length && moves[next]!.start + moves[next]!.duration <= s) {
      current = rng.uniform(0, 2 * Math.PI);
      next++;
    }
    phase[s] = current;
  }
  return phase;
}

/** Synthesises I, Q and Y_DIST; `breath` is the breathing phase at second boundaries (shared with the PSG). */
export function synthesizeRadar(
  scenario: Scenario, phys: Physiology, env: Envelopes, breath: Float64Array, rng: Rng, t0: number,
): ChannelData[] {
  const rate = RATE_HZ.radar;
  const n = sampleCount(scenario.seconds, rate);
  const y = new Int16Array(n);
  const iq = { i: new Int16Array(n), q: new Int16Array(n) };
  const qy = quantizer(INT16_SCALE.yDist, 0, true);
  const qiq = quantizer(INT16_SCALE.iq, 0, true);
  const heart = phaseAtSeconds(phys.hr, rng.uniform(0, 2 * Math.PI));
  const theta0 = bodyPhase(scenario, rng);
  const clutter = { i: rng.uniform(-0.15, 0.15), q: rng.uniform(-0.15, 0.15) };
  const radPerMm = (4 * Math.PI) / RADAR.wavelengthMm;
  const drive = MOVEMENT.radarMmPerUnit * Math.sqrt(1 - MOVEMENT_POLE * MOVEMENT_POLE);
  const last = scenario.seconds - 1;
  let artefact = 0;

  for (let k = 0; k < n; k++) {
    const t = k / rate;
    const s = Math.min(last, Math.floor(t));
    const frac = t - s;
    const here = scenario.present[s]!;
    const amp = env.radar[s]! + (env.radar[s + 1]! - env.radar[s]!) * frac;
    const intensity = phys.movement[s]!;
    artefact = intensity > 0 ? MOVEMENT_POLE * artefact + drive * intensity * rng.gauss() : MOVEMENT_POLE * artefact;
    let d = RADAR.breathMm * amp * breathWave(phaseAt(breath, phys.br, t)) + artefact;
    if (here) d += RADAR.heartbeatMm * pulseWave(phaseAt(heart, phys.hr, t));
    y[k] = qy(d + RADAR.yNoiseMm * rng.gauss());
    const echo = here ? RADAR.echoInBed : RADAR.echoEmpty;
    const theta = theta0[s]! + radPerMm * d;
    iq.i[k] = qiq(echo * Math.cos(theta) + clutter.i + RADAR.iqNoise * rng.gauss());
    iq.q[k] = qiq(echo * Math.sin(theta) + clutter.q + RADAR.iqNoise * rng.gauss());
  }
  return [
    int16Channel(CODE.I, rate, t0, iq.i, INT16_SCALE.iq),
    int16Channel(CODE.Q, rate, t0, iq.q, INT16_SCALE.iq),
    int16Channel(CODE.Y_DIST, rate, t0, y, INT16_SCALE.yDist),
  ];
}
