import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { nightFromFiles } from '../../server/recordings/assemble';
import { readEdf } from '../../server/recordings/edf/reader';
import { writeNightFile } from '../../server/recordings/edf/writer';
import { isDeviceSummary } from '../../server/recordings/edf/str';
import { MISSING_CODES, type ChannelData, type Night } from '../../server/recordings/model';
import { REAL_DIR, real, viaTempFile } from './edf-build';
import { expectSameSamples, valueAt } from './edf-faithful';

/**
 * Export → import gives the same samples, times and annotations (issue 12 §6): over random
 * nights (random rates below and above 1 Hz, gaps, int16 and float32, our device's codes,
 * 24-bit digital values, annotations), and over every real file in tests/fixtures/real.
 */

/** Export a night and read the file back as an import would. */
function exportImport(night: Night): { back: Night; format: string; bytes: Uint8Array } {
  const { bytes, format } = writeNightFile(night);
  const name = format === 'BDF' ? 'night.bdf' : 'night.edf';
  return { back: nightFromFiles([{ name, bytes: viaTempFile(name, bytes) }], { timezone: night.timezone }), format, bytes };
}

function expectSameEvents(back: Night, night: Night): void {
  const want = night.events.map((e, i) => ({ e, i })).sort((a, b) => a.e.onsetMs - b.e.onsetMs || a.i - b.i).map(({ e }) => e);
  expect(back.events.map((e) => e.text)).toEqual(want.map((e) => e.text));
  back.events.forEach((e, i) => {
    expect(Math.abs(e.onsetMs - want[i].onsetMs)).toBeLessThan(0.01);
    expect(Math.abs(e.durationMs - want[i].durationMs)).toBeLessThan(0.01);
  });
}

/** A small deterministic generator (the property's seed drives every sample). */
function lcg(seed: number): () => number {
  let x = seed >>> 0 || 1;
  return () => {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    return x / 2 ** 32;
  };
}

type Kind = 'float' | 'int16' | 'source16' | 'device' | 'bdf';
interface ChannelSpec {
  kind: Kind;
  rate: number;
  /** t0 = start + periods × 30 s (every rate below has whole samples in 30 s). */
  periods: number;
  length: number;
  seed: number;
  gaps: { at: number; len: number }[];
  ownLabel: boolean;
}

const RATES = [1 / 30, 0.2, 0.5, 1, 2, 10, 25, 32];

function makeChannel(spec: ChannelSpec, index: number, startMs: number): ChannelData {
  const next = lcg(spec.seed);
  const n = spec.length;
  const base = {
    code: `C${index}`,
    label: spec.ownLabel ? `Signal ${index}` : `C${index}`,
    unit: ['', 'uV', 'L/s', '%'][index % 4],
    sampleRate: spec.rate,
    t0: startMs + spec.periods * 30_000,
    transducer: spec.ownLabel ? 'Thermistor' : '',
    prefiltering: spec.ownLabel ? 'HP:0.1Hz LP:15Hz' : '',
  };
  const gapped = (i: number) => i > 0 && i < n - 1 && spec.gaps.some((g) => i >= g.at && i < g.at + g.len);
  switch (spec.kind) {
    case 'float': {
      const s = Float32Array.from({ length: n }, (_, i) => (gapped(i) ? Number.NaN : (next() - 0.5) * 200));
      return { ...base, storage: 'float32', scale: 1, offset: 0, samples: s, missingCodes: [] };
    }
    case 'int16': {
      const s = Int16Array.from({ length: n }, () => Math.round((next() - 0.5) * 6000));
      return { ...base, storage: 'int16', scale: 0.5, offset: 0, samples: s, missingCodes: [] };
    }
    case 'source16': {
      // A channel read from an EDF: digital values with the file's own range (ResMed's flow header).
      const s = Int16Array.from({ length: n }, () => Math.round(next() * 2500) - 1000);
      return { ...base, storage: 'int16', scale: 5 / 2500, offset: -2 + 1000 * (5 / 2500), samples: s, missingCodes: [], edfRange: { physicalMin: '-2.00', physicalMax: '3.00', digitalMin: '-1000', digitalMax: '1500' } };
    }
    case 'device': {
      // Our device: int16 with the codes -1 and -2 in the gaps.
      const s = Int16Array.from({ length: n }, (_, i) => (gapped(i) ? (i % 2 ? -1 : -2) : Math.round(next() * 100)));
      return { ...base, storage: 'int16', scale: 1, offset: 0, samples: s, missingCodes: MISSING_CODES };
    }
    case 'bdf': {
      // 24-bit digital values as read from a BDF using the full range (as EDFbrowser writes), without gaps.
      const s = Float32Array.from({ length: n }, () => Math.round((next() - 0.5) * 16_000_000));
      const range = { physicalMin: '-3000', physicalMax: '3000', digitalMin: '-8388608', digitalMax: '8388607' };
      const scale = 6000 / 16777215;
      return { ...base, storage: 'float32', scale, offset: -3000 + 8388608 * scale, samples: s, missingCodes: [], edfRange: range };
    }
  }
}

