import { describe, expect, it } from 'vitest';
import { readEdf } from '../../server/recordings/edf/reader';
import { edfToRecording } from '../../server/recordings/edf/channels';
import { chooseRecordDuration } from '../../server/recordings/edf/record-duration';
import { buildEdf, tal } from './edf-build';

const ANN = { label: 'EDF Annotations', samplesPerRecord: 40 };

describe('EDF start date and time', () => {
  const startOf = (startDate: string, recording = 'Startdate X X X X', startTime = '22.00.00', timezone = 'UTC') =>
    new Date(
      readEdf(buildEdf({ startDate, startTime, recording, recordDuration: 1, signals: [{ label: 'x', samplesPerRecord: 1 }], records: [[[0]]] }), 'x.edf', { timezone }).startMs,
    ).toISOString();

  it('two-digit years: 85–99 are 19xx, 00–84 are 20xx', () => {
    expect(startOf('01.01.85')).toBe('1985-01-01T22:00:00.000Z');
    expect(startOf('31.12.99')).toBe('1999-12-31T22:00:00.000Z');
    expect(startOf('01.01.00')).toBe('2000-01-01T22:00:00.000Z');
    expect(startOf('10.03.84')).toBe('2084-03-10T22:00:00.000Z');
  });

  it("honours the EDF+ 'Startdate dd-MMM-yyyy' when it agrees with the header date", () => {
    expect(startOf('10.03.84', 'Startdate 10-MAR-1984 X X X')).toBe('1984-03-10T22:00:00.000Z');
    expect(startOf('10.03.yy', 'Startdate 10-MAR-2091 X X X')).toBe('2091-03-10T22:00:00.000Z');
    // Disagreeing day: the header's own rule applies.
    expect(startOf('11.03.84', 'Startdate 10-MAR-1984 X X X')).toBe('2084-03-11T22:00:00.000Z');
  });

  it('reads the header as local time in the given zone, DST included', () => {
    expect(startOf('10.03.26', undefined, '22.00.00', 'Europe/Vienna')).toBe('2026-03-10T21:00:00.000Z');
    expect(startOf('10.07.26', undefined, '22.00.00', 'Europe/Vienna')).toBe('2026-07-10T20:00:00.000Z');
    expect(startOf('10.07.26', undefined, '22.00.00', 'Asia/Kolkata')).toBe('2026-07-10T16:30:00.000Z');
  });
});

