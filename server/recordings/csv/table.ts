import { RecordingFormatError } from '../model';

/** A CSV file split into a header row and data rows (1-based line numbers kept for errors). */
export interface CsvTable {
  header: string[];
  rows: { line: number; cells: string[] }[];
}

/**
 * Splits CSV text: BOM and CRLF tolerated, blank lines skipped, double-quoted cells
 * (with "" for a quote) supported, cells trimmed. Device exports have no line breaks
 * inside cells, so lines are split first.
 */
export function readCsvTable(text: string, file: string): CsvTable {
  const lines = text.replace(/^\uFEFF/, '').split(/\r?\n|\r/);
  const rows: CsvTable['rows'] = [];
  let header: string[] | null = null;
  for (let i = 0; i < lines.length; i++) {
    if (lines[i].trim() === '') continue;
    const cells = splitLine(lines[i]);
    if (header === null) header = cells;
    else rows.push({ line: i + 1, cells });
  }
  if (header === null) throw new RecordingFormatError(file, 'file', 'is empty (no header row)');
  if (rows.length === 0) throw new RecordingFormatError(file, 'file', 'has a header but no data rows');
  return { header, rows };
}

/** Index of the first header cell matching one of `names` (case-insensitive), or -1. */
export function findColumn(header: string[], names: readonly string[]): number {
  const wanted = names.map((n) => n.toLowerCase());
  return header.findIndex((h) => wanted.includes(h.toLowerCase()));
}

function splitLine(line: string): string[] {
  if (!line.includes('"')) return line.split(',').map((c) => c.trim());
  const cells: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const ch = line[i];
    if (quoted) {
      if (ch === '"' && line[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      cells.push(cell.trim());
      cell = '';
    } else cell += ch;
  }
  cells.push(cell.trim());
  return cells;
}
