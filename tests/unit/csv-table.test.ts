import { describe, expect, it } from 'vitest';
import { parseRecordingFile } from '../../server/recordings/assemble';
import { readCsvTable } from '../../server/recordings/csv/table';
import { RecordingFormatError } from '../../server/recordings/model';

describe('readCsvTable', () => {
  it('keeps a line break inside a quoted cell in that cell (as LF), and numbers rows by the line they start on', () => {
    const text = '\uFEFFTime,SpO2,Note\r\n2026-03-09 22:00:00,97,"probe moved\r\nby the patient"\r\n2026-03-09 22:00:01,96,"said ""ok"""\r\n';
    const table = readCsvTable(text, 'notes.csv');
    expect(table.header).toEqual(['Time', 'SpO2', 'Note']);
    expect(table.rows.map((r) => r.cells)).toEqual([
      ['2026-03-09 22:00:00', '97', 'probe moved\nby the patient'],
      ['2026-03-09 22:00:01', '96', 'said "ok"'],
    ]);
    expect(table.rows.map((r) => r.line)).toEqual([2, 4]);
  });

  it('splits plain text by lines and commas, skipping blank lines, with 1-based line numbers', () => {
    const table = readCsvTable('a, b\n\n1,2\n  \n3 ,4\n', 'plain.csv');
    expect(table.header).toEqual(['a', 'b']);
    expect(table.rows).toEqual([
      { line: 3, cells: ['1', '2'] },
      { line: 5, cells: ['3', '4'] },
    ]);
  });

  it('numbers a quoted file\'s rows like a plain one, with or without a final line break', () => {
    expect(readCsvTable('"a","b"\n\n"1","2"\n"3","4"', 'q.csv').rows.map((r) => r.line)).toEqual([3, 4]);
    expect(readCsvTable('"a","b"\n\n"1","2"\n"3","4"\n', 'q.csv').rows.map((r) => r.line)).toEqual([3, 4]);
  });

  it('names the file and the line of an unterminated quote', () => {
    expect(() => readCsvTable('a,b\n1,"open\n2,3\n', 'broken.csv')).toThrow(RecordingFormatError);
    expect(() => readCsvTable('a,b\n1,"open\n2,3\n', 'broken.csv')).toThrow(/broken\.csv: .*is not valid CSV/);
  });

  it("reads a spreadsheet's semicolon file of a decimal-comma locale: its cells split at ';', \"95,5\" as 95.5, times as they are (decision 1046)", () => {
    const plain = readCsvTable('Timestamp;Value\r\n2026-03-10T22:00:00,250Z;36,6\r\n2026-03-10T22:01:00Z;-0,5\r\n2026-03-10T22:02:00Z;37\r\n', 'de.csv');
    expect(plain.header).toEqual(['Timestamp', 'Value']);
    expect(plain.rows.map((r) => r.cells)).toEqual([
      ['2026-03-10T22:00:00,250Z', '36.6'],
      ['2026-03-10T22:01:00Z', '-0.5'],
      ['2026-03-10T22:02:00Z', '37'],
    ]);
    const quoted = readCsvTable('"Time";"Oxygen Level";"Note"\n"22:00:00 Mar 10 2026";"95";"a, b"\n', 'q.csv');
    expect(quoted.rows.map((r) => r.cells)).toEqual([['22:00:00 Mar 10 2026', '95', 'a, b']]);
    // A comma file keeps its commas' meaning: a header with both is split at commas.
    expect(readCsvTable('a,b;c\n1,2;3', 'c.csv').rows[0].cells).toEqual(['1', '2;3']);
  });

  it("imports a semicolon oximeter export and data points as their comma forms", () => {
    const bytes = (text: string) => new TextEncoder().encode(text);
    const oximeter = (sep: string) => ['Time', 'Oxygen Level', 'Pulse Rate', 'Motion'].join(sep) + '\n' + ['22:00:00 Mar 10 2026', '95', '61', '0'].join(sep) + '\n' + ['22:00:04 Mar 10 2026', '--', '--', '3'].join(sep);
    const samples = (text: string, name: string) => parseRecordingFile(name, bytes(text), { timezone: 'UTC', csvCode: 'body_temp' }).channels.map((c) => [c.code, Array.from(c.samples)]);
    expect(samples(oximeter(';'), 'o2.csv')).toEqual(samples(oximeter(','), 'o2.csv'));
    expect(samples(oximeter(';'), 'o2.csv')[0]).toEqual(['SPO2', [95, NaN]]);
    const temperatures = samples('Timestamp;Value\n2026-03-10T22:00:00Z;36,6\n2026-03-10T22:01:00Z;36,8', 'temp.csv');
    expect(temperatures).toEqual([['body_temp', [Math.fround(36.6), Math.fround(36.8)]]]);
  });

  it('refuses an empty file and a header without rows', () => {
    expect(() => readCsvTable('\n\n', 'empty.csv')).toThrow('empty.csv: file: is empty (no header row)');
    expect(() => readCsvTable('"a","b"\n', 'header.csv')).toThrow('header.csv: file: has a header but no data rows');
  });
});
