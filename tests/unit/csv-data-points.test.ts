import { describe, expect, it } from 'vitest';
import { dataPointFileName, parseDataPointFileName, writeDataPointCsv } from '../../server/recordings/csv/data-points';
import { readTimestampValueCsv } from '../../server/recordings/csv/timestamp-value';
import type { ChannelData } from '../../server/recordings/model';

const T0 = Date.UTC(2025, 7, 8, 1, 2, 10);

const spo2: ChannelData = {
  code: 'SPO2',
  label: 'SPO2',
  unit: '%',
  sampleRate: 1,
  t0: T0,
  storage: 'float32',
  scale: 1,
  offset: 0,
  samples: Float32Array.from([95.5, -1, 94, -2, Number.NaN, 0.1]),
};

describe('data-point CSV (spec 2 §7)', () => {
  it('writes Timestamp,Value rows with ISO 8601 UTC times and empty values for missing samples', () => {
    expect(writeDataPointCsv(spo2)).toBe(
      [
        'Timestamp,Value',
        '2025-08-08T01:02:10.000Z,95.5',
        '2025-08-08T01:02:11.000Z,',
        '2025-08-08T01:02:12.000Z,94',
        '2025-08-08T01:02:13.000Z,',
        '2025-08-08T01:02:14.000Z,',
        '2025-08-08T01:02:15.000Z,0.1',
        '',
      ].join('\r\n'),
    );
  });

  it('keeps the device codes or writes epoch times on request', () => {
    const text = writeDataPointCsv(spo2, { missing: 'code', timestamps: 'epoch-s' });
    expect(text.split('\r\n').slice(1, 6)).toEqual([`${T0 / 1000},95.5`, `${T0 / 1000 + 1},-1`, `${T0 / 1000 + 2},94`, `${T0 / 1000 + 3},-2`, `${T0 / 1000 + 4},`]);
    expect(writeDataPointCsv(spo2, { timestamps: 'epoch-ms' }).split('\r\n')[1]).toBe(`${T0},95.5`);
  });

  it('writes int16 channels in physical units without float noise, at sub-second rates', () => {
    const flow: ChannelData = { ...spo2, code: 'NC_PSG', storage: 'int16', scale: 0.002, offset: 0, sampleRate: 25, samples: Int16Array.from([190, -900, 1500, -500]) };
    expect(writeDataPointCsv(flow).split('\r\n').slice(1, 5)).toEqual([
      '2025-08-08T01:02:10.000Z,0.38',
      '2025-08-08T01:02:10.040Z,-1.8',
      '2025-08-08T01:02:10.080Z,3',
      // physical -1: the device's missing code, whatever the storage.
      '2025-08-08T01:02:10.120Z,',
    ]);
  });

  it('reads back through the Timestamp,Value reader (missing → NaN)', () => {
    const back = readTimestampValueCsv(writeDataPointCsv(spo2), 'SPO2.csv', { code: 'SPO2' }).channels[0];
    expect(back.t0).toBe(T0);
    expect(back.sampleRate).toBe(1);
    expect(Array.from(back.samples)).toEqual([95.5, NaN, 94, NaN, NaN, Math.fround(0.1)]);
  });

  it('names the file from channel, date YYYYMMDD, device id and patient code', () => {
    expect(dataPointFileName({ channel: 'SPO2', date: '20250808', deviceId: 'RDR-7', patientCode: 'P0042' })).toBe('SPO2_20250808_RDR-7_P0042.csv');
    expect(dataPointFileName({ channel: 'NC_PSG', date: '2025-08-08', deviceId: 'dev 1/2', patientCode: 'A_B' })).toBe('NC_PSG_20250808_dev-1-2_A_B.csv');
    // A night key (Unix seconds, 00:00 UTC of the night's date).
    expect(dataPointFileName({ channel: 'HR', date: Date.UTC(2025, 7, 7) / 1000, deviceId: 'D_1', patientCode: 'P' })).toBe('HR_20250807_D-1_P.csv');
    expect(() => dataPointFileName({ channel: 'HR', date: '8/8/25', deviceId: 'D', patientCode: 'P' })).toThrow(/YYYYMMDD/);
    expect(parseDataPointFileName('NC_PSG_20250808_RDR-7_A_B.csv')).toEqual({ channel: 'NC_PSG', date: '20250808', deviceId: 'RDR-7', patientCode: 'A_B' });
    expect(parseDataPointFileName('night.edf')).toBeNull();
  });
});
