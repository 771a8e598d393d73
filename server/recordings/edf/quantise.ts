import { MISSING_CODES, type ChannelData } from '../model';

/**
 * Quantises a channel's physical values to EDF int16, for channels whose samples are not
 * already a file's digital values (float32 from CSV or the simulator).
 *
 * The scale is a power of two, 2^-k, the digital range is ±32000 and the offset is 0:
 * the physical range ±32000·2^-k then has a short exact decimal form (e.g. ±31.25 for
 * k = 10, ±3.90625 for k = 13) that fits the 8-character header fields, a reader's
 * (pmax - pmin) / (dmax - dmin) gives exactly 2^-k back with offset exactly 0, and every
 * whole number is a digital value while k ≥ 0. The range is the smallest such one covering
 * the data (and ±2), so one step is at most twice the finest step the data would allow.
 * Missing samples are skipped here: the writer puts its padding value there (writer.ts).
 */

/** Digital range ±32000: a multiple of 2^8, so ±32000·2^-k stays a short decimal. */
const DIGITAL_LIMIT = 32000;
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
  /** Digital samples; 0 where `missing(i)` (the writer pads those). */
  digital: Int16Array;
}

/** Quantises `channel` (int16 or float32, physical = stored * scale + offset) to int16 (see module doc). */
export function quantiseChannel(channel: ChannelData, missing: (i: number) => boolean = () => false): QuantisedSignal {
  const { samples, scale, offset } = channel;
  let peak = Math.max(...MISSING_CODES.map(Math.abs));
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i] * scale + offset;
    if (!missing(i) && Number.isFinite(v) && Math.abs(v) > peak) peak = Math.abs(v);
  }
  const k = chooseExponent(peak, channel.code);
  const step = 2 ** -k;
  const digital = new Int16Array(samples.length);
  const inverse = 2 ** k;
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i] * scale + offset;
    digital[i] = !missing(i) && Number.isFinite(v) ? Math.round(v * inverse) : 0;
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
