import { describe, expect, it } from 'vitest';
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

  it('refuses an empty file and a header without rows', () => {
    expect(() => readCsvTable('\n\n', 'empty.csv')).toThrow('empty.csv: file: is empty (no header row)');
    expect(() => readCsvTable('"a","b"\n', 'header.csv')).toThrow('header.csv: file: has a header but no data rows');
  });
});
