import { csvDelimiter } from './table';

/** Telling CSV uploads apart from EDF by their first bytes. */

const SNIFF_BYTES = 4096;
/** An EDF file starts with its version field, '0' and seven spaces. */
const EDF_VERSION = '0       ';
const utf8 = new TextDecoder('utf-8');

/** The kinds of CSV we read, 'other-csv' for a CSV we do not know. */
export type CsvKind = 'oximeter' | 'timestamp-value' | 'other-csv';

/**
 * 'oximeter' for a Wellue/Checkme export (header with Time and Oxygen Level),
 * 'timestamp-value' for a header starting with Timestamp that has a Value column, 'other-csv' for another text
 * line with commas (or a .csv name), null for anything else (EDF, or a file the EDF
 * reader will refuse with a precise message).
 */
export function csvKind(bytes: Uint8Array, fileName: string): CsvKind | null {
  const head = utf8.decode(bytes.subarray(0, SNIFF_BYTES)).replace(/^\uFEFF/, '');
  const firstLine = head.split(/\r?\n/, 1)[0];
  const cells = firstLine.toLowerCase().split(csvDelimiter(firstLine)).map((c) => c.trim().replace(/^"|"$/g, ''));
  if (cells.includes('time') && cells.some((c) => c.startsWith('oxygen level') || c.startsWith('spo2'))) return 'oximeter';
  // A Timestamp column and a Value column: the channel's code is asked for only of such a file.
  if (cells[0] === 'timestamp' && cells.includes('value')) return 'timestamp-value';
  if (cells[0] === 'timestamp') return 'other-csv';
  if (head.startsWith(EDF_VERSION)) return null;
  // BDF: the byte 0xFF then "BIOSEMI".
  if (bytes[0] === 0xff && head.slice(1, 8) === 'BIOSEMI') return null;
  const looksLikeText = cells.length > 1 && !/[\x00-\x08\x0e-\x1f]/.test(firstLine);
  return looksLikeText || /\.csv$/i.test(fileName) ? 'other-csv' : null;
}

/** The first line of a CSV, for messages. */
export function csvHeaderLine(bytes: Uint8Array): string {
  return utf8.decode(bytes.subarray(0, SNIFF_BYTES)).replace(/^\uFEFF/, '').split(/\r?\n/, 1)[0].slice(0, 120);
}

/** The file's text (UTF-8). */
export function readCsvText(bytes: Uint8Array): string {
  return utf8.decode(bytes);
}
