/** simulateNight: one full radar night with its ground truth, deterministic from a seed. */
import { CODE, EPOCH_S, HOUR_MS, SECOND_MS, SIMULATOR_VERSION, STAGE } from './constants';
import { deviceVitals } from './vitals';
import { placeDropouts } from './dropouts';
import { epochChannels } from './epochs';
import { buildEnvelopes } from './envelopes';
import { buildHypnogram } from './hypnogram';
import { placeMovements } from './movements';
import { phaseAtSeconds } from './phase';
import { buildPhysiology } from './physiology';
import { Occupancy } from './placement';
import { stream } from './prng';
import { resolveProfile } from './profiles';
import { synthesizePsg } from './psg';
import { synthesizeRadar } from './radar';
import { placeRespiratoryEvents } from './respiratory';
import { buildSaturation } from './saturation';
import { perSecond, type Scenario } from './scenario';
import { sparseChannels } from './sparse';
import { buildTruth } from './truth';
import type { SimulatedNight, SimulateOptions } from './types';
import { writtenBreaths, writtenDesaturation } from './written';

const DEFAULT_DURATION_MS = 8 * HOUR_MS;
export const DEFAULT_TIMEZONE = 'Europe/Vienna';
/** Shortest night the simulator makes, ms. */
const MIN_DURATION_MS = 10 * 60 * SECOND_MS;

/**
 * Simulates one night. Channels: I, Q, Y_DIST (20 Hz int16); BR, BRV, HR, HRV, MOV,
 * SPO2, PR (1 Hz float32); SQB (1 Hz int16); SLP_STGS, SA, TB (1/30 Hz int16); bp,
 * bp_diastolic, blood_sugar, body_temp, weight (1/1800 Hz float32, sparse); with
 * `psg`, NC_PSG, THRX_PSG, ABD_PSG (25 Hz int16) and SPO2_PSG (1 Hz float32). All
 * start at `startMs`. The same options give byte-identical output. Throws RangeError
 * on a non-finite start, a duration under 10 minutes or an unknown profile name.
 */
export function simulateNight(opts: SimulateOptions): SimulatedNight {
  const { seed, startMs } = opts;
  const durationMs = opts.durationMs ?? DEFAULT_DURATION_MS;
  if (!Number.isFinite(startMs)) throw new RangeError('simulateNight: startMs must be a finite number of ms');
  if (!(durationMs >= MIN_DURATION_MS)) throw new RangeError(`simulateNight: durationMs must be at least ${MIN_DURATION_MS}`);
  const profile = resolveProfile(opts.profile);
  const timezone = opts.timezone ?? DEFAULT_TIMEZONE;
  const psg = opts.psg ?? false;
  const seconds = Math.floor(durationMs / SECOND_MS);
  const t0 = startMs;

  const hypnogram = buildHypnogram(Math.ceil(seconds / EPOCH_S), profile, stream(seed, 'hypnogram'));
  const { stage, present } = perSecond(hypnogram, seconds, EPOCH_S);
  const taken = new Occupancy(seconds);
  const movements = placeMovements(stage, present, hypnogram, profile, stream(seed, 'movements'), taken);
  const { events, arousals } = placeRespiratoryEvents(stage, present, profile, stream(seed, 'respiratory'), taken);
  for (const a of arousals) taken.take(a.start, a.start + a.duration);
  movements.push(...arousals);
  movements.sort((a, b) => a.start - b.start);
  const dropouts = placeDropouts(present, events, profile, stream(seed, 'dropouts'), taken);
  const scenario: Scenario = { seconds, hypnogram, stage, present, movements, events, dropouts };

  const envelopes = buildEnvelopes(scenario, stream(seed, 'envelopes'));
  const spo2 = buildSaturation(scenario, profile, stream(seed, 'saturation'));
  const physiology = buildPhysiology(scenario, profile, stream(seed, 'physiology'));
  const breath = phaseAtSeconds(physiology.br, stream(seed, 'breath').uniform(0, 2 * Math.PI));

  const channels = [
    ...synthesizeRadar(scenario, physiology, envelopes, breath, stream(seed, 'radar'), t0),
    ...deviceVitals(scenario, physiology, spo2, stream(seed, 'vitals'), t0),
    ...epochChannels(hypnogram, t0),
    ...(psg ? synthesizePsg(scenario, physiology, envelopes, breath, spo2, stream(seed, 'psg'), t0) : []),
    ...sparseChannels(seconds, profile, stream(seed, 'sparse'), t0),
  ];

  // The SpO2 the detectors read (SPO2; SPO2_PSG only when SPO2 is absent).
  const spo2Written = channels.find((c) => c.code === CODE.SPO2)!.samples as Float32Array;
  let sleepEpochs = 0;
  for (const s of hypnogram.stages) if (s !== STAGE.awake) sleepEpochs++;
  const sleepHours = (sleepEpochs * EPOCH_S) / 3600;
  return {
    startMs,
    stopMs: startMs + seconds * SECOND_MS,
    timezone,
    channels,
    events: [],
    meta: {
      source: 'simulator',
      simulatorVersion: SIMULATOR_VERSION,
      seed: String(seed),
      profile: profile.name,
      psg,
      targetAhi: profile.ahi,
      respiratoryEvents: events.length,
      sleepHours: Math.round(sleepHours * 100) / 100,
      ahi: sleepHours > 0 ? Math.round((events.length / sleepHours) * 10) / 10 : 0,
    },
    truth: buildTruth(scenario, startMs, (e) => {
      const d = e.desat;
      return {
        radar: writtenBreaths(e, { envelope: envelopes.radar, level: envelopes.level }, breath, physiology.br),
        flow: writtenBreaths(e, { envelope: envelopes.flow, level: envelopes.level }, breath, physiology.br),
        desaturation: writtenDesaturation(spo2Written, d.start, d.nadir + d.hold + d.recovery),
      };
    }),
  };
}
