/**
 * Breathing amplitude per second (× normal breathing), for the radar and for each
 * PSG sensor: the sleep stage sets the level, events flatten or reduce it, big
 * breaths follow apneas, nobody breathes in an empty bed. Arrays have seconds + 1
 * points so the sample-rate synthesis can interpolate to the very end.
 */
import { BREATH_LEVEL, EVENT_AMPLITUDE, EVENT_TIMING, STAGE_PHYSIOLOGY, type StageCode } from './constants';
import type { Rng } from './prng';
import type { Scenario } from './scenario';
import { ar1Noise, smooth } from './series';

export interface Envelopes {
  /** Normal breathing (stage level with breath-to-breath jitter) that the events scale. */
  level: Float32Array;
  radar: Float32Array;
  flow: Float32Array;
  thorax: Float32Array;
  abdomen: Float32Array;
  /** 1 where thorax and abdomen move in opposition, 0 in phase. */
  paradox: Float32Array;
}


/** Builds the amplitude envelopes of a scenario. */
export function buildEnvelopes(scenario: Scenario, rng: Rng): Envelopes {
  const n = scenario.seconds + 1;
  const level = new Float32Array(n);
  for (let s = 0; s < n; s++) level[s] = STAGE_PHYSIOLOGY[scenario.stage[Math.min(s, n - 2)] as StageCode].breathAmp;
  smooth(level, BREATH_LEVEL.tauS);
  // Breath-to-breath jitter stays small so normal breathing never looks like a hypopnea.
  const jitter = ar1Noise(n, rng, BREATH_LEVEL.jitterTauS, BREATH_LEVEL.jitterSigma);
  for (let s = 0; s < n; s++) level[s] = level[s]! * (1 + jitter[s]!);

  const radar = level.slice();
  const flow = level.slice();
  const thorax = level.slice();
  const abdomen = level.slice();
  const paradox = new Float32Array(n);
  for (const e of scenario.events) {
    const end = e.start + e.duration;
    for (let s = e.start; s < end; s++) {
      radar[s] = level[s]! * e.radar;
      flow[s] = level[s]! * e.flow;
      thorax[s] = level[s]! * e.effort;
      abdomen[s] = level[s]! * e.effort;
      paradox[s] = e.paradox ? 1 : 0;
    }
    const boost = e.kind === 'hypopnea' ? (1 + EVENT_AMPLITUDE.recovery) / 2 : EVENT_AMPLITUDE.recovery;
    for (let s = end; s < Math.min(n, end + EVENT_TIMING.recoveryBreathsS); s++) {
      radar[s] = radar[s]! * boost;
      flow[s] = flow[s]! * boost;
      thorax[s] = thorax[s]! * boost;
      abdomen[s] = abdomen[s]! * boost;
    }
  }
  for (let s = 0; s < scenario.seconds; s++) if (!scenario.present[s]) radar[s] = 0;
  return { level, radar, flow, thorax, abdomen, paradox };
}
