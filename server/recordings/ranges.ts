import type { ChannelData } from './model';

/**
 * Physiological ranges per channel code: a value outside is no measurement of a living
 * patient (SpO2 255 %, a pulse of -50) and is made missing at import, counted per channel.
 * One table for every reader (EDF, BDF, CSV).
 */
export const PHYSIOLOGICAL_RANGES: Readonly<Record<string, { min: number; max: number }>> = {
  SPO2: { min: 0, max: 100 },
  SPO2_PSG: { min: 0, max: 100 },
  PR: { min: 20, max: 300 },
  HR: { min: 20, max: 300 },
  BR: { min: 0, max: 80 },
};

/** Counts of samples made missing by {@link enforceRanges}. */
interface Rejected {
  outOfRange: number;
  nonFinite: number;
}

/**
 * Makes missing every sample that is not finite or lies outside the code's physiological
 * range; samples already missing by the channel's own codes are left alone. A channel with
 * nothing to reject is returned as is (int16 samples untouched). Otherwise the samples
 * become float32 with NaN for the rejected ones: an int16 channel has no NaN, and a code
 * of our device's would mean something else. Int16 values are kept as their digital
 * values (exact in float32) with the same scale and offset, so nothing else changes.
 */
export function enforceRanges(channel: ChannelData): ChannelData {
  const range = PHYSIOLOGICAL_RANGES[channel.code];
  const { samples, scale, offset } = channel;
  const codes = channel.missingCodes ?? [];
  const bad = (s: number): 0 | 1 | 2 => {
    if (Number.isNaN(s) || codes.includes(s)) return 0;
    const v = s * scale + offset;
    if (!Number.isFinite(v) || !Number.isFinite(s)) return 2;
    return range && (v < range.min || v > range.max) ? 1 : 0;
  };
  const rejected: Rejected = { outOfRange: 0, nonFinite: 0 };
  for (let i = 0; i < samples.length; i++) {
    const b = bad(samples[i]);
    if (b === 1) rejected.outOfRange++;
    else if (b === 2) rejected.nonFinite++;
  }
  if (rejected.outOfRange === 0 && rejected.nonFinite === 0) return { ...channel, rejected };
  const out = new Float32Array(samples.length);
  for (let i = 0; i < samples.length; i++) out[i] = bad(samples[i]) === 0 ? samples[i] : Number.NaN;
  return { ...channel, storage: 'float32', samples: out, rejected };
}