describe('EDF+ annotations and records', () => {
  it('EDF+C: sub-second start from the first time keeping, several texts in one TAL, UTF-8 text', () => {
    const bytes = buildEdf({
      reserved: 'EDF+C',
      recordDuration: 1,
      signals: [{ label: 'Thorax', samplesPerRecord: 4, unit: 'uV' }, ANN],
      records: [
        [[1, 2, 3, 4], tal('+0.25', ['']) + tal('+0.5', ['Arousal', 'Snore'], '1.5')],
        [[5, 6, 7, 8], tal('+1.25', ['']) + tal('+1.75', ['Entsättigung'])],
      ],
    });
    const edf = readEdf(bytes, 'c.edf');
    expect(Array.from(edf.recordStarts)).toEqual([0.25, 1.25]);
    expect(edf.annotations).toEqual([
      { onset: 0.5, duration: 1.5, text: 'Arousal' },
      { onset: 0.5, duration: 1.5, text: 'Snore' },
      { onset: 1.75, duration: 0, text: 'Entsättigung' },
    ]);
    const rec = edfToRecording(edf);
    expect(rec.channels[0].code).toBe('THRX_PSG');
    expect(rec.channels[0].t0).toBe(edf.startMs + 250);
    expect(rec.channels[0].storage).toBe('int16');
    expect(Array.from(rec.channels[0].samples)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect(rec.events.map((e) => e.onsetMs - edf.startMs)).toEqual([500, 500, 1750]);
  });

  it("EDF+ from a Nihon Kohden recorder: a time-keeping TAL with the next TAL right after it (no NUL) is two TALs", () => {
    // The bytes as NKC-EEG-1100C's EDF export writes them (mne-testing-data, NihonKohden/MB0400FU.EDF).
    const bytes = buildEdf({
      reserved: 'EDF+C',
      recordDuration: 1,
      signals: [{ label: 'EEG Fp2-Ref', samplesPerRecord: 4, unit: 'uV' }, ANN],
      records: [
        [[1, 2, 3, 4], '+0.000000\x14\x14+0.000000\x14Segment: REC START\x14\x00'],
        [[5, 6, 7, 8], '+1.000000\x14\x14+1.140000\x14A1+A2 OFF\x14\x00'],
      ],
    });
    const edf = readEdf(bytes, 'nk.edf');
    expect(Array.from(edf.recordStarts)).toEqual([0, 1]);
    expect(edf.annotations).toEqual([
      { onset: 0, duration: 0, text: 'Segment: REC START' },
      { onset: 1.14, duration: 0, text: 'A1+A2 OFF' },
    ]);
    // A text that merely starts like an onset, in a TAL of its own, stays text.
    const plain = buildEdf({ reserved: 'EDF+C', recordDuration: 1, signals: [{ label: 'EEG', samplesPerRecord: 4 }, ANN], records: [[[1, 2, 3, 4], tal('+0', ['']) + tal('+0.5', ['+3 dB'])]] });
    expect(readEdf(plain, 'p.edf').annotations).toEqual([{ onset: 0.5, duration: 0, text: '+3 dB' }]);
  });

  it('EDF+D: each record at its own start, the gap missing (NaN), digital values kept exactly with the file scale', () => {
    const bytes = buildEdf({
      reserved: 'EDF+D',
      recordDuration: 2,
      signals: [{ label: 'Flow', samplesPerRecord: 4, physicalMin: 0, physicalMax: 10, digitalMin: 0, digitalMax: 100 }, ANN],
      records: [
        [[10, 20, 30, 40], tal('+0', [''])],
        [[50, 60, 70, 80], tal('+2', [''])],
        [[90, 100, 0, 10], tal('+7', ['']) + tal('+8', ['Leak'])],
      ],
    });
    const edf = readEdf(bytes, 'd.edf');
    expect(edf.variant).toBe('EDF+D');
    expect(Array.from(edf.recordStarts)).toEqual([0, 2, 7]);
    const rec = edfToRecording(edf);
    const flow = rec.channels[0];
    expect(flow.code).toBe('NC_PSG');
    expect(flow.storage).toBe('float32');
    expect(flow.sampleRate).toBe(2);
    // 0–4 s data, 4–7 s gap (6 samples missing, never data), 7–9 s data; digital values with the file's scale 0.1.
    expect(Array.from(flow.samples)).toEqual([10, 20, 30, 40, 50, 60, 70, 80, NaN, NaN, NaN, NaN, NaN, NaN, 90, 100, 0, 10]);
    expect([flow.scale, flow.offset, flow.missingCodes]).toEqual([0.1, 0, []]);
    expect(rec.stopMs - rec.startMs).toBe(9000);
    expect(rec.events).toEqual([{ onsetMs: edf.startMs + 8000, durationMs: 0, text: 'Leak' }]);
  });

  it('EDF+D whose records happen to be contiguous stays int16', () => {
    const bytes = buildEdf({
      reserved: 'EDF+D',
      recordDuration: 1,
      signals: [{ label: 'SpO2', samplesPerRecord: 1, unit: '%' }, ANN],
      records: [
        [[97], tal('+0', [''])],
        [[96], tal('+1', [''])],
      ],
    });
    const ch = edfToRecording(readEdf(bytes, 'd.edf')).channels[0];
    expect(ch.storage).toBe('int16');
    expect(ch.code).toBe('SPO2_PSG');
  });

  it('mixed and slow rates: samples per record / record duration', () => {
    const bytes = buildEdf({
      recordDuration: 30,
      signals: [
        { label: 'Flow', samplesPerRecord: 750 },
        { label: 'Hypnogram', samplesPerRecord: 1 },
        { label: 'Pulse', samplesPerRecord: 30 },
      ],
      records: [[[], [2], []]],
    });
    const edf = readEdf(bytes, 'm.edf');
    expect(edf.signals.map((s) => s.sampleRate)).toEqual([25, 1 / 30, 1]);
  });

  it('a data-record count of -1 (still recording) is taken from the file size', () => {
    const bytes = buildEdf({ recordDuration: 1, signals: [{ label: 'x', samplesPerRecord: 2 }], records: [[[1, 2]], [[3, 4]], [[5, 6]]] });
    bytes.set(new TextEncoder().encode('-1      '), 236);
    expect(readEdf(bytes, 'r.edf').header.recordCount).toBe(3);
  });
});

describe('record duration for writing', () => {
  it('is the least whole-second record giving every rate whole samples', () => {
    expect(chooseRecordDuration([25, 1, 0.5])).toBe(2);
    expect(chooseRecordDuration([25, 1 / 60])).toBe(60);
    expect(chooseRecordDuration([20, 1, 1 / 30])).toBe(30);
    expect(chooseRecordDuration([100, 256])).toBe(1);
    expect(chooseRecordDuration([0.2, 1 / 30])).toBe(30);
    expect(chooseRecordDuration([20, 1, 1 / 30, 1 / 1800])).toBe(1800);
    expect(() => chooseRecordDuration([Math.PI])).toThrow(/no whole number of samples/);
    expect(() => chooseRecordDuration([0])).toThrow(/not a positive number/);
  });
});
