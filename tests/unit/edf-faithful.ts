/**
 * Test helpers for faithful round trips: a channel's value at a sample as the app reads it
 * (physical, or NaN when missing by NaN, non-finite or the channel's own codes), and a
 * comparison of two channels on the time grid.
 */
import { expect } from 'vitest';
import type { ChannelData } from '../../server/recordings/model';

/** Physical value of sample i, NaN when missing. */
export function valueAt(c: ChannelData, i: number): number {
  const s = c.samples[i];
  const v = s * c.scale + c.offset;
  return !Number.isFinite(v) || (c.missingCodes ?? []).includes(s) ? Number.NaN : v;
}

/**
 * `back` holds the same samples at the same times as `orig`: same code and rate; every
 * sample of `orig` that is not missing is in `back` at the same time (to 1 µs) with the
 * same value (within `tolerance`); every other sample of `back` is missing. `back` may
 * lack leading/trailing missing samples of `orig` (no data there to keep).
 */
export function expectSameSamples(back: ChannelData, orig: ChannelData, tolerance = 0): void {
  expect(back.code).toBe(orig.code);
  expect(back.sampleRate).toBe(orig.sampleRate);
  const shift = ((back.t0 - orig.t0) / 1000) * orig.sampleRate;
  const lead = Math.round(shift);
  expect(Math.abs((shift - lead) / orig.sampleRate)).toBeLessThan(1e-6);
  let worst = 0;
  for (let i = 0; i < orig.samples.length; i++) {
    const want = valueAt(orig, i);
    const j = i - lead;
    const got = j >= 0 && j < back.samples.length ? valueAt(back, j) : Number.NaN;
    if (Number.isNaN(want)) {
      if (!Number.isNaN(got)) throw new Error(`${orig.code}[${i}]: missing came back as ${got}`);
      continue;
    }
    if (Number.isNaN(got)) throw new Error(`${orig.code}[${i}]: ${want} came back missing`);
    worst = Math.max(worst, Math.abs(got - want));
  }
  expect(worst).toBeLessThanOrEqual(tolerance);
  for (let j = 0; j < back.samples.length; j++) {
    const i = j + lead;
    if (i < 0 || i >= orig.samples.length) expect(valueAt(back, j), `${orig.code}: extra sample ${j}`).toBeNaN();
  }
}
