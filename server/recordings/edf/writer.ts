import type { ChannelData, EdfRange, Night, NightEvent } from '../model';
import { padField, toHeaderAscii } from './fields';
import { ANNOTATION_LABEL, BDF_ANNOTATION_LABEL, FIXED_HEADER_BYTES, SAMPLE_LIMITS, SIGNAL_FIELDS, SIGNAL_HEADER_BYTES, nocturneSignalField, type SampleFormat } from './header';
import { quantiseChannel } from './quantise';
import { chooseRecordDuration, samplesPerRecord } from './record-duration';
import { edfDateFields } from './start-time';
import { encodeTal } from './tal';

/** Decimals of TAL onsets and durations: microseconds, far below any sample period. */
const TAL_DECIMALS = 6;
/** Record duration when a night has events but no channels. */
const ANNOTATION_ONLY_RECORD_S = 60;
const MS_PER_S = 1000;
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** A night written as a file: EDF+ when every channel fits 16 bits, BDF+ when one needs 24. */
export interface WrittenNight {
  bytes: Uint8Array;
  format: SampleFormat;
}

/** One channel as a signal of the file. */
interface PlannedSignal {
  /** Header fields in SIGNAL_FIELDS order (the reserved field filled by `reserved`). */
  row: string[];
  reserved: (firstRecord: number) => string;
  samplesPerRecord: number;
  /** Samples before the channel's first one in the file's sample grid. */
  lead: number;
  length: number;
  /** Digital value of sample i (not called for missing samples). */
  digital: (i: number) => number;
  missing: (i: number) => boolean;
  /** Written where the channel has no sample; outside [digital min, max], so never data. */
  pad: number;
}

/**
 * Writes a Night as EDF+ (or BDF+ when a channel holds 24-bit values, e.g. read from a
 * BDF file: EDF's 16 bits cannot hold them), faithfully:
 *
 * - Samples: a channel whose samples are a source file's digital values (EDF/BDF import)
 *   is written back with the same digital values and the source's own physical/digital
 *   extremes, so its scale and offset come back bit for bit. An int16 channel without them
 *   gets an exact header when one fits 8 characters; others are quantised (quantise.ts).
 * - Nothing is invented: records are written only where some channel has a sample (or an
 *   annotation needs one), so gaps common to all channels become EDF+D discontinuities.
 *   Inside a written record a channel without a sample there (a gap, a missing value, before
 *   its start or after its end) gets a padding value outside its digital range: never a
 *   value of the signal, and read back by Nocturne as missing. The device's -1 and -2 codes
 *   are missing samples too, so they are never written as physical -1.
 * - Original label, transducer, prefiltering and physical dimension are kept; the channel
 *   code, padding value and whether our device's codes apply go in the signal's reserved
 *   field (header.ts: nocturneSignalField).
 * - Events are TALs in the record holding their onset; TAL times are to the microsecond.
 *
 * The record duration is the least whole number of seconds giving every channel whole
 * samples per record. Throws RangeError for rates no record of at most an hour fits,
 * values beyond ±8.19e6, or a code too long for the reserved field.
 */
