import { describe, expect, it } from 'vitest';
import { readEdf } from '../../server/recordings/edf/reader';
import { edfToRecording } from '../../server/recordings/edf/channels';
import { BRP, EVE, HMC, PLD, PSG, SA2, real } from './edf-build';

const MIN = 60_000;

describe('real recordings (tests/fixtures/real, copied from ../shared/data/real)', () => {
  it('ResMed BRP: plain EDF, 08.08.25 01:02:10, 388 × 60 s, Flow/Press at 25 Hz, Crc16 at 1/60 Hz', () => {
    const edf = readEdf(real(BRP), BRP);
    expect(edf.variant).toBe('EDF');
    expect(new Date(edf.startMs).toISOString()).toBe('2025-08-08T01:02:10.000Z');
    expect(edf.header.recordCount).toBe(388);
    expect(edf.header.recordDuration).toBe(60);
    expect(edf.header.recordCount * edf.header.recordDuration).toBe(6 * 3600 + 28 * 60);
    expect(edf.signals.map((s) => [s.label, s.sampleRate])).toEqual([
      ['Flow.40ms', 25],
      ['Press.40ms', 25],
      ['Crc16', 1 / 60],
    ]);
    const flow = edf.signals[0];
    expect(flow.unit).toBe('L/s');
    expect(flow.digital.length).toBe(388 * 1500);
    // pmin -2, pmax 3, dmin -1000, dmax 1500 → scale 0.002, offset 0.
    expect(flow.scale).toBeCloseTo(0.002, 12);
    expect(flow.offset).toBeCloseTo(0, 12);
    expect(Array.from(flow.digital.subarray(0, 5))).toEqual([190, 203, 205, 210, 216]);
    expect(edf.annotations).toEqual([]);
  });

  it('reads the BRP header date/time in the recorder time zone', () => {
    const vienna = readEdf(real(BRP), BRP, { timezone: 'Europe/Vienna' });
    expect(new Date(vienna.startMs).toISOString()).toBe('2025-08-07T23:02:10.000Z');
    const ny = readEdf(real(BRP), BRP, { timezone: 'America/New_York' });
    expect(new Date(ny.startMs).toISOString()).toBe('2025-08-08T05:02:10.000Z');
  });

  it('ResMed EVE: EDF+D, zero-duration records, starts 7 s before BRP, the device-scored events', () => {
    const edf = readEdf(real(EVE), EVE);
    expect(edf.variant).toBe('EDF+D');
    expect(edf.header.recordCount).toBe(8);
    expect(edf.header.recordDuration).toBe(0);
    expect(edf.startMs).toBe(readEdf(real(BRP), BRP).startMs - 7000);
    expect(edf.annotations).toEqual([
      { onset: 0, duration: 0, text: 'Recording starts' },
      { onset: 1752, duration: 0, text: 'Hypopnea' },
      { onset: 7189, duration: 0, text: 'Hypopnea' },
      { onset: 7199, duration: 10, text: 'Central Apnea' },
      { onset: 14936, duration: 14, text: 'Central Apnea' },
      { onset: 15334, duration: 10, text: 'Central Apnea' },
      { onset: 15896, duration: 13, text: 'Obstructive Apnea' },
      { onset: 16619, duration: 10, text: 'Central Apnea' },
    ]);
    const central = edf.annotations.filter((a) => a.text === 'Central Apnea').map((a) => a.duration);
    expect(central).toEqual([10, 14, 10, 10]);

    const rec = edfToRecording(edf);
    expect(rec.channels).toEqual([]);
    expect(rec.meta.skippedSignals).toEqual([{ label: 'Crc16', reason: 'checksum-or-status' }]);
    expect(rec.events[1]).toEqual({ onsetMs: edf.startMs + 1752_000, durationMs: 0, text: 'Hypopnea' });
    expect(rec.stopMs).toBe(edf.startMs + 16629_000);
  });

  it('ResMed SA2: Pulse and SpO2 at 1 Hz, every value -1: impossible, so all missing and counted', () => {
    const rec = edfToRecording(readEdf(real(SA2), SA2));
    const [pulse, spo2] = rec.channels;
    expect([pulse.code, pulse.label, pulse.sampleRate, pulse.unit]).toEqual(['PR', 'Pulse.1s', 1, 'bpm']);
    expect([spo2.code, spo2.label, spo2.sampleRate, spo2.unit]).toEqual(['SPO2_PSG', 'SpO2.1s', 1, '%']);
    for (const channel of [pulse, spo2]) {
      // No missing codes in another tool's file: -1 % and -1 bpm are out of range, hence missing.
      expect(channel.missingCodes).toEqual([]);
      expect(channel.storage).toBe('float32');
      expect(channel.samples.length).toBe(388 * 60);
      expect(channel.samples.every(Number.isNaN)).toBe(true);
      expect(channel.rejected).toEqual({ outOfRange: 388 * 60, nonFinite: 0 });
    }
  });

  it('ResMed PLD: 9 therapy channels at 0.5 Hz plus Crc16, RespRate mapped to BR', () => {
    const edf = readEdf(real(PLD), PLD);
    const therapy = edf.signals.filter((s) => s.label !== 'Crc16');
    expect(therapy).toHaveLength(9);
    expect(therapy.every((s) => s.sampleRate === 0.5 && s.digital.length === 388 * 30)).toBe(true);
    expect(therapy.map((s) => s.label)).toEqual(
      expect.arrayContaining(['RespRate.2s', 'TidVol.2s', 'Leak.2s', 'Snore.2s', 'FlowLim.2s']),
    );
    const codes = edfToRecording(edf).channels.map((c) => c.code);
    expect(codes).toContain('BR');
    expect(codes).toContain('Leak.2s');
  });

  it('Sleep-EDF PSG: 24.04.89 is 1989, 10 × 30 s, 100 Hz and 1 Hz signals, EEG stays unmapped', () => {
    const edf = readEdf(real(PSG), PSG);
    expect(new Date(edf.startMs).toISOString()).toBe('1989-04-24T16:13:00.000Z');
    expect(edf.header.recordCount * edf.header.recordDuration).toBe(300);
    expect(edf.signals.map((s) => [s.label, s.sampleRate])).toEqual([
      ['EEG Fpz-Cz', 100],
      ['EEG Pz-Oz', 100],
      ['EOG horizontal', 100],
      ['Resp oro-nasal', 1],
      ['EMG submental', 1],
      ['Temp rectal', 1],
      ['Event marker', 1],
    ]);
    const rec = edfToRecording(edf);
    expect(rec.channels.map((c) => c.code)).toEqual([
      'EEG Fpz-Cz',
      'EEG Pz-Oz',
      'EOG horizontal',
      'NC_PSG',
      'EMG submental',
      'Temp rectal',
      'Event marker',
    ]);
    expect(rec.channels[0].samples.length).toBe(30_000);
    expect(rec.stopMs - rec.startMs).toBe(5 * MIN);
  });

  it('HMC hypnogram: EDF+C, one zero-duration record, 856 annotations with the stage counts', () => {
    const edf = readEdf(real(HMC), HMC);
    expect(edf.variant).toBe('EDF+C');
    expect(edf.header.recordCount).toBe(1);
    expect(edf.header.recordDuration).toBe(0);
    expect(edf.signals).toEqual([]);
    expect(edf.annotations).toHaveLength(856);
    const count = (text: string) => edf.annotations.filter((a) => a.text === text).length;
    expect(['W', 'N1', 'N2', 'N3', 'R'].map((s) => count(`Sleep stage ${s}`))).toEqual([151, 109, 430, 23, 141]);
    expect(count('Lights off@@EEG F4-A1')).toBe(1);
    expect(count('Lights on@@EEG Fpz-Cz')).toBe(1);
    const stages = edf.annotations.filter((a) => a.text.startsWith('Sleep stage'));
    expect(stages.every((a) => a.duration === 30)).toBe(true);
    const last = edf.annotations.reduce((m, a) => Math.max(m, a.onset + a.duration), 0);
    expect(last / 3600).toBeCloseTo(7.1, 1);
  });

  it('decodes a file held at an odd byte offset (copy path) like an aligned one', () => {
    const bytes = real(SA2);
    const shifted = new Uint8Array(bytes.length + 1);
    shifted.set(bytes, 1);
    const a = readEdf(bytes, SA2);
    const b = readEdf(shifted.subarray(1), SA2);
    expect(b.signals[2].digital).toEqual(a.signals[2].digital);
  });
});
