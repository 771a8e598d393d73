/** Building ChannelData: int16 quantisation that never forges a missing code, and float32 channels. */
import type { ChannelData } from '../recordings/model';
import { MISSING_CODES } from '../recordings/model';
import { UNIT } from './constants';

const INT16_MAX = 32_767;

/**
 * A function from a physical value to its int16 digital value. With `avoidMissing`,
 * a value that would read back exactly as a missing code (-1, -2) moves one step
 * up, so a real displacement of -1.00 mm is never mistaken for "missing".
 */
export function quantizer(scale: number, offset: number, avoidMissing: boolean): (physical: number) => number {
  const forbidden = avoidMissing ? MISSING_CODES.map((c) => (c - offset) / scale) : [];
  const exact = forbidden.filter((d) => Math.abs(d - Math.round(d)) < 1e-6).map((d) => Math.round(d));
  const f0 = exact[0] ?? NaN;
  const f1 = exact[1] ?? NaN;
  return (physical) => {
    let d = Math.round((physical - offset) / scale);
    if (d > INT16_MAX) d = INT16_MAX;
    else if (d < -INT16_MAX) d = -INT16_MAX;
    if (d === f0 || d === f1) d += 1;
    return d;
  };
}

/** An int16 channel over already quantised samples. */
export function int16Channel(code: string, sampleRate: number, t0: number, samples: Int16Array, scale: number, offset = 0): ChannelData {
  return { code, label: code, unit: UNIT[code] ?? '', sampleRate, t0, storage: 'int16', scale, offset, samples };
}

/** A float32 channel of physical values. */
export function float32Channel(code: string, sampleRate: number, t0: number, samples: Float32Array): ChannelData {
  return { code, label: code, unit: UNIT[code] ?? '', sampleRate, t0, storage: 'float32', scale: 1, offset: 0, samples };
}

/** Number of samples of a channel at `rate` Hz over `seconds` s (the last one may start inside the final period). */
export function sampleCount(seconds: number, rate: number): number {
  return Math.ceil(seconds * rate - 1e-9);
}
