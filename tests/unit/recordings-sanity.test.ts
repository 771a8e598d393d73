import { describe, expect, it } from 'vitest';
import { nightFromFiles, parseRecordingFile } from '../../server/recordings/assemble';
import { edfToRecording } from '../../server/recordings/edf/channels';
import { readEdf } from '../../server/recordings/edf/reader';
import { isChecksumOrStatus, mapSignal } from '../../server/recordings/labels';
import { RecordingFormatError } from '../../server/recordings/model';
import { PHYSIOLOGICAL_RANGES } from '../../server/recordings/ranges';
import { importSummary } from '../../server/recordings/summary';
import { BRP, SA2, buildEdf, patchFixed, patchSignal, real, tal, viaTempFile } from './edf-build';

/** Issue 12 §7–8, §10: what cannot be real is refused or made missing; labels map only when they fit. */

const BDF = 'pyedflib_test_generator.bdf';
const ANN = { label: 'EDF Annotations', samplesPerRecord: 30 };

function refusal(name: string, bytes: Uint8Array, read: (b: Uint8Array) => unknown = (b) => readEdf(b, name)): string {
  const onDisk = viaTempFile(name, bytes);
  try {
    read(onDisk);
  } catch (error) {
    expect(error).toBeInstanceOf(RecordingFormatError);
    return (error as Error).message;
  }
  throw new Error(`${name} was accepted`);
}

describe('files that cannot be real are refused, naming the file and the field', () => {
  it('record duration 0 with signals', () => {
    const bytes = buildEdf({ recordDuration: 0, signals: [{ label: 'SpO2', samplesPerRecord: 1, unit: '%' }], records: [[[97]]] });
    expect(refusal('zero.edf', bytes)).toBe('zero.edf: duration of a data record: is 0 s, but the file has 1 signal (SpO2): their samples would have no time');
    // ResMed's event files: 0-s records with only a Crc16 beside the annotations are fine.
    expect(readEdf(real('snore_resmed_20250808_010203_EVE.edf'), 'eve.edf').annotations.length).toBe(8);
  });

  it('number of data records -1 (recording in progress) without data, and negative counts', () => {
    const empty = patchFixed(buildEdf({ recordDuration: 1, signals: [{ label: 'x', samplesPerRecord: 2 }], records: [] }), 236, 8, '-1');
    expect(refusal('live.edf', empty)).toBe(
      'live.edf: number of data records: is -1 (recording in progress: the header was never completed) and the file holds no data records',
    );
    const negative = patchFixed(real(SA2), 236, 8, '-5');
    expect(refusal('neg.edf', negative)).toBe('neg.edf: number of data records: -5 is negative (only -1, "recording in progress", is allowed)');
  });

  it('a night over 36 h: a 30-day EDF, and an annotation 3 days in', () => {
    const month = buildEdf({ recordDuration: 86400, signals: [{ label: 'Temp', samplesPerRecord: 1 }], records: Array.from({ length: 30 }, () => [[36]]) });
    expect(refusal('month.edf', month)).toBe('month.edf: number of data records: 30 records of 86400 s span 720.0 h, more than the 36 h of one night');
    const late = buildEdf({ reserved: 'EDF+C', recordDuration: 0, signals: [ANN], records: [[tal('+0', ['']) + tal('+259200', ['Lights on'])]] });
    expect(refusal('late.edf', late)).toBe('late.edf: EDF Annotations: "Lights on" at +259200 s ends 72.0 h after the start, more than the 36 h of one night');
  });

  it('a BDF whose digital range exceeds 24 bits', () => {
    const bytes = patchSignal(real(BDF), 6, 6, 0, '8388608');
    expect(refusal('wide.bdf', bytes)).toBe('wide.bdf: signal 1 (sine 5Hz) digital minimum/maximum: -8388608..8388608 is outside the 24-bit range');
  });

  it('files of one night more than 36 h apart', () => {
    const csv = (day: number) => new TextEncoder().encode(`Timestamp,Value\n2026-03-${day}T22:00:00Z,97\n2026-03-${day}T22:00:01Z,96\n`);
    const files = [
      { name: 'SPO2_a.csv', bytes: csv(10) },
      { name: 'SPO2_b.csv', bytes: csv(14) },
    ];
    expect(refusal('SPO2_b.csv', new Uint8Array(0), () => nightFromFiles(files, { csvCode: 'SPO2' }))).toBe(
      'SPO2_b.csv: start date/time: together with SPO2_a.csv it spans 96.0 h, more than the 36 h of one night',
    );
  });

  it('a CSV spanning more than 36 h', () => {
    const csv = new TextEncoder().encode('Timestamp,Value\n2026-03-10T22:00:00Z,97\n2026-03-13T22:00:00Z,96\n');
    expect(refusal('SPO2.csv', csv, (b) => parseRecordingFile('SPO2.csv', b, { csvCode: 'SPO2' }))).toBe(
      'SPO2.csv: Timestamp: rows span 72.0 h, more than the 36 h of one night',
    );
  });
});