const channelSpec = fc.record({
  kind: fc.constantFrom<Kind>('float', 'int16', 'source16', 'device', 'bdf'),
  rate: fc.constantFrom(...RATES),
  periods: fc.integer({ min: 0, max: 6 }),
  length: fc.integer({ min: 2, max: 300 }),
  seed: fc.integer({ min: 1, max: 2 ** 31 - 1 }),
  gaps: fc.array(fc.record({ at: fc.integer({ min: 1, max: 299 }), len: fc.integer({ min: 1, max: 40 }) }), { maxLength: 3 }),
  ownLabel: fc.boolean(),
});
const eventSpec = fc.record({
  atMs: fc.integer({ min: -60_000, max: 400_000 }),
  durationMs: fc.integer({ min: 0, max: 60_000 }),
  text: fc.constantFrom('Central Apnea', 'Obstructive Apnea', 'Hypopnea', 'Entsättigung, 88 %', 'Lights off', 'نوم'),
});

describe('export → import is faithful', () => {
  it('random nights: same samples at the same times, same annotations', () => {
    fc.assert(
      fc.property(fc.array(channelSpec, { maxLength: 4 }), fc.array(eventSpec, { maxLength: 6 }), fc.integer({ min: 0, max: 999 }), (specs, events, ms) => {
        const startMs = Date.UTC(2026, 2, 10, 22, 0, 0, ms);
        const channels = specs.map((s, i) => makeChannel(s, i, startMs));
        if (channels.length === 0 && events.length === 0) return;
        const night: Night = {
          startMs,
          stopMs: startMs + 3_600_000,
          timezone: 'Europe/Vienna',
          channels,
          events: events.map((e) => ({ onsetMs: startMs + e.atMs + 60_000, durationMs: e.durationMs, text: e.text })),
          meta: {},
        };
        const { back, format } = exportImport(night);
        expect(format).toBe(specs.some((s) => s.kind === 'bdf') ? 'BDF' : 'EDF');
        expect(back.channels.map((c) => c.code)).toEqual(channels.map((c) => c.code));
        channels.forEach((c, i) => {
          const got = back.channels[i];
          // Quantised float32 channels are within one step; every other kind is exact.
          expectSameSamples(got, c, c.edfRange || c.storage === 'int16' ? 0 : got.scale);
          expect([got.label, got.unit, got.transducer, got.prefiltering]).toEqual([c.label, c.unit, c.transducer, c.prefiltering]);
          expect(got.missingCodes).toEqual(c.missingCodes);
          if (c.edfRange) expect(got.edfRange).toEqual(c.edfRange);
        });
        expectSameEvents(back, night);
      }),
      { numRuns: 60 },
    );
  });

  it('never writes a missing sample as a value another reader would show as data', () => {
    const startMs = Date.UTC(2026, 2, 10, 22, 0, 0);
    const spo2: ChannelData = { code: 'SPO2', label: 'SPO2', unit: '%', sampleRate: 1, t0: startMs, storage: 'int16', scale: 1, offset: 0, samples: Int16Array.from([95, -1, -1, 94, -2, 93]), missingCodes: MISSING_CODES };
    // Flow starts 600 s later: 10 minutes without any sample become an EDF+D gap, not -1s.
    const flow: ChannelData = { code: 'NC_PSG', label: 'Flow', unit: 'L/s', sampleRate: 1, t0: startMs + 600_000, storage: 'float32', scale: 1, offset: 0, samples: Float32Array.from([0.5, Number.NaN, -0.25]), missingCodes: [] };
    const { bytes } = writeNightFile({ startMs, stopMs: startMs + 603_000, timezone: 'UTC', channels: [spo2, flow], events: [], meta: {} });
    const edf = readEdf(bytes, 'x.edf');
    expect(edf.variant).toBe('EDF+D');
    // Records only where some channel has a sample: none at 1, 2, 4 s (SpO2 missing, no flow yet) nor at 601 s.
    expect(Array.from(edf.recordStarts)).toEqual([0, 3, 5, 600, 602]);
    const [s, f] = edf.signals;
    // Missing samples hold a digital value below the signal's digital minimum: outside its range.
    expect(s.reserved).toBe('NCT -32768 m =');
    expect(Array.from(s.digital).map((d) => (d < s.digitalMin ? 'pad' : d * s.scale + s.offset))).toEqual([95, 94, 93, 'pad', 'pad']);
    expect(Array.from(f.digital).map((d) => (d < f.digitalMin ? 'pad' : d * f.scale + f.offset))).toEqual(['pad', 'pad', 'pad', 0.5, -0.25]);
    expect([f.label, f.reserved]).toEqual(['Flow', 'NCT -32768 - NC_PSG']);
  });
});

