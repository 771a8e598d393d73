import { RecordingFormatError } from '../model';
import { asciiField, parseIntegerField, parseNumberField } from './fields';
import type { EdfHeader, EdfSignalHeader, EdfVariant } from './types';

/**
 * The EDF header: 256 fixed bytes, then 256 bytes per signal laid out field by field
 * (all labels, then all transducers, …). Every number is checked here so that later code
 * can trust it.
 */

/** Size of the fixed part of the header, bytes. */
export const FIXED_HEADER_BYTES = 256;
/** Header bytes per signal. */
export const SIGNAL_HEADER_BYTES = 256;
/** Label of the EDF+ annotation signal. */
export const ANNOTATION_LABEL = 'EDF Annotations';
/** Label of the BDF+ annotation signal (EDFbrowser, BioSemi). */
export const BDF_ANNOTATION_LABEL = 'BDF Annotations';
/**
 * Legacy (files exported before the reserved-field marker, see nocturneSignalField).
 * Transducer field that marks a signal written by Nocturne: its label is already a
 * channel code and is read back as is, not through the label map (else our own 'SPO2'
 * would come back as the PSG's 'SPO2_PSG').
 */
export const NOCTURNE_TRANSDUCER = 'Nocturne channel code';

/**
 * Prefiltering text of a Nocturne-written signal: where the channel's own samples sit in
 * the padded signal (lead = padding samples before them, count = how many), so a reader
 * gives back the channel's t0 and length instead of the file's.
 */
function nocturneExtent(lead: number, count: number): string {
  return `Nocturne lead=${lead} count=${count}`;
}

/** Parses {@link nocturneExtent}; null when the text is something else. */
export function parseNocturneExtent(text: string): { lead: number; count: number } | null {
  const m = /^Nocturne lead=(\d+) count=(\d+)$/.exec(text);
  return m ? { lead: Number(m[1]), count: Number(m[2]) } : null;
}
/** Smallest and largest digital value of a 16-bit (EDF) and a 24-bit (BDF) sample. */
export const SAMPLE_LIMITS = { EDF: { min: -32768, max: 32767, bytes: 2 }, BDF: { min: -8388608, max: 8388607, bytes: 3 } } as const;
export type SampleFormat = keyof typeof SAMPLE_LIMITS;

/** What the reserved field of a signal Nocturne wrote says (see {@link nocturneSignalField}). */
export interface NocturneSignal {
  /** Digital value of samples that are no data (padding, gaps), if any. */
  pad?: number;
  /**
   * Where the channel's own samples lie when no spare digital value can mark padding (a
   * signal using its full 16/24-bit range): `lead` samples of padding, then `count` samples.
   */
  extent?: { lead: number; count: number };
  /** The channel used our device's missing codes (-1, -2). */
  deviceCodes: boolean;
  /** The channel code, when it is not the label. */
  code?: string;
}

/**
 * The 32-character reserved field of a signal Nocturne writes: 'NCT <pad|@lead+count|-> <m|-> <code|=>'.
 * The label, transducer and prefiltering stay the source's own; this field (which EDF
 * leaves to the writer and other readers ignore) says how Nocturne reads the signal back:
 * the digital value that marks "no sample here" (outside the signal's digital range, so
 * never data), whether our device's missing codes apply, and the channel code ('=' when
 * the code is the label; cut to the room left: 19 characters after a padding value).
 */
export function nocturneSignalField(s: NocturneSignal): string {
  const where = s.pad !== undefined ? String(s.pad) : s.extent ? `@${s.extent.lead}+${s.extent.count}` : '-';
  const head = `NCT ${where} ${s.deviceCodes ? 'm' : '-'} `;
  if (head.length + 1 > 32) throw new RangeError(`"${head.trim()}" does not fit the EDF signal's 32-character reserved field`);
  // A code longer than the room left (codes of a physician's map may have 40 characters) keeps its start.
  return head + (s.code ?? '=').slice(0, 32 - head.length);
}

