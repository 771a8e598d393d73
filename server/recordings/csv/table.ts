import type { Info } from 'csv-parse';
import { parse } from 'csv-parse/sync';
import { RecordingFormatError } from '../model';

/** A CSV file split into a header row and data rows (1-based line numbers kept for errors). */
export interface CsvTable {
  header: string[];
  rows: { line: number; cells: string[] }[];
}

/**
 * Splits CSV text: BOM and CRLF tolerated, blank lines skipped, cells trimmed. Text with a
 * double quote anywhere goes through csv-parse (quoted cells, "" for a quote, line breaks
 * inside quoted cells); text without one cannot hold a quoted cell, so it is split by lines
 * and its delimiter, which is much faster on a night of data points. A file whose header is
 * split by semicolons is a spreadsheet's of a decimal-comma locale: its "95,5" is 95.5
 * (decision 1046).
 */
export function readCsvTable(text: string, file: string): CsvTable {
  const body = text.replace(/^\uFEFF/, '');
  const delimiter = csvDelimiter(body.slice(0, body.search(/\r|\n|$/)));
  const split = body.includes('"') ? parseQuoted(body, file, delimiter) : splitPlain(body, delimiter);
  const records = delimiter === ';' ? split.map((r) => ({ line: r.line, cells: r.cells.map(decimalPoint) })) : split;
  const [first, ...rows] = records;
  if (first === undefined) throw new RecordingFormatError(file, 'file', 'is empty (no header row)');
  if (rows.length === 0) throw new RecordingFormatError(file, 'file', 'has a header but no data rows');
  return { header: first.cells, rows };
}

/**
 * A CSV line's delimiter: ';' when the line has a semicolon and no comma (what a spreadsheet
 * writes in a locale whose decimal mark is the comma), else ','.
 */
export function csvDelimiter(headerLine: string): ',' | ';' {
  return headerLine.includes(';') && !headerLine.includes(',') ? ';' : ',';
}

const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;
/** "95,5" → "95.5"; every other cell (times, text) as it is. */
const decimalPoint = (cell: string): string => (DECIMAL_COMMA.test(cell) ? cell.replace(',', '.') : cell);

function splitPlain(text: string, delimiter: string): CsvTable['rows'] {
  const lines = text.split(/\r?\n|\r/);
  const rows: CsvTable['rows'] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    rows.push({ line: i + 1, cells: lines[i].split(delimiter).map((c) => c.trim()) });
  }
  return rows;
}

const lineBreakChars = (cells: readonly string[]): number => cells.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0);

function parseQuoted(text: string, file: string, delimiter: string): CsvTable['rows'] {
  try {
    // One kind of line break (a CRLF inside a quoted cell would otherwise count as two lines).
    const records = parse(text.replace(/\r\n?/g, '\n'), { delimiter, info: true, trim: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true }) as unknown as Array<{ record: string[]; info: Info }>; // the typings do not model `info: true`
    // info.lines is the line the record ends on: it starts as many lines earlier as its cells
    // hold line breaks.
    return records.map(({ record, info }) => ({ line: info.lines - lineBreakChars(record), cells: record }));
  } catch (error) {
    const e = error as { message?: string; lines?: number };
    throw new RecordingFormatError(file, e.lines ? `line ${e.lines}` : 'file', `is not valid CSV (${e.message ?? String(error)})`);
  }
}

/** Index of the first header cell matching one of `names` (case-insensitive), or -1. */
export function findColumn(header: string[], names: readonly string[]): number {
  const wanted = names.map((n) => n.toLowerCase());
  return header.findIndex((h) => wanted.includes(h.toLowerCase()));
}