describe('long channel codes', () => {
  it('a code longer than the reserved field allows keeps its first characters', () => {
    const startMs = Date.UTC(2026, 2, 10, 22, 0, 0);
    const code = 'VERY_LONG_PHYSICIAN_CHANNEL_CODE_40CHARS';
    const c: ChannelData = { code, label: 'Temp', unit: 'degC', sampleRate: 1, t0: startMs, storage: 'float32', scale: 1, offset: 0, samples: Float32Array.from([36.5, 36.6]), missingCodes: [] };
    const { back } = exportImport({ startMs, stopMs: startMs + 2000, timezone: 'UTC', channels: [c], events: [], meta: {} });
    // 'NCT -32768 - ' leaves 19 characters.
    expect(back.channels[0].code).toBe(code.slice(0, 19));
    expect(back.channels[0].label).toBe('Temp');
  });
});

describe('every real file: export → import gives the same samples, times and annotations', () => {
  // A device's daily summary (ResMed STR.edf) is no night: it has its own reader and tests (device-summary).
  const files = readdirSync(REAL_DIR).filter((f) => /\.(edf|bdf)$/i.test(f) && !isDeviceSummary(real(f)));

  it('covers the real files', () => {
    expect(files.length).toBeGreaterThanOrEqual(10);
  });

  for (const file of files) {
    it(file, () => {
      const night = nightFromFiles([{ name: file, bytes: real(file) }]);
      const { back, format } = exportImport(night);
      expect(format).toBe(file.endsWith('.bdf') ? 'BDF' : 'EDF');
      expect(back.channels.map((c) => c.code)).toEqual(night.channels.map((c) => c.code));
      night.channels.forEach((c, i) => {
        const got = back.channels[i];
        // A channel made from the file's annotations (a hypnogram's stages) has no header of the file's: its values come back.
        // An unscored tail (stage "?") is a gap the export does not write: what is scored comes back, nothing more.
        if (!c.edfRange) {
          const scored = Array.from({ length: c.samples.length }, (_, j) => valueAt(c, j));
          const lastScored = scored.findLastIndex((v) => !Number.isNaN(v));
          expect(got.t0).toBe(c.t0);
          expect(Array.from({ length: got.samples.length }, (_, j) => valueAt(got, j)).slice(0, lastScored + 1)).toEqual(scored.slice(0, lastScored + 1));
          expect(Array.from({ length: got.samples.length - lastScored - 1 }, (_, j) => valueAt(got, lastScored + 1 + j)).every(Number.isNaN)).toBe(true);
          return;
        }
        // Samples read from a file are its digital values: they come back exactly, with the same header.
        expectSameSamples(got, c, 0);
        expect([got.label, got.unit, got.transducer, got.prefiltering, got.edfRange, got.scale, got.offset]).toEqual([
          c.label, c.unit, c.transducer, c.prefiltering, c.edfRange, c.scale, c.offset,
        ]);
        const kept = Array.from({ length: c.samples.length }, (_, j) => valueAt(c, j)).filter((v) => !Number.isNaN(v)).length;
        if (kept > 0) expect(got.storage === 'int16' ? 'int16' : c.storage).toBe(c.storage);
      });
      expectSameEvents(back, night);
    }, 60_000);
  }
});
