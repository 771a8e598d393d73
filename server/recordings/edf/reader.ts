import { RecordingFormatError } from '../model';
import { MAX_NIGHT_MS } from '../limits';
import { isChecksumOrStatus } from '../labels';
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
  const timezone = options.timezone ?? 'UTC';
  const fixed = readFixedHeader(fileName, bytes);
  const headers = readSignalHeaders(fileName, bytes, fixed.signalCount, fixed.format);
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
    recordCount: countRecords(fileName, bytes.length - fixed.headerBytes, recordBytes, fixed.declaredRecordCount),
    recordDuration: fixed.recordDuration,
    format: fixed.format,
  };
  const signals = decodeSignals(bytes, headers, layout);
  const annotationSignals = headers.filter(isAnnotationSignal);
  if (fixed.variant === 'EDF+D' && annotationSignals.length === 0) {
    throw new RecordingFormatError(fileName, 'EDF Annotations', 'an EDF+D file needs an annotation signal for its record times');
  }
  const { annotations, recordStarts } = readAnnotations(fileName, bytes, headers, layout, fixed.variant);
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

/** Joins each ordinary signal's samples across records: one typed-array copy per record and signal. */
function decodeSignals(bytes: Uint8Array, headers: EdfSignalHeader[], layout: RecordLayout): EdfSignal[] {
  if (layout.format === 'BDF') return decodeSignals24(bytes, headers, layout);
  const { recordCount, recordDuration } = layout;
  const data = int16View(bytes, layout.headerBytes, (recordCount * layout.recordBytes) / 2);
  const signals: EdfSignal[] = [];
  const copies: { target: Int16Array; offset: number; count: number }[] = [];
  let wordOffset = 0;
  for (const h of headers) {
    if (!isAnnotationSignal(h)) {
      const scale = (h.physicalMax - h.physicalMin) / (h.digitalMax - h.digitalMin);
      const digital = new Int16Array(recordCount * h.samplesPerRecord);
      const sampleRate = recordDuration > 0 ? h.samplesPerRecord / recordDuration : Number.NaN;
      signals.push({ ...h, sampleRate, scale, offset: h.physicalMin - h.digitalMin * scale, digital });
      copies.push({ target: digital, offset: wordOffset, count: h.samplesPerRecord });
    }
    wordOffset += h.samplesPerRecord;
  }
  const recordWords = layout.recordBytes / 2;
  for (let r = 0; r < recordCount; r++) {
    const base = r * recordWords;
    for (const c of copies) c.target.set(data.subarray(base + c.offset, base + c.offset + c.count), r * c.count);
  }
  return signals;
}

/**
 * BDF: 24-bit little-endian two's complement samples, three bytes each, into an Int32Array
 * per signal (every 24-bit value is exact there, and in float32 later).
 */
function decodeSignals24(bytes: Uint8Array, headers: EdfSignalHeader[], layout: RecordLayout): EdfSignal[] {
  const { recordCount, recordDuration, headerBytes, recordBytes } = layout;
  const signals: EdfSignal[] = [];
  let byteOffset = 0;
  const slots: { target: Int32Array; offset: number; count: number }[] = [];
  for (const h of headers) {
    if (!isAnnotationSignal(h)) {
      const scale = (h.physicalMax - h.physicalMin) / (h.digitalMax - h.digitalMin);
      const digital = new Int32Array(recordCount * h.samplesPerRecord);
      const sampleRate = recordDuration > 0 ? h.samplesPerRecord / recordDuration : Number.NaN;
      signals.push({ ...h, sampleRate, scale, offset: h.physicalMin - h.digitalMin * scale, digital });
      slots.push({ target: digital, offset: byteOffset, count: h.samplesPerRecord });
    }
    byteOffset += 3 * h.samplesPerRecord;
  }
  for (let r = 0; r < recordCount; r++) {
    for (const slot of slots) {
      let at = headerBytes + r * recordBytes + slot.offset;
      const out = slot.target;
      for (let i = 0, o = r * slot.count; i < slot.count; i++, o++, at += 3) {
        out[o] = ((bytes[at] | (bytes[at + 1] << 8) | (bytes[at + 2] << 16)) << 8) >> 8;
      }
    }
  }
  return signals;
}

function countRecords(file: string, dataBytes: number, recordBytes: number, declared: number): number {
  const whole = Math.floor(dataBytes / recordBytes);
  if (declared === 0) {
    throw new RecordingFormatError(file, 'number of data records', 'is 0: the file holds no data');
  }
  if (declared === -1 && dataBytes === 0) {
    throw new RecordingFormatError(file, 'number of data records', 'is -1 (recording in progress: the header was never completed) and the file holds no data records');
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
