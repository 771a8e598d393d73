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
 * and commas, which is much faster on a night of data points.
 */
export function readCsvTable(text: string, file: string): CsvTable {
  const body = text.replace(/^\uFEFF/, '');
  const records = body.includes('"') ? parseQuoted(body, file) : splitPlain(body);
  const [first, ...rows] = records;
  if (first === undefined) throw new RecordingFormatError(file, 'file', 'is empty (no header row)');
  if (rows.length === 0) throw new RecordingFormatError(file, 'file', 'has a header but no data rows');
  return { header: first.cells, rows };
}

function splitPlain(text: string): CsvTable['rows'] {
  const lines = text.split(/\r?\n|\r/);
  const rows: CsvTable['rows'] = [];
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    rows.push({ line: i + 1, cells: lines[i].split(',').map((c) => c.trim()) });
  }
  return rows;
}

const lineBreakChars = (cells: readonly string[]): number => cells.reduce((n, c) => n + (c.match(/\n/g)?.length ?? 0), 0);

function parseQuoted(text: string, file: string): CsvTable['rows'] {
  try {
    // One kind of line break (a CRLF inside a quoted cell would otherwise count as two lines).
    const records = parse(text.replace(/\r\n?/g, '\n'), { info: true, trim: true, relax_column_count: true, skip_empty_lines: true, skip_records_with_empty_values: true }) as unknown as Array<{ record: string[]; info: Info }>; // the typings do not model `info: true`
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