export function writeNightFile(night: Night): WrittenNight {
  const channels = night.channels.filter((c) => c.samples.length > 0);
  const duration = channels.length > 0 ? chooseRecordDuration(channels.map((c) => c.sampleRate)) : ANNOTATION_ONLY_RECORD_S;
  const format: SampleFormat = channels.some(needs24Bits) ? 'BDF' : 'EDF';
  const firstEvent = minOf(night.events.map((e) => e.onsetMs));
  let originMs = channels.length > 0 ? minOf(channels.map((c) => c.t0)) : Math.min(night.startMs, firstEvent);
  // Events before the first sample: whole records earlier, so every channel's lead stays whole.
  if (firstEvent < originMs) originMs -= Math.ceil((originMs - firstEvent) / MS_PER_S / duration - 1e-9) * duration * MS_PER_S;
  const headerStartMs = Math.floor(originMs / MS_PER_S) * MS_PER_S;
  // Records reach the last sample and the last event onset (a reader refuses onsets after the end).
  const lastEvent = maxOf(night.events.map((e) => e.onsetMs));
  const endMs = channels.length > 0 ? Math.max(maxOf(channels.map(channelEnd)), lastEvent) : Math.max(night.stopMs, lastEvent);
  const gridCount = Math.max(1, Math.ceil((endMs - originMs) / MS_PER_S / duration - 1e-9));
  const planned = channels.map((c) => planSignal(c, duration, originMs, format, gridCount));

  const used = new Uint8Array(gridCount);
  if (channels.length === 0) used.fill(1);
  for (const p of planned) {
    for (let i = 0; i < p.length; i++) if (!p.missing(i)) used[Math.floor((i + p.lead) / p.samplesPerRecord)] = 1;
  }
  const recordOf = (e: NightEvent) => Math.min(gridCount - 1, Math.max(0, Math.floor((e.onsetMs - originMs) / MS_PER_S / duration)));
  for (const e of night.events) used[recordOf(e)] = 1;
  if (!used.includes(1)) used[0] = 1;
  const records: number[] = [];
  for (let r = 0; r < gridCount; r++) if (used[r]) records.push(r);
  const contiguous = records[records.length - 1] - records[0] === records.length - 1;

  const annotationRecords = planAnnotations(night.events, records, recordOf, duration, (originMs - headerStartMs) / MS_PER_S, headerStartMs);
  const sampleBytes = SAMPLE_LIMITS[format].bytes;
  const annotationSamples = Math.max(1, maxOf(annotationRecords.map((r) => Math.ceil(r.length / sampleBytes))));
  const signalCount = planned.length + 1;
  const headerBytes = FIXED_HEADER_BYTES + SIGNAL_HEADER_BYTES * signalCount;
  const recordBytes = (planned.reduce((sum, p) => sum + p.samplesPerRecord, 0) + annotationSamples) * sampleBytes;
  const out = new Uint8Array(headerBytes + records.length * recordBytes);
  const variant = `${format}+${contiguous ? 'C' : 'D'}`;
  for (const p of planned) p.row[9] = p.reserved(records[0]);
  out.set(encodeHeader(night, headerStartMs, records.length, duration, planned, annotationSamples, format, variant), 0);

  // Each channel's samples as written (padding where missing), once: the record loop then copies runs.
  const written = planned.map((p) => {
    const d = sampleBytes === 2 ? new Int16Array(p.length) : new Int32Array(p.length);
    for (let i = 0; i < p.length; i++) d[i] = p.missing(i) ? p.pad : p.digital(i);
    return d;
  });
  const words = sampleBytes === 2 && LITTLE_ENDIAN_HOST ? new Int16Array(out.buffer, out.byteOffset) : null;
  let at = headerBytes;
  records.forEach((r, k) => {
    planned.forEach((p, c) => {
      const n = p.samplesPerRecord;
      const from = r * n - p.lead;
      const lo = Math.min(n, Math.max(0, -from));
      const hi = Math.max(lo, Math.min(n, p.length - from));
      const data = written[c];
      if (words) {
        const w = at / 2;
        if (lo > 0) words.fill(p.pad, w, w + lo);
        if (hi > lo) words.set((data as Int16Array).subarray(from + lo, from + hi), w + lo);
        if (hi < n) words.fill(p.pad, w + hi, w + n);
      } else {
        for (let s = 0; s < n; s++) {
          const d = s >= lo && s < hi ? data[from + s] : p.pad;
          const b = at + s * sampleBytes;
          out[b] = d & 0xff;
          out[b + 1] = (d >> 8) & 0xff;
          if (sampleBytes === 3) out[b + 2] = (d >> 16) & 0xff;
        }
      }
      at += n * sampleBytes;
    });
    out.set(annotationRecords[k], at);
    at += annotationSamples * sampleBytes;
  });
  return { bytes: out, format };
}

/** {@link writeNightFile}'s bytes: EDF+, or BDF+ for a night with 24-bit channels. */
export function writeEdfPlus(night: Night): Uint8Array {
  return writeNightFile(night).bytes;
}

/** End of a channel (just after its last sample), ms UTC. */
function channelEnd(c: ChannelData): number {
  return c.t0 + (c.samples.length / c.sampleRate) * MS_PER_S;
}

/** Smallest value of a possibly long list (no argument spreading); +Infinity when empty. */
function minOf(values: number[]): number {
  let min = Number.POSITIVE_INFINITY;
  for (const v of values) if (v < min) min = v;
  return min;
}

