// readEdfFrom reads the data records a batch at a time (large uploads are parsed from disk
// without the file whole in memory): it must give exactly what readEdf gives for the whole
// file, samples, annotations and record times, and the same errors.
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { readEdf, readEdfFrom, type EdfSource } from '../../server/recordings/edf/reader';
import { isDeviceSummary } from '../../server/recordings/edf/str';

const REAL = new URL('../fixtures/real/', import.meta.url);
// A device's daily summary (ResMed STR.edf, 311 days in one file) is read by its own reader, never as a night.
const FILES = readdirSync(REAL).filter((f) => /\.(edf|bdf)$/i.test(f) && !isDeviceSummary(new Uint8Array(readFileSync(new URL(f, REAL)))));

/** The bytes as a source that copies each piece it is asked for (as reads from disk do), counting reads. */
function pieces(bytes: Uint8Array) {
  const reads: number[] = [];
  const src: EdfSource = {
    length: bytes.length,
    read(start, length) {
      reads.push(length);
      return bytes.slice(start, start + length);
    },
  };
  return { src, reads };
}

const bytesOf = (a: Int16Array | Int32Array) => Buffer.from(a.buffer, a.byteOffset, a.byteLength);
const withoutSamples = (f: ReturnType<typeof readEdf>) => ({ ...f, signals: f.signals.map(({ digital, ...s }) => ({ ...s, samples: digital.length, type: digital.constructor.name })) });

describe('reading an EDF/BDF a batch of records at a time', () => {
  it.each(FILES)('%s: the same file as read whole, in batches of one and of three records', (name) => {
    const bytes = new Uint8Array(readFileSync(new URL(name, REAL)));
    const whole = readEdf(bytes, name, { timezone: 'Europe/Vienna' });
    const recordBytes = whole.signals.reduce((n, s) => n + s.samplesPerRecord, 0) * (whole.header.format === 'BDF' ? 3 : 2)
      + whole.annotationSignals.reduce((n, s) => n + s.samplesPerRecord, 0) * (whole.header.format === 'BDF' ? 3 : 2);
    for (const records of [1, 3]) {
      const { src, reads } = pieces(bytes);
      const batched = readEdfFrom(src, name, { timezone: 'Europe/Vienna', batchBytes: records * recordBytes });
      // Samples compared as bytes (a deep compare of millions of numbers is slow), the rest as values.
      expect(batched.signals.map((s) => Buffer.from(s.digital.buffer, s.digital.byteOffset, s.digital.byteLength).equals(bytesOf(whole.signals[batched.signals.indexOf(s)].digital)))).toEqual(whole.signals.map(() => true));
      expect(withoutSamples(batched)).toEqual(withoutSamples(whole));
      // Never more than the header or a batch at a time.
      expect(Math.max(...reads)).toBeLessThanOrEqual(Math.max(whole.header.headerBytes, records * recordBytes));
      if (whole.header.recordCount > records) expect(reads.length).toBeGreaterThan(2);
    }
  }, 60_000);

  it('a broken file gives the same error as when read whole', () => {
    const bytes = new Uint8Array(readFileSync(new URL('sleepedf_SC4001E0_short_psg.edf', REAL)));
    const cases = [bytes.slice(0, 100), bytes.slice(0, 400), bytes.slice(0, bytes.length - 1000)];
    const badHeader = bytes.slice();
    badHeader.set(new TextEncoder().encode('12x     '), 184);
    cases.push(badHeader);
    for (const broken of cases) {
      let expected: unknown;
      try {
        readEdf(broken, 'broken.edf');
      } catch (err) {
        expected = err;
      }
      expect(expected).toBeInstanceOf(Error);
      expect(() => readEdfFrom(pieces(broken).src, 'broken.edf', { batchBytes: 1000 })).toThrow((expected as Error).message);
    }
  });
});
