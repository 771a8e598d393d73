import { MISSING_CODES, type ChannelData } from '../model';

/**
 * Quantises a channel's physical values to EDF int16 so that the device's missing codes
 * (-1, -2) survive a write/read round trip bit for bit.
 *
 * The scale is a power of two, 2^-k, the digital range is ±32000 and the offset is 0:
 * the physical range ±32000·2^-k then has a short exact decimal form (e.g. ±31.25 for
 * k = 10, ±3.90625 for k = 13) that fits the 8-character header fields, a reader's
 * (pmax - pmin) / (dmax - dmin) gives exactly 2^-k back with offset exactly 0, and every
 * whole number — -1 and -2 among them — is a digital value while k ≥ 0 (-2^k, -2^(k+1)). The range is
 * the smallest such one covering the data and ±2, so one step is at most twice the finest
 * step the data would allow. Non-finite values (NaN from a gap) are written as -1.
 * Only channels with values beyond ±32000 (step above 1) cannot keep -1 exact: EDF's 16
 * bits cannot hold both such a range and unit steps.
 */

/** Digital range ±32000: a multiple of 2^8, so ±32000·2^-k stays a short decimal. */
export const DIGITAL_LIMIT = 32000;
/** 2^-13: ±3.90625, the narrowest range that still holds -2. */
const MAX_K = 13;
/** 2^8: ±8,192,000, the widest range whose minimum fits in 8 characters. */
const MIN_K = -8;

/** A channel ready for an EDF signal: header numbers as written, and the digital samples. */
export interface QuantisedSignal {
  physicalMin: string;
  physicalMax: string;
  digitalMin: number;
  digitalMax: number;
  /** Physical value of one digital step. */
  step: number;
  digital: Int16Array;
}

/** Quantises `channel` (int16 or float32) to int16 with a power-of-two scale (see module doc). */
export function quantiseChannel(channel: ChannelData): QuantisedSignal {
  const { samples, scale, offset } = channel;
  const isInt = channel.storage === 'int16';
  let peak = Math.max(...MISSING_CODES.map(Math.abs));
  for (let i = 0; i < samples.length; i++) {
    const v = isInt ? samples[i] * scale + offset : samples[i];
    if (Number.isFinite(v) && Math.abs(v) > peak) peak = Math.abs(v);
  }
  const k = chooseExponent(peak, channel.code);
  const step = 2 ** -k;
  const digital = new Int16Array(samples.length);
  const inverse = 2 ** k;
  for (let i = 0; i < samples.length; i++) {
    const v = isInt ? samples[i] * scale + offset : samples[i];
    digital[i] = Number.isFinite(v) ? Math.round(v * inverse) : MISSING_CODES[0] * inverse;
  }
  const range = DIGITAL_LIMIT * step;
  return {
    physicalMin: String(-range),
    physicalMax: String(range),
    digitalMin: -DIGITAL_LIMIT,
    digitalMax: DIGITAL_LIMIT,
    step,
    digital,
  };
}

/** Largest k in [MIN_K, MAX_K] with 32000·2^-k ≥ peak. */
function chooseExponent(peak: number, code: string): number {
  for (let k = MAX_K; k >= MIN_K; k--) {
    if (DIGITAL_LIMIT * 2 ** -k >= peak) return k;
  }
  throw new RangeError(`channel ${code}: values up to ${peak} do not fit an 8-character EDF physical range`);
}