/** Parses {@link nocturneSignalField}; null for any other reserved text. */
export function parseNocturneSignal(reserved: string): NocturneSignal | null {
  const m = /^NCT (-?\d+|-|@\d+\+\d+) ([m-]) (.+)$/.exec(reserved.trim());
  if (!m) return null;
  const extent = /^@(\d+)\+(\d+)$/.exec(m[1]);
  return {
    ...(extent ? { extent: { lead: Number(extent[1]), count: Number(extent[2]) } } : m[1] === '-' ? {} : { pad: Number(m[1]) }),
    deviceCodes: m[2] === 'm',
    ...(m[3] === '=' ? {} : { code: m[3] }),
  };
}

/** Widths of the per-signal fields, in header order. */
export const SIGNAL_FIELDS = [
  ['label', 16],
  ['transducer type', 80],
  ['physical dimension', 8],
  ['physical minimum', 8],
  ['physical maximum', 8],
  ['digital minimum', 8],
  ['digital maximum', 8],
  ['prefiltering', 80],
  ['nr of samples in each data record', 8],
  ['reserved', 32],
] as const;

/** Parsed fixed header plus the header's own record count (may be -1: unknown). */
export interface FixedHeader extends Omit<EdfHeader, 'recordCount'> {
  declaredRecordCount: number;
  variant: EdfVariant;
}

/** EDF's version field is "0"; BDF's first byte is 0xFF followed by "BIOSEMI". */
function sampleFormat(bytes: Uint8Array): SampleFormat | null {
  if (asciiField(bytes, 0, 8).trim() === '0') return 'EDF';
  if (bytes[0] === 0xff && asciiField(bytes, 1, 7) === 'BIOSEMI') return 'BDF';
  return null;
}

/** Reads and checks the 256-byte fixed header. */
export function readFixedHeader(file: string, bytes: Uint8Array): FixedHeader {
  if (bytes.length === 0) throw new RecordingFormatError(file, 'file', 'is empty (0 bytes)');
  if (bytes.length < FIXED_HEADER_BYTES) {
    throw new RecordingFormatError(file, 'header', `file ends after ${bytes.length} bytes, inside the ${FIXED_HEADER_BYTES}-byte fixed header`);
  }
  const version = asciiField(bytes, 0, 8);
  const format = sampleFormat(bytes);
  if (format === null) {
    throw new RecordingFormatError(file, 'version', `"${printable(version)}" is neither EDF (must be "0") nor BDF (0xFF "BIOSEMI")`);
  }
  const patient = asciiField(bytes, 8, 80).trim();
  const recording = asciiField(bytes, 88, 80).trim();
  const startDate = asciiField(bytes, 168, 8);
  const startTime = asciiField(bytes, 176, 8);
  const headerBytes = parseIntegerField(file, 'number of bytes in header record', asciiField(bytes, 184, 8));
  const reserved = asciiField(bytes, 192, 44).trim();
  const declaredRecordCount = parseIntegerField(file, 'number of data records', asciiField(bytes, 236, 8));
  if (declaredRecordCount < -1) {
    throw new RecordingFormatError(file, 'number of data records', `${declaredRecordCount} is negative (only -1, "recording in progress", is allowed)`);
  }
  const recordDuration = parseNumberField(file, 'duration of a data record', asciiField(bytes, 244, 8));
  if (recordDuration < 0) {
    throw new RecordingFormatError(file, 'duration of a data record', `${recordDuration} s is negative`);
  }
  if (!Number.isFinite(recordDuration)) {
    throw new RecordingFormatError(file, 'duration of a data record', `"${asciiField(bytes, 244, 8).trim()}" is not a finite number of seconds`);
  }
  const signalCount = parseIntegerField(file, 'number of signals', asciiField(bytes, 252, 4));
  if (signalCount <= 0) throw new RecordingFormatError(file, 'number of signals', `is ${signalCount}: the file has no signals`);
  const expected = FIXED_HEADER_BYTES + SIGNAL_HEADER_BYTES * signalCount;
  if (headerBytes !== expected) {
    throw new RecordingFormatError(
      file,
      'number of bytes in header record',
      `is ${headerBytes}, but ${signalCount} signals need 256 + 256 × ${signalCount} = ${expected}`,
    );
  }
  if (bytes.length < headerBytes) {
    throw new RecordingFormatError(file, 'header', `file ends after ${bytes.length} bytes, inside the ${headerBytes}-byte header`);
  }
  const plus = reserved.slice(0, 5);
  const variant: EdfVariant = plus === `${format}+D` ? 'EDF+D' : plus === `${format}+C` ? 'EDF+C' : 'EDF';
  return { version: format === 'BDF' ? 'BIOSEMI' : version.trim(), format, patient, recording, startDate, startTime, headerBytes, reserved, declaredRecordCount, recordDuration, signalCount, variant };
}

