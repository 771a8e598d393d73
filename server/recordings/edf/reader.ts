import { EmptyRecordingError, RecordingFormatError } from '../model';
import { MAX_NIGHT_MS } from '../limits';
import { isChecksumOrStatus } from '../labels';
import { asciiField } from './fields';
import { SAMPLE_LIMITS, isAnnotationSignal, readFixedHeader, readSignalHeaders, type SampleFormat } from './header';
import { edfStartMs } from './start-time';
import { parseTals } from './tal';
import type { EdfAnnotation, EdfFile, EdfSignal, EdfSignalHeader } from './types';

/** Options of {@link readEdf}. */
export interface ReadEdfOptions {
  /** IANA zone of the recorder's clock: the header date/time is read as local time there. */
  timezone?: string;
}

const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
/** Slack when comparing record start times, seconds (TALs are written to 1 µs at best). */
const TIME_EPSILON_S = 1e-6;

/**
 * Reads an EDF or EDF+ (C or D) file, or a 24-bit BDF / BDF+ file. EDF samples stay
 * digital int16 (one Int16Array per signal, filled record by record with typed-array
 * copies, no per-sample objects); BDF samples are 24-bit digital values in an Int32Array.
 * 'EDF Annotations' / 'BDF Annotations' signals become annotations and the per-record
 * start times. Throws {@link RecordingFormatError} naming the file, the field and the problem.
 */
export function readEdf(bytes: Uint8Array, fileName: string, options: ReadEdfOptions = {}): EdfFile {
  return readEdfFrom({ length: bytes.length, read: (start, length) => bytes.subarray(start, start + length) }, fileName, { ...options, batchBytes: Number.POSITIVE_INFINITY });
}

/** Bytes of a file read by position (an in-memory file, or one on disk read a piece at a time). */
export interface EdfSource {
  /** The file's size in bytes. */
  length: number;
  /** Up to `length` bytes from `start` (fewer at the end of the file). */
  read(start: number, length: number): Uint8Array;
}

/** Data records read at a time from a file on disk: the file is never whole in memory. */
const BATCH_BYTES = 8 * 1024 * 1024;

/**
 * {@link readEdf} over an {@link EdfSource}: the header, then the data records in batches of
 * about `batchBytes` (each batch's samples copied into the signals, its annotation bytes kept),
 * so a file on disk is read without holding it whole. Same result and same errors as readEdf.
 */