describe('impossible values become missing and are counted', () => {
  it('CSV: SpO2 255, -50 and 1e308 (Infinity) are never stored', () => {
    const csv = new TextEncoder().encode('Timestamp,Value\n2026-03-10T22:00:00Z,97\n2026-03-10T22:00:01Z,255\n2026-03-10T22:00:02Z,-50\n2026-03-10T22:00:03Z,1e308\n2026-03-10T22:00:04Z,96\n');
    const part = parseRecordingFile('oxi.csv', csv, { csvCode: 'SPO2' });
    const spo2 = part.channels[0];
    expect(Array.from(spo2.samples)).toEqual([97, NaN, NaN, NaN, 96]);
    expect(spo2.rejected).toEqual({ outOfRange: 2, nonFinite: 1 });
    // A channel with no physiological range still never keeps a non-finite value.
    const other = parseRecordingFile('x.csv', csv, { csvCode: 'Temp' }).channels[0];
    expect(Array.from(other.samples)).toEqual([97, 255, -50, NaN, 96]);
    expect(other.rejected).toEqual({ outOfRange: 0, nonFinite: 1 });
  });

  it('oximeter CSV: a pulse of 500 and SpO2 101 are out of range', () => {
    const text = 'Time,Oxygen Level,Pulse Rate,Motion\n22:00:00 Mar 10 2026,97,60,0\n22:00:04 Mar 10 2026,101,500,0\n22:00:08 Mar 10 2026,96,61,0\n';
    const part = parseRecordingFile('O2Ring.csv', new TextEncoder().encode(text));
    const byCode = new Map(part.channels.map((c) => [c.code, c]));
    expect(Array.from(byCode.get('SPO2')!.samples)).toEqual([97, NaN, 96]);
    expect(Array.from(byCode.get('PR')!.samples)).toEqual([60, NaN, 61]);
    expect(byCode.get('PR')!.rejected).toEqual({ outOfRange: 1, nonFinite: 0 });
  });

  it('EDF: an SpO2 of 255 % is made missing, the other samples keep their digital values', () => {
    const bytes = buildEdf({ recordDuration: 1, signals: [{ label: 'SpO2', samplesPerRecord: 4, unit: '%', physicalMin: 0, physicalMax: 255, digitalMin: 0, digitalMax: 255 }], records: [[[97, 255, 96, 0]]] });
    const c = edfToRecording(readEdf(bytes, 'o.edf')).channels[0];
    expect(c.code).toBe('SPO2_PSG');
    expect([c.storage, c.scale, c.offset]).toEqual(['float32', 1, 0]);
    expect(Array.from(c.samples)).toEqual([97, NaN, 96, 0]);
    expect(c.rejected).toEqual({ outOfRange: 1, nonFinite: 0 });
  });

  it('one table of ranges', () => {
    expect(PHYSIOLOGICAL_RANGES.SPO2).toEqual({ min: 0, max: 100 });
    expect(PHYSIOLOGICAL_RANGES.PR).toEqual({ min: 20, max: 300 });
    expect(PHYSIOLOGICAL_RANGES.BR).toEqual({ min: 0, max: 80 });
  });
});

