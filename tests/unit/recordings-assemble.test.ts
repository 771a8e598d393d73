import { describe, expect, it } from 'vitest';
import { assembleNight, nightFromFiles, parseRecordingFile } from '../../server/recordings/assemble';
import { ScoringFileAloneError, type ParsedRecording } from '../../server/recordings/model';
import type { ChannelData } from '../../server/recordings/model';
import { BRP, EVE, PLD, SA2, real } from './edf-build';

const files = (...names: string[]) => names.map((name) => ({ name, bytes: real(name) }));

describe('one night from several files', () => {
  it('ResMed BRP + EVE + SA2 + PLD: aligned by absolute start times, each channel keeps its own t0', () => {
    const night = nightFromFiles(files(BRP, EVE, SA2, PLD), { timezone: 'Europe/Vienna' });
    const eveStart = Date.UTC(2025, 7, 7, 23, 2, 3); // 01:02:03 CEST
    const brpStart = eveStart + 7000;
    expect(night.timezone).toBe('Europe/Vienna');
    expect(night.startMs).toBe(eveStart);
    expect(night.stopMs).toBe(brpStart + 388 * 60_000);
    for (const c of night.channels) expect(c.t0).toBe(brpStart);

    const byCode = new Map(night.channels.map((c) => [c.code, c]));
    expect(byCode.get('NC_PSG')?.label).toBe('Flow.40ms');
    expect(byCode.get('NC_PSG')?.sampleRate).toBe(25);
    expect(byCode.get('PR')?.label).toBe('Pulse.1s');
    expect(byCode.get('SPO2_PSG')?.label).toBe('SpO2.1s');
    expect(byCode.get('BR')?.label).toBe('RespRate.2s');
    // BRP's and PLD's pressures differ by suffix and stay apart.
    expect(byCode.has('Press.40ms') && byCode.has('Press.2s')).toBe(true);
    // ResMed's Crc16 checksums are no channels: skipped, and listed per file.
    expect(night.channels.filter((c) => c.label === 'Crc16')).toEqual([]);
    const skipped = (night.meta.files as { fileName: string; skippedSignals?: { label: string }[] }[]).flatMap((f) => (f.skippedSignals ?? []).map((s) => `${f.fileName}:${s.label}`));
    expect(skipped).toHaveLength(4);
    expect(skipped.every((s) => s.endsWith(':Crc16'))).toBe(true);
    expect(night.channels).toHaveLength(2 + 2 + 9);

    // Event onsets are relative to the EVE start (7 s before BRP).
    expect(night.events.map((e) => [(e.onsetMs - eveStart) / 1000, e.durationMs / 1000, e.text])).toEqual([
      [0, 0, 'Recording starts'],
      [1752, 0, 'Hypopnea'],
      [7189, 0, 'Hypopnea'],
      [7199, 10, 'Central Apnea'],
      [14936, 14, 'Central Apnea'],
      [15334, 10, 'Central Apnea'],
      [15896, 13, 'Obstructive Apnea'],
      [16619, 10, 'Central Apnea'],
    ]);
    const meta = night.meta.files as { fileName: string; format: string }[];
    expect(meta.map((f) => [f.fileName, f.format])).toEqual([
      [EVE, 'EDF+D'],
      [BRP, 'EDF'],
      [PLD, 'EDF'],
      [SA2, 'EDF'],
    ]);
  });

  it("a user label map applies to every file's signals", () => {
    const night = nightFromFiles(files(BRP, PLD), { labelMap: { Press: 'CPAP_PRESS', RespRate: '' } });
    const codes = night.channels.map((c) => [c.label, c.code]);
    expect(codes).toContainEqual(['Press.40ms', 'CPAP_PRESS']);
    // PLD's Press.2s maps to the same code: the first keeps it, the second its own label.
    expect(codes).toContainEqual(['Press.2s', 'Press.2s']);
    expect(codes).toContainEqual(['RespRate.2s', 'RespRate.2s']);
    expect(codes).toContainEqual(['Flow.40ms', 'NC_PSG']);
  });

  it('a code offered twice goes to the channel with the most valid samples, in any file order; the others keep their label', () => {
    const ch = (code: string, label: string, t0: number, missing = 0): ChannelData => ({
      code,
      label,
      unit: '',
      sampleRate: 1,
      t0,
      storage: 'float32',
      scale: 1,
      offset: 0,
      samples: new Float32Array(10).fill(95).fill(Number.NaN, 0, missing),
    });
    const part = (name: string, channels: ChannelData[], startMs: number): ParsedRecording => ({
      fileName: name,
      format: 'test',
      startMs,
      stopMs: startMs + 10_000,
      channels,
      events: [{ onsetMs: startMs + 500, durationMs: 0, text: name }],
      meta: {},
    });
    const psg = part('psg.edf', [ch('SPO2_PSG', 'SpO2', 5000)], 5000);
    // The CPAP's oximeter: one channel half missing, one all missing (no sensor attached).
    const cpap = part('cpap.edf', [ch('SPO2_PSG', 'SpO2.1s', 1000, 5), ch('SPO2_PSG', 'SpO2.1s', 1000, 10)], 1000);
    const night = assembleNight([psg, cpap]);
    expect(night.channels.map((c) => [c.code, c.label])).toEqual([
      ['SpO2.1s', 'SpO2.1s'],
      ['SpO2.1s#2', 'SpO2.1s'],
      ['SPO2_PSG', 'SpO2'],
    ]);
    expect(assembleNight([cpap, psg]).channels.map((c) => [c.code, c.label])).toEqual(night.channels.map((c) => [c.code, c.label]));
    expect((night.meta.sources as { code: string; files: string[]; valid: number }[]).map((s) => [s.code, s.files, s.valid])).toEqual([
      ['SpO2.1s', ['cpap.edf'], 5],
      ['SpO2.1s#2', ['cpap.edf'], 0],
      ['SPO2_PSG', ['psg.edf'], 10],
    ]);
    expect([night.startMs, night.stopMs, night.timezone]).toEqual([1000, 15_000, 'UTC']);
    expect(night.events.map((e) => e.text)).toEqual(['cpap.edf', 'psg.edf']);
    expect(() => assembleNight([])).toThrow(/no files/);
  });

  it('an EDF night and an oximeter CSV of the same night go together', () => {
    const csv = new TextEncoder().encode(
      'Time,Oxygen Level,Pulse Rate,Motion\n01:30:00 Aug 8 2025,95,62,0\n01:30:04 Aug 8 2025,--,--,2\n01:30:08 Aug 8 2025,94,61,0\n',
    );
    const night = nightFromFiles([...files(BRP), { name: 'O2Ring.csv', bytes: csv }]);
    const spo2 = night.channels.find((c) => c.code === 'SPO2')!;
    expect(spo2.t0).toBe(Date.UTC(2025, 7, 8, 1, 30, 0));
    expect(Array.from(spo2.samples)).toEqual([95, NaN, 94]);
    expect(night.channels.find((c) => c.code === 'PR')?.label).toBe('Pulse Rate');
    expect(night.startMs).toBe(Date.UTC(2025, 7, 8, 1, 2, 10));
  });

  it('parseRecordingFile tells formats apart and names what it cannot read', () => {
    const tv = new TextEncoder().encode('Timestamp,Value\n2025-08-08T01:02:10Z,12\n2025-08-08T01:02:11Z,13\n');
    expect(parseRecordingFile('BR_20250808_RDR-7_P1.csv', tv).channels[0].code).toBe('BR');
    expect(parseRecordingFile('anything.csv', tv, { csvCode: 'HR', csvUnit: 'bpm' }).channels[0].unit).toBe('bpm');
    expect(() => parseRecordingFile('anything.csv', tv)).toThrow('anything.csv: channel: a Timestamp,Value CSV needs a channel code');
    expect(() => parseRecordingFile('empty.edf', new Uint8Array(0))).toThrow('empty.edf: file: is empty (0 bytes)');
    expect(() => parseRecordingFile('vitals.csv', new TextEncoder().encode('Date,SpO2 %\n2025-08-08,95\n'))).toThrow(
      'vitals.csv: header: "Date,SpO2 %" is neither an oximeter export (Time,Oxygen Level,…) nor Timestamp,Value',
    );
    // A timestamp column beside other columns and no Value one (a merged watch and oximeter export): the header is what is wrong, not a missing channel code.
    expect(() => parseRecordingFile('o2ring_merged.csv', new TextEncoder().encode('timestamp,heart_rate,garmin_spo2,o2ring_spo2\n2025-03-06T22:20:56,61,95,96\n'))).toThrow(
      'o2ring_merged.csv: header: "timestamp,heart_rate,garmin_spo2,o2ring_spo2" is neither an oximeter export (Time,Oxygen Level,…) nor Timestamp,Value',
    );
    expect(() => parseRecordingFile('scan.pdf', new TextEncoder().encode('%PDF-1.7\n%\u00e2\u00e3\n'.repeat(30)))).toThrow(/scan\.pdf: version: .* is neither EDF \(must be "0"\) nor BDF/);
    // A PSG's NSRR scoring file, with or without its declaration and byte-order mark: read once its
    // upload's recordings are (recordings-nsrr-night.test.ts), not "neither EDF nor BDF".
    const nsrr = '\uFEFF<?xml version="1.0" encoding="UTF-8"?>\n<PSGAnnotation><EpochLength>30</EpochLength><ScoredEvents>' + '<ScoredEvent><EventType>Stages|Stages</EventType><EventConcept>Wake|0</EventConcept><Start>0</Start><Duration>30</Duration></ScoredEvent>'.repeat(10) + '</ScoredEvents></PSGAnnotation>';
    for (const xml of [nsrr, nsrr.replace(/^\uFEFF<\?xml[^>]*>\n/, '')]) {
      expect(() => parseRecordingFile('shhs1-200001-nsrr.xml', new TextEncoder().encode(xml))).toThrow(ScoringFileAloneError);
    }
  });
});
