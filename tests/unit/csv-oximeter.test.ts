import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readOximeterCsv } from '../../server/recordings/csv/oximeter';
import { AmbiguousDateOrderError } from '../../server/recordings/model';

/** A Wellue / Checkme O2 export, 4-s rows, with '--' and a 12-s hole. */
const WELLUE_4S = [
  'Time,Oxygen Level,Pulse Rate,Motion,O2 Reminder,PR Reminder',
  '00:02:16 Mar 10 2026,95,62,0,0,0',
  '00:02:20 Mar 10 2026,94,61,0,0,0',
  '00:02:24 Mar 10 2026,--,--,3,0,0',
  '00:02:28 Mar 10 2026,93,60,1,0,0',
  '00:02:40 Mar 10 2026,92,60,0,0,0',
  '',
].join('\r\n');

describe('Wellue / Checkme O2 oximeter CSV', () => {
  it('reads SPO2, PR, Motion and the extra columns as float32 channels at the inferred rate', () => {
    const rec = readOximeterCsv(WELLUE_4S, 'O2Ring_20260310.csv', { timezone: 'Europe/Vienna' });
    expect(rec.format).toBe('oximeter-csv');
    expect(new Date(rec.startMs).toISOString()).toBe('2026-03-09T23:02:16.000Z');
    expect(rec.stopMs - rec.startMs).toBe(7 * 4000);
    expect(rec.channels.map((c) => [c.code, c.label, c.unit])).toEqual([
      ['SPO2', 'Oxygen Level', '%'],
      ['PR', 'Pulse Rate', 'bpm'],
      ['Motion', 'Motion', ''],
      ['O2 Reminder', 'O2 Reminder', ''],
      ['PR Reminder', 'PR Reminder', ''],
    ]);
    const [spo2, pr, motion] = rec.channels;
    for (const c of rec.channels) {
      expect(c.storage).toBe('float32');
      expect(c.sampleRate).toBe(0.25);
      expect(c.t0).toBe(rec.startMs);
      expect([c.scale, c.offset]).toEqual([1, 0]);
    }
    // '--' is missing (NaN, no code: the oximeter defines none); the 12-s hole (two 4-s slots) stays missing too.
    expect(Array.from(spo2.samples)).toEqual([95, 94, NaN, 93, NaN, NaN, 92]);
    expect(Array.from(pr.samples)).toEqual([62, 61, NaN, 60, NaN, NaN, 60]);
    expect(Array.from(motion.samples)).toEqual([0, 0, 3, 1, NaN, NaN, 0]);
    expect(spo2.missingCodes).toEqual([]);
    expect(rec.meta).toMatchObject({ periodMs: 4000, rows: 5, gapSlots: 2, duplicateRows: 0 });
  });

  it('1-s rows across midnight and across the spring-forward DST change stay contiguous', () => {
    const text = [
      'Time,Oxygen Level,Pulse Rate,Motion',
      '23:59:59 Mar 28 2026,97,58,0',
      '00:00:00 Mar 29 2026,97,58,0',
      '01:59:59 Mar 29 2026,96,57,0',
      '03:00:00 Mar 29 2026,96,57,0',
      '03:00:01 Mar 29 2026,95,57,0',
    ].join('\n');
    const rec = readOximeterCsv(text, 'dst.csv', { timezone: 'Europe/Vienna' });
    const spo2 = rec.channels[0];
    expect(spo2.sampleRate).toBe(1);
    expect(new Date(spo2.t0).toISOString()).toBe('2026-03-28T22:59:59.000Z');
    // 23:59:59 → 01:59:59 local is 2 h; 01:59:59 → 03:00:00 is one second (CET → CEST).
    expect(spo2.samples.length).toBe(2 * 3600 + 3);
    expect(Array.from(spo2.samples.subarray(-3))).toEqual([96, 96, 95]);
    expect(rec.meta.gapSlots).toBe(2 * 3600 - 2);
  });

  it('reads the hour a DST fall-back repeats in order instead of refusing it', () => {
    const text = [
      'Time,Oxygen Level',
      '02:59:58 Oct 25 2026,95',
      '02:59:59 Oct 25 2026,96',
      '02:00:00 Oct 25 2026,97',
      '02:00:01 Oct 25 2026,98',
      '03:00:00 Oct 25 2026,99',
    ].join('\n');
    const spo2 = readOximeterCsv(text, 'fold.csv', { timezone: 'Europe/Vienna' }).channels[0];
    expect(new Date(spo2.t0).toISOString()).toBe('2026-10-25T00:59:58.000Z'); // 02:59:58 CEST
    // 02:59:59 CEST → 02:00:00 CET is one second; 02:00:00 CET → 03:00:00 CET is an hour.
    expect(spo2.samples.length).toBe(2 + 3600 + 1);
    expect(Array.from(spo2.samples.subarray(0, 5))).toEqual([95, 96, 97, 98, NaN]);
    expect(spo2.samples[2 + 3600]).toBe(99);
  });

  it('also reads 12-hour times and ISO-like local times', () => {
    const twelve = 'Time,Oxygen Level\n"11:59:59 PM Mar 10, 2026",95\n"12:00:00 AM Mar 11, 2026","96"\n12:00:01 AM Mar 11 2026,97';
    const rec = readOximeterCsv(twelve, 'am-pm.csv');
    expect(new Date(rec.startMs).toISOString()).toBe('2026-03-10T23:59:59.000Z');
    expect(Array.from(rec.channels[0].samples)).toEqual([95, 96, 97]);
    const iso = readOximeterCsv('Time,Oxygen Level\n2026-03-10 23:59:59,95', 'iso.csv');
    expect(iso.startMs).toBe(rec.startMs);
  });

  it("reads the phone app's slashed dates in the file's own order, told by a day past 12 or by the night's midnight", () => {
    // ViHealth on a day/month phone: "HH:MM:SS DD/MM/YYYY", the 16th tells the order.
    const dmy = readOximeterCsv('Time,Oxygen Level,Pulse Rate,Motion\n21:34:53 16/07/2026,97,62,5\n21:34:54 16/07/2026,96,61,0', 'dmy.csv');
    expect(new Date(dmy.startMs).toISOString()).toBe('2026-07-16T21:34:53.000Z');
    // Month/day with the 16th second; date first and a 12-hour clock too.
    const mdy = readOximeterCsv('Time,Oxygen Level\n07/16/2026 09:34:53 PM,97\n07/16/2026 09:34:54 PM,96', 'mdy.csv');
    expect(mdy.startMs).toBe(dmy.startMs);
    // No number past 12: the night over midnight steps its day (03 → 04 April), read as such;
    // the other reading (4 March → 4 April) would be a month's jump.
    const night = ['Time,Oxygen Level', '23:59:58 03/04/2026,95', '23:59:59 03/04/2026,94', '00:00:00 04/04/2026,93'].join('\n');
    const overMidnight = readOximeterCsv(night, 'night.csv', { timezone: 'Europe/Vienna' });
    expect(new Date(overMidnight.startMs).toISOString()).toBe('2026-04-03T21:59:58.000Z');
    expect(Array.from(overMidnight.channels[0].samples)).toEqual([95, 94, 93]);
    const usNight = ['Time,Oxygen Level', '23:59:59 04/03/2026,95', '00:00:00 04/04/2026,93'].join('\n');
    expect(new Date(readOximeterCsv(usNight, 'us.csv').startMs).toISOString()).toBe('2026-04-03T23:59:59.000Z');
    // Year first is year, month, day.
    expect(readOximeterCsv('Time,Oxygen Level\n2026/07/16 21:34:53,97', 'ymd.csv').startMs).toBe(dmy.startMs);
  });

  it('refuses slashed dates whose order no row tells, rather than read them a month off', () => {
    const read = (text: string) => () => readOximeterCsv(text, 'o2.csv');
    expect(read('Time,Oxygen Level\n22:00:00 03/04/2026,95\n22:00:01 03/04/2026,95')).toThrow(
      'o2.csv: Time: its dates (such as "03/04/2026") read as day/month and as month/day alike, and neither its rows, its name nor the upload\'s other files tell which',
    );
    expect(read('Time,Oxygen Level\n22:00:00 03/04/2026,95')).toThrow(AmbiguousDateOrderError);
    expect(read('Time,Oxygen Level\n22:00:00 13/04/2026,95\n22:00:01 04/13/2026,95')).toThrow('o2.csv: Time: its dates mix day/month and month/day');
    // A date the same both ways needs no telling.
    expect(new Date(readOximeterCsv('Time,Oxygen Level\n22:00:00 05/05/2026,95', 'o2.csv').startMs).toISOString()).toBe('2026-05-05T22:00:00.000Z');
    expect(read('Time,Oxygen Level\n22:00:00 31/02/2026,95')).toThrow('o2.csv: Time (line 2): "22:00:00 31/02/2026" is not a time like');
  });

  it("a session after midnight, every number up to 12: the app's date in the file name tells, else the upload's other exports", () => {
    const afterMidnight = 'Time,Oxygen Level\n01:35:24 04/11/2026,95\n01:35:28 04/11/2026,94';
    // ViHealth names an export by its start: 4 November 2026, 01:35:24.
    const named = readOximeterCsv(afterMidnight, 'O2Ring 2000_20261104013524.csv', { timezone: 'UTC' });
    expect(new Date(named.startMs).toISOString()).toBe('2026-11-04T01:35:24.000Z');
    expect(named.meta.slashedDates).toBe('day/month');
    expect(readOximeterCsv(afterMidnight, 'Wellue_O2Ring-S_S8AW_20260411013524_SPO2.csv').meta.slashedDates).toBe('month/day');
    // A name without a date, or with one that fits neither reading, leaves it to the upload.
    for (const name of ['night.csv', 'O2Ring_20260101.csv']) {
      expect(() => readOximeterCsv(afterMidnight, name)).toThrow(AmbiguousDateOrderError);
      const settled = readOximeterCsv(afterMidnight, name, { slashedDayFirst: true });
      expect([name, new Date(settled.startMs).toISOString()]).toEqual([name, '2026-11-04T01:35:24.000Z']);
    }
    // The file's own rows win over what the upload settled.
    expect(new Date(readOximeterCsv('Time,Oxygen Level\n01:35:24 13/04/2026,95', 'x.csv', { slashedDayFirst: false }).startMs).getUTCMonth()).toBe(3);
  });

  it('never reads a slashed date a month off: any export in either order, named or not, is read at its true time or refused (property)', () => {
    const two = (n: number) => String(n).padStart(2, '0');
    fc.assert(
      fc.property(
        fc.integer({ min: Date.UTC(2020, 0, 1) / 1000, max: Date.UTC(2030, 11, 31) / 1000 }),
        fc.constantFrom(1, 2, 4),
        fc.integer({ min: 1, max: 400 }),
        fc.boolean(),
        fc.boolean(),
        fc.constantFrom('none', 'true', 'other'),
        (startS, stepS, rows, dayFirst, timeFirst, naming) => {
          const startMs = startS * 1000;
          const lines = ['Time,Oxygen Level'];
          for (let i = 0; i < rows; i++) {
            const d = new Date(startMs + i * stepS * 1000);
            const [a, b] = dayFirst ? [d.getUTCDate(), d.getUTCMonth() + 1] : [d.getUTCMonth() + 1, d.getUTCDate()];
            const date = `${two(a)}/${two(b)}/${d.getUTCFullYear()}`;
            const time = `${two(d.getUTCHours())}:${two(d.getUTCMinutes())}:${two(d.getUTCSeconds())}`;
            lines.push(`${timeFirst ? `${time} ${date}` : `${date} ${time}`},95`);
          }
          const stamp = (ms: number) => new Date(ms).toISOString().slice(0, 19).replace(/\D/g, '');
          const name = naming === 'none' ? 'export.csv' : `O2Ring_${stamp(naming === 'true' ? startMs : startMs + 400 * 86_400_000)}.csv`;
          const read = () => readOximeterCsv(lines.join('\n'), name).startMs;
          // The export's own name always tells.
          if (naming === 'true') {
            expect(read()).toBe(startMs);
          } else {
            try {
              expect(read()).toBe(startMs);
            } catch (err) {
              // Refused only when nothing could tell: never with a wrong time.
              expect(err).toBeInstanceOf(AmbiguousDateOrderError);
            }
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('keeps the first of two rows in one slot and ignores non-numeric extra columns', () => {
    const text = [
      'Time,Oxygen Level,Pulse Rate,Motion,Note',
      '22:00:00 Mar 10 2026,95,60,0,ok',
      '22:00:01 Mar 10 2026,96,61,0,',
      '22:00:01 Mar 10 2026,99,99,0,dup',
      '22:00:02 Mar 10 2026,97,62,0,',
    ].join('\n');
    const rec = readOximeterCsv(text, 'dup.csv');
    expect(Array.from(rec.channels[0].samples)).toEqual([95, 96, 97]);
    expect(rec.meta).toMatchObject({ duplicateRows: 1, ignoredColumns: ['Note'] });
    expect(new Date(rec.startMs).toISOString()).toBe('2026-03-10T22:00:00.000Z');
  });

  it('refuses broken exports naming the file, the column and the line', () => {
    const read = (text: string) => () => readOximeterCsv(text, 'o2.csv');
    expect(read('')).toThrow('o2.csv: file: is empty (no header row)');
    expect(read('Time,Oxygen Level,Pulse Rate,Motion\n')).toThrow('o2.csv: file: has a header but no data rows');
    expect(read('When,SpO2\n00:02:16 Mar 10 2026,95')).toThrow('o2.csv: header: has no "Time" column (found: When, SpO2)');
    expect(read('Time,Pulse Rate\n00:02:16 Mar 10 2026,60')).toThrow('o2.csv: header: has no "Oxygen Level" column');
    expect(read('Time,Oxygen Level\n00:02:16 Mar 10 2026,95\n00:02:17 Mrz 10 2026,95')).toThrow(
      'o2.csv: Time (line 3): "00:02:17 Mrz 10 2026" is not a time like "00:02:16 Mar 10 2026"',
    );
    expect(read('Time,Oxygen Level\n00:02:16 Feb 30 2026,95')).toThrow('o2.csv: Time (line 2)');
    expect(read('Time,Oxygen Level,Pulse Rate\n00:02:16 Mar 10 2026,9x,60')).toThrow(
      'o2.csv: Oxygen Level (line 2): "9x" is not a number or \'--\'',
    );
    expect(read('Time,Oxygen Level\n00:02:16 Mar 10 2026,95\n00:02:10 Mar 10 2026,95')).toThrow(
      'o2.csv: Time (line 3): goes back in time from the previous row',
    );
    expect(read('Time,Oxygen Level\n00:02:16 Mar 10 2026,95\n00:02:16 Mar 14 2026,95')).toThrow(
      'o2.csv: Time: rows span 96.0 h, more than the 36 h of one night',
    );
    expect(() => readOximeterCsv(WELLUE_4S, 'o2.csv', { timezone: 'Nowhere/City' })).toThrow(
      'o2.csv: timezone: "Nowhere/City" is not a known IANA time zone',
    );
  });

  it('reads a full 8-h night of 1-s rows without gaps', () => {
    const start = Date.UTC(2026, 2, 10, 22, 0, 0);
    const lines = ['Time,Oxygen Level,Pulse Rate,Motion'];
    const months = ['Jan', 'Feb', 'Mar'];
    for (let i = 0; i < 8 * 3600; i++) {
      const d = new Date(start + i * 1000);
      const hms = d.toISOString().slice(11, 19);
      lines.push(`${hms} ${months[d.getUTCMonth()]} ${d.getUTCDate()} ${d.getUTCFullYear()},${90 + (i % 10)},${60 + (i % 5)},0`);
    }
    const rec = readOximeterCsv(lines.join('\n'), 'night.csv');
    expect(rec.channels[0].samples.length).toBe(8 * 3600);
    expect(rec.meta.gapSlots).toBe(0);
  });
});