export function readEdfFrom(src: EdfSource, fileName: string, options: ReadEdfOptions & { batchBytes?: number } = {}): EdfFile {
  const timezone = options.timezone ?? 'UTC';
  // The header's own size (field at byte 184) says how much to read for it; readFixedHeader checks it.
  const declaredHeader = Number.parseInt(asciiField(src.read(0, Math.min(src.length, 256)), 184, 8), 10);
  const headBytes = src.read(0, Math.min(src.length, Number.isFinite(declaredHeader) && declaredHeader > 256 && declaredHeader <= 256 * 10_000 ? declaredHeader : 256));
  const fixed = readFixedHeader(fileName, headBytes);
  const headers = readSignalHeaders(fileName, headBytes, fixed.signalCount, fixed.format);
  // ResMed's event files carry a Crc16 signal beside records of 0 s: a checksum needs no time.
  const ordinary = headers.filter((h) => !isAnnotationSignal(h) && !isChecksumOrStatus(h.label, h.transducer));
  if (fixed.recordDuration === 0 && ordinary.length > 0) {
    throw new RecordingFormatError(
      fileName,
      'duration of a data record',
      `is 0 s, but the file has ${ordinary.length} signal${ordinary.length === 1 ? '' : 's'} (${ordinary.map((h) => h.label).join(', ')}): their samples would have no time`,
    );
  }
  const startMs = edfStartMs(fileName, fixed.startDate, fixed.startTime, fixed.recording, timezone);
  const sampleBytes = SAMPLE_LIMITS[fixed.format].bytes;
  const recordBytes = headers.reduce((sum, s) => sum + sampleBytes * s.samplesPerRecord, 0);
  const layout: RecordLayout = {
    headerBytes: fixed.headerBytes,
    recordBytes,
    recordCount: countRecords(fileName, src.length - fixed.headerBytes, recordBytes, fixed.declaredRecordCount),
    recordDuration: fixed.recordDuration,
    format: fixed.format,
  };
  const annotationSignals = headers.filter(isAnnotationSignal);
  // Each record's annotation bytes, side by side: the annotation signals' own records.
  const annotationRecordBytes = annotationSignals.reduce((sum, s) => sum + sampleBytes * s.samplesPerRecord, 0);
  const annotationBytes = new Uint8Array(layout.recordCount * annotationRecordBytes);
  const { signals, decode } = signalTargets(headers, layout);
  const perBatch = Math.max(1, Math.min(layout.recordCount, Math.floor((options.batchBytes ?? BATCH_BYTES) / Math.max(1, recordBytes))));
  for (let r0 = 0; r0 < layout.recordCount; r0 += perBatch) {
    const n = Math.min(perBatch, layout.recordCount - r0);
    const batch = src.read(fixed.headerBytes + r0 * recordBytes, n * recordBytes);
    decode(batch, r0, n);
    if (annotationRecordBytes > 0) keepAnnotationBytes(batch, headers, sampleBytes, recordBytes, annotationBytes.subarray(r0 * annotationRecordBytes), annotationRecordBytes, n);
  }
  if (fixed.variant === 'EDF+D' && annotationSignals.length === 0) {
    throw new RecordingFormatError(fileName, 'EDF Annotations', 'an EDF+D file needs an annotation signal for its record times');
  }
  const { annotations, recordStarts } = readAnnotations(fileName, annotationBytes, annotationSignals, { ...layout, headerBytes: 0, recordBytes: annotationRecordBytes }, fixed.variant);
  checkSpan(fileName, recordStarts, fixed.recordDuration, annotations);
  const { variant, ...rest } = fixed;
  return {
    fileName,
    variant,
    header: { ...rest, recordCount: layout.recordCount },
    startMs,
    timezone,
    signals,
    annotationSignals,
    annotations,
    recordStarts,
  };
}

/** Where the data records sit in the file. */
interface RecordLayout {
  headerBytes: number;
  recordBytes: number;
  recordCount: number;
  /** Seconds. */
  recordDuration: number;
  format: SampleFormat;
}

/** A night lasts at most {@link MAX_NIGHT_MS}: longer data or annotations are a wrong header or not one night. */
function checkSpan(file: string, starts: Float64Array, duration: number, annotations: EdfAnnotation[]): void {
  const limitS = MAX_NIGHT_MS / 1000;
  const hours = (s: number) => `${(s / 3600).toFixed(1)} h`;
  if (starts.length > 0 && duration > 0) {
    const span = starts[starts.length - 1] + duration - starts[0];
    if (span > limitS) {
      const what = `${starts.length} records of ${duration} s span ${hours(span)}`;
      throw new RecordingFormatError(file, 'number of data records', `${what}, more than the ${limitS / 3600} h of one night`);
    }
  }
  for (const a of annotations) {
    if (a.onset + a.duration > limitS) {
      throw new RecordingFormatError(file, 'EDF Annotations', `"${a.text}" at +${a.onset} s ends ${hours(a.onset + a.duration)} after the start, more than the ${limitS / 3600} h of one night`);
    }
  }
}

/** Copies the annotation signals' bytes of `count` records of a batch into `out`, record by record. */
function keepAnnotationBytes(batch: Uint8Array, headers: EdfSignalHeader[], sampleBytes: number, recordBytes: number, out: Uint8Array, outRecordBytes: number, count: number): void {
  const slots: { from: number; length: number }[] = [];
  let at = 0;
  for (const h of headers) {
    const length = sampleBytes * h.samplesPerRecord;
    if (isAnnotationSignal(h)) slots.push({ from: at, length });
    at += length;
  }
  for (let r = 0; r < count; r++) {
    let to = r * outRecordBytes;
    for (const slot of slots) {
      out.set(batch.subarray(r * recordBytes + slot.from, r * recordBytes + slot.from + slot.length), to);
      to += slot.length;
    }
  }
}