/** Reads and checks the per-signal header fields. */
/**
 * ResMed's STR.edf declares some digital ranges as 0..65534 (unsigned 16 bit); mne and OSCAR read
 * it. Only the STR reader (str.ts) passes this, and only for a range starting at 0 or above:
 * every other EDF keeps the strict 16-bit check (docs/decisions/0068-str-digital-range.md).
 */
const UNSIGNED_EDF_MAX = 65535;

export function readSignalHeaders(file: string, bytes: Uint8Array, signalCount: number, format: SampleFormat = 'EDF', options: { unsignedDigital?: boolean } = {}): EdfSignalHeader[] {
  const limits = SAMPLE_LIMITS[format];
  const columns: string[][] = [];
  let pos = FIXED_HEADER_BYTES;
  for (const [, width] of SIGNAL_FIELDS) {
    const column: string[] = [];
    for (let i = 0; i < signalCount; i++, pos += width) column.push(asciiField(bytes, pos, width));
    columns.push(column);
  }
  const signals: EdfSignalHeader[] = [];
  for (let i = 0; i < signalCount; i++) {
    const label = columns[0][i].trim();
    // A control character (NUL, ESC, …) in a label would reach the database and every screen: refused, the field named.
    if (/[\u0000-\u001f\u007f]/.test(label)) {
      throw new RecordingFormatError(file, `signal ${i + 1} label`, 'contains a control character (such as NUL); labels must be printable text');
    }
    const name = (field: string) => `signal ${i + 1} (${label || 'no label'}) ${field}`;
    const physicalMin = parseNumberField(file, name('physical minimum'), columns[3][i]);
    const physicalMax = parseNumberField(file, name('physical maximum'), columns[4][i]);
    const digitalMin = parseIntegerField(file, name('digital minimum'), columns[5][i]);
    const digitalMax = parseIntegerField(file, name('digital maximum'), columns[6][i]);
    const samplesPerRecord = parseIntegerField(file, name('nr of samples in each data record'), columns[8][i]);
    if (samplesPerRecord <= 0) {
      throw new RecordingFormatError(file, name('nr of samples in each data record'), `is ${samplesPerRecord}, must be positive`);
    }
    const unsigned = options.unsignedDigital === true && format === 'EDF' && digitalMin >= 0 && digitalMax <= UNSIGNED_EDF_MAX;
    if (!unsigned && (digitalMin < limits.min || digitalMax > limits.max)) {
      throw new RecordingFormatError(file, name('digital minimum/maximum'), `${digitalMin}..${digitalMax} is outside the ${format === 'BDF' ? 24 : 16}-bit range`);
    }
    if (digitalMax <= digitalMin) {
      throw new RecordingFormatError(file, name('digital maximum'), `${digitalMax} is not above the digital minimum ${digitalMin}`);
    }
    if (physicalMax === physicalMin) {
      throw new RecordingFormatError(file, name('physical maximum'), `equals the physical minimum (${physicalMin}): no scale`);
    }
    signals.push({
      label,
      range: { physicalMin: columns[3][i].trim(), physicalMax: columns[4][i].trim(), digitalMin: columns[5][i].trim(), digitalMax: columns[6][i].trim() },
      transducer: columns[1][i].trim(),
      unit: columns[2][i].trim(),
      physicalMin,
      physicalMax,
      digitalMin,
      digitalMax,
      prefiltering: columns[7][i].trim(),
      samplesPerRecord,
      reserved: columns[9][i].trim(),
    });
  }
  return signals;
}

/** True for the EDF+ annotation signal. */
export function isAnnotationSignal(signal: EdfSignalHeader): boolean {
  return signal.label === ANNOTATION_LABEL || signal.label === BDF_ANNOTATION_LABEL;
}

function printable(s: string): string {
  return s.replace(/[^\x20-\x7e]/g, '?').trim();
}