/** Largest value of a possibly long list; -Infinity when empty. */
function maxOf(values: number[]): number {
  let max = Number.NEGATIVE_INFINITY;
  for (const v of values) if (v > max) max = v;
  return max;
}

/** The source's scale and offset, computed as a reader does from the header's text. */
function rangeScale(range: EdfRange): { scale: number; offset: number; dmin: number; dmax: number } {
  const pmin = Number(range.physicalMin);
  const pmax = Number(range.physicalMax);
  const dmin = Number(range.digitalMin);
  const dmax = Number(range.digitalMax);
  const scale = (pmax - pmin) / (dmax - dmin);
  return { scale, offset: pmin - dmin * scale, dmin, dmax };
}

/** True when the channel's samples are a source's digital values with its range (kept exactly on export). */
function isSourceDigital(c: ChannelData): boolean {
  if (!c.edfRange) return false;
  const { scale, offset, dmin, dmax } = rangeScale(c.edfRange);
  return scale === c.scale && offset === c.offset && Number.isInteger(dmin) && Number.isInteger(dmax) && c.edfRange.physicalMin.length <= 8 && c.edfRange.physicalMax.length <= 8;
}

function needs24Bits(c: ChannelData): boolean {
  if (!isSourceDigital(c) || !c.edfRange) return false;
  const { dmin, dmax } = rangeScale(c.edfRange);
  return dmin < SAMPLE_LIMITS.EDF.min || dmax > SAMPLE_LIMITS.EDF.max;
}

/** An exact 8-character header for an int16 channel's scale and offset, if one exists. */
function exactInt16Range(c: ChannelData): EdfRange | null {
  for (const [dmin, dmax] of [[-32767, 32767], [-32000, 32000], [-30000, 30000], [-10000, 10000], [0, 32767], [-32768, 32766]]) {
    const range = { physicalMin: String(dmin * c.scale + c.offset), physicalMax: String(dmax * c.scale + c.offset), digitalMin: String(dmin), digitalMax: String(dmax) };
    if (range.physicalMin.length > 8 || range.physicalMax.length > 8) continue;
    const back = rangeScale(range);
    if (back.scale === c.scale && back.offset === c.offset) return range;
  }
  return null;
}

function planSignal(c: ChannelData, duration: number, originMs: number, format: SampleFormat, gridCount: number): PlannedSignal {
  const codes = c.missingCodes ?? [];
  const { samples } = c;
  const missing = (i: number) => {
    const s = samples[i];
    return Number.isNaN(s) || !Number.isFinite(s * c.scale + c.offset) || codes.includes(s);
  };
  const n = samplesPerRecord(c.sampleRate, duration);
  const lead = Math.max(0, Math.round(((c.t0 - originMs) / MS_PER_S) * c.sampleRate));
  let range: EdfRange | null = isSourceDigital(c) ? (c.edfRange ?? null) : c.storage === 'int16' ? exactInt16Range(c) : null;
  let digital: (i: number) => number = (i) => samples[i];
  const limits = SAMPLE_LIMITS[format];
  // The data's own digital extremes: values beyond the header's range are kept as they are.
  let lo = Number.POSITIVE_INFINITY;
  let hi = Number.NEGATIVE_INFINITY;
  let inner = false;
  let first = -1;
  let last = -1;
  for (let i = 0; i < samples.length; i++) {
    if (missing(i)) continue;
    if (samples[i] < lo) lo = samples[i];
    if (samples[i] > hi) hi = samples[i];
    if (first < 0) first = i;
    else if (i !== last + 1) inner = true;
    last = i;
  }
  const edges = first !== 0 || last !== samples.length - 1 || lead > 0 || lead + samples.length < gridCount * n;
  let pad: number | null = null;
  let extent: { lead: number; count: number } | undefined;
  if (range && (lo < limits.min || hi > limits.max)) range = null;
  if (range && (inner || edges)) {
    // Padding must be a value no sample has, best outside the header's range too.
    const dmin = Number(range.digitalMin);
    const dmax = Number(range.digitalMax);
    if (dmin > limits.min && lo > limits.min) pad = limits.min;
    else if (dmax < limits.max && hi < limits.max) pad = limits.max;
    else if (!inner && first >= 0) extent = { lead: lead + first, count: last - first + 1 };
    else range = null;
  }
  if (!range) {
    // Quantised to ±32000 (float32 data, or a full-range signal with gaps inside): padding below.
    const q = quantiseChannel(c, missing);
    range = { physicalMin: q.physicalMin, physicalMax: q.physicalMax, digitalMin: String(q.digitalMin), digitalMax: String(q.digitalMax) };
    digital = (i) => q.digital[i];
    pad = limits.min;
    extent = undefined;
  }
  // Padding around an extent-marked channel repeats its digital minimum: inside its range, but the extent says where data is.
  const padValue = pad ?? Number(range.digitalMin);
  const label = toHeaderAscii(c.label || c.code).slice(0, 16).trim();
  return {
    row: [
      label,
      toHeaderAscii(c.transducer ?? '').slice(0, 80),
      toHeaderAscii(c.unit).slice(0, 8),
      range.physicalMin,
      range.physicalMax,
      range.digitalMin,
      range.digitalMax,
      toHeaderAscii(c.prefiltering ?? '').slice(0, 80),
      String(n),
      '',
    ],
    // The extent counts from the first record written, known once every channel is planned.
    reserved: (firstRecord) =>
      nocturneSignalField({
        ...(pad === null ? {} : { pad }),
        ...(extent ? { extent: { lead: extent.lead - firstRecord * n, count: extent.count } } : {}),
        deviceCodes: codes.length > 0,
        ...(c.code === label ? {} : { code: toHeaderAscii(c.code) }),
      }),
    samplesPerRecord: n,
    lead,
    length: samples.length,
    digital,
    missing,
    pad: padValue,
  };
}