/**
 * The ordinary signals with their sample arrays, and `decode(batch, firstRecord, count)` that
 * copies a batch of whole records into them: one typed-array copy per record and signal (EDF),
 * or 24-bit little-endian two's complement samples into an Int32Array per signal (BDF: every
 * 24-bit value is exact there, and in float32 later).
 */
function signalTargets(headers: EdfSignalHeader[], layout: RecordLayout): { signals: EdfSignal[]; decode: (batch: Uint8Array, firstRecord: number, count: number) => void } {
  const { recordCount, recordDuration, recordBytes } = layout;
  const bdf = layout.format === 'BDF';
  const signals: EdfSignal[] = [];
  const slots: { target: Int16Array | Int32Array; offset: number; count: number }[] = [];
  let byteOffset = 0;
  for (const h of headers) {
    if (!isAnnotationSignal(h)) {
      const scale = (h.physicalMax - h.physicalMin) / (h.digitalMax - h.digitalMin);
      const digital = bdf ? new Int32Array(recordCount * h.samplesPerRecord) : new Int16Array(recordCount * h.samplesPerRecord);
      const sampleRate = recordDuration > 0 ? h.samplesPerRecord / recordDuration : Number.NaN;
      signals.push({ ...h, sampleRate, scale, offset: h.physicalMin - h.digitalMin * scale, digital });
      slots.push({ target: digital, offset: byteOffset, count: h.samplesPerRecord });
    }
    byteOffset += (bdf ? 3 : 2) * h.samplesPerRecord;
  }
  const decode = (batch: Uint8Array, firstRecord: number, count: number) => {
    if (!bdf) {
      const data = int16View(batch, 0, (count * recordBytes) / 2);
      const recordWords = recordBytes / 2;
      for (let r = 0; r < count; r++) {
        const base = r * recordWords;
        for (const c of slots) (c.target as Int16Array).set(data.subarray(base + c.offset / 2, base + c.offset / 2 + c.count), (firstRecord + r) * c.count);
      }
      return;
    }
    for (let r = 0; r < count; r++) {
      for (const slot of slots) {
        let at = r * recordBytes + slot.offset;
        const out = slot.target;
        for (let i = 0, o = (firstRecord + r) * slot.count; i < slot.count; i++, o++, at += 3) {
          out[o] = ((batch[at] | (batch[at + 1] << 8) | (batch[at + 2] << 16)) << 8) >> 8;
        }
      }
    }
  };
  return { signals, decode };
}

function countRecords(file: string, dataBytes: number, recordBytes: number, declared: number): number {
  const whole = Math.floor(dataBytes / recordBytes);
  if (declared === 0) {
    throw new EmptyRecordingError(file, 'number of data records', 'is 0: the file holds no data');
  }
  if (declared === -1 && dataBytes === 0) {
    throw new EmptyRecordingError(file, 'number of data records', 'is -1 (recording in progress: the header was never completed) and the file holds no data records');
  }
  if (declared === -1) {
    if (dataBytes % recordBytes !== 0) {
      throw new RecordingFormatError(file, 'data records', `${dataBytes} data bytes are not a whole number of ${recordBytes}-byte records (truncated)`);
    }
    return whole;
  }
  if (whole < declared) {
    throw new RecordingFormatError(
      file,
      'data records',
      `header announces ${declared} records of ${recordBytes} bytes (${declared * recordBytes} bytes) but the file holds ${dataBytes} bytes of data (truncated)`,
    );
  }
  return declared;
}

