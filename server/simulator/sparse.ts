/**
 * Spot measurements: bp (systolic; bp_diastolic carries the diastolic value at the
 * same instants), blood_sugar, body_temp and weight. Each is a float32 channel with
 * one slot per 30 min (sampleRate 1/1800 Hz): a few slots hold a measurement, every
 * other slot holds the missing code -1.
 */
import type { ChannelData } from '../recordings/model';
import { CODE, MISSING, RATE_HZ, TEMP_DIP_C } from './constants';
import { float32Channel, sampleCount } from './channel';
import type { Rng } from './prng';
import type { SimProfile } from './types';


function channel(code: string, slots: number, t0: number, values: Array<[slot: number, value: number]>): ChannelData {
  const samples = new Float32Array(slots).fill(MISSING.noEstimate);
  for (const [slot, value] of values) samples[Math.min(slots - 1, Math.max(0, slot))] = value;
  return float32Channel(code, RATE_HZ.sparse, t0, samples);
}

const round = (x: number, step: number): number => Math.round(x / step) * step;

/** Builds bp, bp_diastolic, blood_sugar, body_temp and weight for a night of `seconds` s. */
export function sparseChannels(seconds: number, profile: SimProfile, rng: Rng, t0: number): ChannelData[] {
  const slots = sampleCount(seconds, RATE_HZ.sparse);
  const last = slots - 1;
  const mid = Math.floor(slots / 2);
  const evening = { sys: profile.systolic + 5 * rng.gauss(), dia: profile.diastolic + 3 * rng.gauss() };
  const morning = { sys: profile.systolic + 4 + 5 * rng.gauss(), dia: profile.diastolic + 2 + 3 * rng.gauss() };
  const temp = profile.bodyTemp + 0.15 * rng.gauss();
  return [
    channel(CODE.BP, slots, t0, [[0, Math.round(evening.sys)], [last, Math.round(morning.sys)]]),
    channel(CODE.BP_DIASTOLIC, slots, t0, [[0, Math.round(evening.dia)], [last, Math.round(morning.dia)]]),
    channel(CODE.BLOOD_SUGAR, slots, t0, [
      [0, Math.round(profile.glucose + 8 * rng.gauss())],
      [last, Math.round(profile.glucose - 10 + 6 * rng.gauss())],
    ]),
    channel(CODE.BODY_TEMP, slots, t0, [
      [0, round(temp, 0.1)],
      [mid, round(temp - TEMP_DIP_C + 0.1 * rng.gauss(), 0.1)],
      [last, round(temp - 0.15 + 0.1 * rng.gauss(), 0.1)],
    ]),
    channel(CODE.WEIGHT, slots, t0, [[0, round(profile.weightKg + 0.4 * rng.gauss(), 0.1)]]),
  ];
}