describe('label mapping with sanity', () => {
  it('maps a label only when unit and rate fit the code', () => {
    expect(mapSignal('Pulse', 'bpm', 1)).toEqual({ code: 'PR' });
    expect(mapSignal('Pulse', 'uV', 200)).toEqual({ code: 'Pulse', refused: { code: 'PR', reason: 'unit "uV" is not one of PR\'s (bpm, /min, 1/min, min-1, min^-1, /m, beats/min, beat/min, b/min)' } });
    expect(mapSignal('Pulse', 'bpm', 200).code).toBe('Pulse');
    expect(mapSignal('SpO2', '%', 1).code).toBe('SPO2_PSG');
    expect(mapSignal('SpO2', '', 1).code).toBe('SpO2');
    expect(mapSignal('RespRate.2s', 'bpm', 0.5).code).toBe('BR');
    expect(mapSignal('Flow.40ms', 'L/s', 25).code).toBe('NC_PSG');
    expect(mapSignal('Flow', 'L/s', 0.5).code).toBe('Flow');
    // The physician's own map is a decision, followed as given.
    expect(mapSignal('Pulse', 'uV', 200, { Pulse: 'PR' }).code).toBe('PR');
  });

  it('a 200 Hz µV "pulse" waveform keeps its own label and is listed as not mapped', () => {
    const bytes = buildEdf({ recordDuration: 1, signals: [{ label: 'Pulse', samplesPerRecord: 200, unit: 'uV' }], records: [[Array.from({ length: 200 }, (_, i) => i)]] });
    const rec = edfToRecording(readEdf(bytes, 'ppg.edf'));
    expect(rec.channels.map((c) => c.code)).toEqual(['Pulse']);
    expect(rec.meta.unmappedLabels).toEqual([{ label: 'Pulse', code: 'PR', reason: expect.stringContaining('unit "uV"') }]);
  });

  it('checksum and status signals are no channels; a patient event marker is', () => {
    expect(isChecksumOrStatus('Crc16')).toBe(true);
    expect(isChecksumOrStatus('CRC')).toBe(true);
    expect(isChecksumOrStatus('Status', 'Triggers and Status')).toBe(true);
    expect(isChecksumOrStatus('Status')).toBe(false);
    expect(isChecksumOrStatus('Event marker', 'Marker button')).toBe(false);
  });
});

describe('BDF and BDF+ (24-bit)', () => {
  it('reads the EDFbrowser BDF+ file: 24-bit samples kept exactly as float32 digital values', () => {
    const edf = readEdf(real(BDF), BDF);
    expect([edf.header.format, edf.variant, edf.header.recordCount, edf.header.recordDuration]).toEqual(['BDF', 'EDF+C', 30, 1]);
    expect(edf.signals.map((s) => [s.label, s.sampleRate])).toEqual([
      ['sine 5Hz', 1000],
      ['square 13Hz', 800],
      ['ramp 7Hz', 500],
      ['pink noise', 975],
      ['white noise', 999],
    ]);
    const rec = edfToRecording(edf);
    expect(rec.format).toBe('BDF+C');
    const sine = rec.channels[0];
    expect(sine.storage).toBe('float32');
    expect(sine.samples.length).toBe(30_000);
    const digital = edf.signals[0].digital;
    expect(digital).toBeInstanceOf(Int32Array);
    // Every 24-bit value survives float32, and the physical values stay within ±3000 µV.
    for (let i = 0; i < digital.length; i++) expect(sine.samples[i]).toBe(digital[i]);
    let peak = 0;
    for (let i = 0; i < digital.length; i++) peak = Math.max(peak, Math.abs(digital[i] * sine.scale + sine.offset));
    expect(peak).toBeGreaterThan(100);
    expect(peak).toBeLessThanOrEqual(3000);
    // Needs more than 16 bits: that is why it is kept as BDF.
    expect(Math.max(...Array.from(digital.subarray(0, 2000)).map(Math.abs))).toBeGreaterThan(32767);
  });

  it('reads BDF+ annotations from the BDF Annotations channel', () => {
    const edf = readEdf(real(BDF), BDF);
    expect(edf.annotationSignals.map((s) => s.label)).toEqual(['BDF Annotations']);
    expect(edf.recordStarts[29]).toBe(29);
  });
});

describe('import summary', () => {
  it('lists every channel (code, label, rate, unit, out-of-range count) and the skipped signals', () => {
    const night = nightFromFiles([BRP, SA2].map((name) => ({ name, bytes: real(name) })));
    const summary = importSummary(night);
    expect(summary.channels.map((c) => [c.code, c.label, c.rate, c.unit])).toEqual([
      ['NC_PSG', 'Flow.40ms', 25, 'L/s'],
      ['Press.40ms', 'Press.40ms', 25, 'cmH2O'],
      ['PR', 'Pulse.1s', 1, 'bpm'],
      ['SPO2_PSG', 'SpO2.1s', 1, '%'],
    ]);
    expect(summary.channels.map((c) => c.outOfRange)).toEqual([0, 0, 388 * 60, 388 * 60]);
    expect(summary.skipped).toEqual([
      { file: BRP, label: 'Crc16', reason: 'checksum-or-status' },
      { file: SA2, label: 'Crc16', reason: 'checksum-or-status' },
    ]);
    expect(summary.unmapped).toEqual([]);
  });
});