/** The annotation bytes of each written record: its time keeping, then the events placed in it. */
function planAnnotations(
  events: NightEvent[],
  records: number[],
  recordOf: (e: NightEvent) => number,
  duration: number,
  originS: number,
  headerStartMs: number,
): Uint8Array[] {
  const index = new Map(records.map((r, k) => [r, k]));
  const perRecord: NightEvent[][] = records.map(() => []);
  for (const e of events) perRecord[index.get(recordOf(e)) ?? 0].push(e);
  return perRecord.map((list, k) => {
    const parts = [encodeTal(originS + records[k] * duration, null, [''], TAL_DECIMALS)];
    for (const e of list) parts.push(encodeTal((e.onsetMs - headerStartMs) / MS_PER_S, e.durationMs / MS_PER_S, [e.text], TAL_DECIMALS));
    return concat(parts);
  });
}

function encodeHeader(
  night: Night,
  headerStartMs: number,
  recordCount: number,
  duration: number,
  planned: PlannedSignal[],
  annotationSamples: number,
  format: SampleFormat,
  variant: string,
): Uint8Array {
  const { startDate, startTime, plusDate } = edfDateFields(headerStartMs, night.timezone);
  // EDF+ subfields are single words: spaces become '_', and each is kept short enough for the 80-character fields.
  const word = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? toHeaderAscii(v.trim()).replace(/ /g, '_').slice(0, 40) : 'X');
  const signalCount = planned.length + 1;
  const limits = SAMPLE_LIMITS[format];
  let h = '';
  // BDF's version is the byte 0xFF then "BIOSEMI" (written as char 255 below).
  h += format === 'BDF' ? '\xffBIOSEMI' : padField('0', 8, 'version');
  h += padField(`${word(night.meta.patientCode)} X X X`, 80, 'patient identification');
  h += padField(`Startdate ${plusDate} X X ${word(night.meta.deviceId)}`, 80, 'recording identification');
  h += startDate + startTime;
  h += padField(String(FIXED_HEADER_BYTES + SIGNAL_HEADER_BYTES * signalCount), 8, 'header bytes');
  h += padField(variant, 44, 'reserved');
  h += padField(String(recordCount), 8, 'number of data records');
  h += padField(String(duration), 8, 'duration of a data record');
  h += padField(String(signalCount), 4, 'number of signals');

  const rows = planned.map((p) => p.row);
  rows.push([format === 'BDF' ? BDF_ANNOTATION_LABEL : ANNOTATION_LABEL, '', '', '-1', '1', String(limits.min), String(limits.max), '', String(annotationSamples), '']);
  SIGNAL_FIELDS.forEach(([name, width], f) => {
    for (const row of rows) h += padField(row[f], width, name);
  });
  const bytes = new Uint8Array(h.length);
  for (let i = 0; i < h.length; i++) bytes[i] = h.charCodeAt(i);
  return bytes;
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}
