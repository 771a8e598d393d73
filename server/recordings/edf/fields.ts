import { RecordingFormatError } from '../model';

/**
 * Helpers for the fixed-width ASCII fields of an EDF header: reading them out of the
 * bytes, and reading numbers out of them strictly enough that a corrupted header is
 * refused with the name of the field instead of turning into NaN further down.
 */

const FLOAT = /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/;

/** The bytes [start, start + length) as a string, one character per byte (EDF headers are ASCII). */
export function asciiField(bytes: Uint8Array, start: number, length: number): string {
  let s = '';
  const end = Math.min(bytes.length, start + length);
  for (let i = start; i < end; i++) s += String.fromCharCode(bytes[i]);
  return s;
}

/** Parses a decimal number; refuses empty, NaN, Infinity and anything with stray characters. */
export function parseNumberField(file: string, field: string, raw: string): number {
  const text = raw.trim();
  if (text === '') throw new RecordingFormatError(file, field, 'is empty, expected a number');
  if (!FLOAT.test(text)) throw new RecordingFormatError(file, field, `"${text}" is not a number`);
  return Number(text);
}

/** Parses a whole number (a trailing ".0" as some writers put in digital fields is accepted). */
export function parseIntegerField(file: string, field: string, raw: string): number {
  const value = parseNumberField(file, field, raw);
  if (!Number.isInteger(value)) {
    throw new RecordingFormatError(file, field, `"${raw.trim()}" is not a whole number`);
  }
  return value;
}

/** Left-aligns `value` in a field of `length` characters, space-padded; refuses what does not fit. */
export function padField(value: string, length: number, what: string): string {
  if (value.length > length) {
    throw new RangeError(`${what}: "${value}" does not fit in ${length} characters`);
  }
  return value.padEnd(length, ' ');
}

/** Replaces bytes outside printable ASCII, which the EDF header does not allow, by '_'. */
export function toHeaderAscii(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '_');
}