/** An Int16Array over the data records, zero-copy when aligned on a little-endian host. */
function int16View(bytes: Uint8Array, start: number, words: number): Int16Array {
  const at = bytes.byteOffset + start;
  if (LITTLE_ENDIAN_HOST) {
    if (at % 2 === 0) return new Int16Array(bytes.buffer, at, words);
    return new Int16Array(bytes.slice(start, start + words * 2).buffer);
  }
  const view = new DataView(bytes.buffer, at, words * 2);
  const out = new Int16Array(words);
  for (let i = 0; i < words; i++) out[i] = view.getInt16(i * 2, true);
  return out;
}

/**
 * Annotations of every 'EDF Annotations' signal, and each record's start from the first
 * TAL of the first annotation signal (plain EDF and EDF+C without one: index × duration).
 */
function readAnnotations(
  file: string,
  bytes: Uint8Array,
  headers: EdfSignalHeader[],
  layout: RecordLayout,
  variant: EdfFile['variant'],
): { annotations: EdfAnnotation[]; recordStarts: Float64Array } {
  const { headerBytes, recordBytes, recordCount, recordDuration } = layout;
  const slots: { byteOffset: number; byteLength: number }[] = [];
  let byteOffset = 0;
  const sampleBytes = SAMPLE_LIMITS[layout.format].bytes;
  for (const h of headers) {
    if (isAnnotationSignal(h)) slots.push({ byteOffset, byteLength: sampleBytes * h.samplesPerRecord });
    byteOffset += sampleBytes * h.samplesPerRecord;
  }
  const annotations: EdfAnnotation[] = [];
  const recordStarts = new Float64Array(recordCount);
  for (let r = 0; r < recordCount; r++) {
    let keptTime = false;
    slots.forEach((slot, a) => {
      const start = headerBytes + r * recordBytes + slot.byteOffset;
      const tals = parseTals(file, bytes.subarray(start, start + slot.byteLength), `record ${r + 1}`);
      tals.forEach((tal, i) => {
        let texts = tal.texts;
        if (a === 0 && i === 0 && texts.length > 0 && texts[0] === '') {
          recordStarts[r] = tal.onset;
          keptTime = true;
          texts = texts.slice(1);
        }
        for (const text of texts) if (text !== '') annotations.push({ onset: tal.onset, duration: tal.duration, text });
      });
    });
    if (!keptTime) {
      if (variant === 'EDF+D') {
        throw new RecordingFormatError(file, `EDF Annotations (record ${r + 1})`, 'no time-keeping annotation: the record has no start time');
      }
      recordStarts[r] = r * recordDuration;
    }
  }
  checkRecordOrder(file, recordStarts, recordDuration);
  checkAnnotationsInside(file, annotations, recordStarts, recordDuration);
  return { annotations, recordStarts };
}

function checkRecordOrder(file: string, starts: Float64Array, duration: number): void {
  for (let r = 1; r < starts.length; r++) {
    if (starts[r] < starts[r - 1] + duration - TIME_EPSILON_S) {
      throw new RecordingFormatError(
        file,
        `EDF Annotations (record ${r + 1})`,
        `record starts at +${starts[r]} s, before record ${r} ends (+${starts[r - 1] + duration} s)`,
      );
    }
  }
}

/**
 * Onsets must fall within the recording. Files of zero-duration records (annotation-only,
 * as ResMed's EVE) span no time of their own, so only negative onsets are refused there.
 */
function checkAnnotationsInside(file: string, annotations: EdfAnnotation[], starts: Float64Array, duration: number): void {
  const end = duration > 0 && starts.length > 0 ? starts[starts.length - 1] + duration : Number.POSITIVE_INFINITY;
  for (const a of annotations) {
    if (a.onset < -TIME_EPSILON_S) {
      throw new RecordingFormatError(file, 'EDF Annotations', `"${a.text}" at ${a.onset} s lies before the recording start (0 s)`);
    }
    if (a.onset > end + TIME_EPSILON_S) {
      throw new RecordingFormatError(file, 'EDF Annotations', `"${a.text}" at +${a.onset} s lies after the recording end (+${end} s)`);
    }
  }
}
