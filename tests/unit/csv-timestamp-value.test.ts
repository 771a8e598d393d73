import { describe, expect, it } from 'vitest';
import { readTimestampValueCsv } from '../../server/recordings/csv/timestamp-value';

const T0 = Date.UTC(2026, 2, 10, 22, 0, 0);

describe('generic Timestamp,Value CSV', () => {
  it('ISO 8601 UTC timestamps, empty and -- values as missing (NaN), a -2 kept as a value, one channel with the given code', () => {
    const text = [
      'Timestamp,Value',
      '2026-03-10T22:00:00.000Z,36.6',
      '2026-03-10T22:01:00.000Z,',
      '2026-03-10T22:02:00.000Z,--',
      '2026-03-10T22:03:00.000Z,-2',
      '2026-03-10T22:04:00.000Z,36.8',
    ].join('\n');
    const rec = readTimestampValueCsv(text, 'temp.csv', { code: 'body_temp', unit: 'degC' });
    expect(rec.format).toBe('timestamp-value-csv');
    const [ch] = rec.channels;
    expect([ch.code, ch.label, ch.unit, ch.storage, ch.t0]).toEqual(['body_temp', 'body_temp', 'degC', 'float32', T0]);
    expect(ch.sampleRate).toBeCloseTo(1 / 60, 15);
    expect(Array.from(ch.samples)).toEqual([Math.fround(36.6), NaN, NaN, -2, Math.fround(36.8)]);
    expect(rec.stopMs).toBe(T0 + 5 * 60_000);
  });

  it('epoch seconds, epoch milliseconds, offsets and local times give the same instants', () => {
    const s = T0 / 1000;
    const forms = [
      `Timestamp,Value\n${s},1\n${s + 1},2\n${s + 3},4`,
      `Timestamp,Value\n${T0},1\n${T0 + 1000},2\n${T0 + 3000},4`,
      'timestamp,value\n2026-03-10T23:00:00+01:00,1\n2026-03-10T23:00:01+0100,2\n2026-03-10T23:00:03+01,4',
      'Timestamp,Value\n2026-03-10 23:00:00,1\n2026-03-10 23:00:01,2\n2026-03-10 23:00:03,4',
    ];
    for (const text of forms) {
      const ch = readTimestampValueCsv(text, 'x.csv', { code: 'HR', timezone: 'Europe/Vienna' }).channels[0];
      expect(ch.t0).toBe(T0);
      expect(ch.sampleRate).toBe(1);
      expect(Array.from(ch.samples)).toEqual([1, 2, NaN, 4]);
    }
  });

  it('local timestamps across a DST fall-back stay in order', () => {
    const text = 'Timestamp,Value\n2026-10-25 02:59:59,1\n2026-10-25 02:00:00,2\n2026-10-25 02:00:01,3';
    const ch = readTimestampValueCsv(text, 'fold.csv', { code: 'HR', timezone: 'Europe/Vienna' }).channels[0];
    expect(new Date(ch.t0).toISOString()).toBe('2026-10-25T00:59:59.000Z');
    expect(Array.from(ch.samples)).toEqual([1, 2, 3]);
    // With explicit offsets a step back is a real error.
    expect(() => readTimestampValueCsv('Timestamp,Value\n2026-10-25T02:59:59+02:00,1\n2026-10-25T02:00:00+02:00,2', 'back.csv', { code: 'HR' })).toThrow(
      'back.csv: Timestamp (line 3): goes back in time from the previous row',
    );
  });

  it('30 Hz written to whole milliseconds keeps 30 Hz (mean step when rows are regular)', () => {
    const lines = ['Timestamp,Value'];
    for (let i = 0; i < 300; i++) lines.push(`${Math.round(T0 + (i * 1000) / 30)},${i}`);
    const ch = readTimestampValueCsv(lines.join('\n'), 'y.csv', { code: 'Y_DIST' }).channels[0];
    expect(ch.sampleRate).toBeCloseTo(30, 6);
    expect(ch.samples.length).toBe(300);
    expect(ch.samples[299]).toBe(299);
  });

  it('a sample rate given by the caller wins over the inferred one', () => {
    const ch = readTimestampValueCsv('Timestamp,Value\n2026-03-10T22:00:00Z,5', 'one.csv', { code: 'weight', sampleRate: 1 / 86400 }).channels[0];
    expect(ch.sampleRate).toBe(1 / 86400);
    expect(Array.from(ch.samples)).toEqual([5]);
  });

  it('refuses what it cannot read, naming file, column and line', () => {
    const read = (text: string) => () => readTimestampValueCsv(text, 'tv.csv', { code: 'BR' });
    expect(read('Time,Oxygen Level\n00:02:16 Mar 10 2026,95')).toThrow('tv.csv: header: expected "Timestamp,Value", found "Time,Oxygen Level"');
    expect(read('Timestamp,Value\nyesterday,1')).toThrow('tv.csv: Timestamp (line 2): "yesterday" is not an ISO 8601 time or epoch seconds/milliseconds');
    expect(read('Timestamp,Value\n2026-02-30T00:00:00Z,1')).toThrow('tv.csv: Timestamp (line 2)');
    expect(read('Timestamp,Value\n2026-03-10T22:00:00Z,abc')).toThrow('tv.csv: Value (line 2): "abc" is not a number or \'--\'');
  });
});
