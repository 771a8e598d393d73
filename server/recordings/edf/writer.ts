import type { ChannelData, Night, NightEvent } from '../model';
import { MISSING_CODES } from '../model';
import { channelEndMs } from '../assemble';
import { padField, toHeaderAscii } from './fields';
import { ANNOTATION_LABEL, FIXED_HEADER_BYTES, NOCTURNE_TRANSDUCER, SIGNAL_FIELDS, SIGNAL_HEADER_BYTES, nocturneExtent } from './header';
import { quantiseChannel, type QuantisedSignal } from './quantise';
import { chooseRecordDuration, samplesPerRecord } from './record-duration';
import { edfDateFields } from './start-time';
import { encodeTal } from './tal';

/** Decimals of TAL onsets and durations: microseconds, far below any sample period. */
const TAL_DECIMALS = 6;
/** Record duration when a night has events but no channels. */
const ANNOTATION_ONLY_RECORD_S = 60;
const MS_PER_S = 1000;
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

interface PlannedSignal {
  channel: ChannelData;
  quantised: QuantisedSignal;
  samplesPerRecord: number;
  /** Samples of padding before the channel's first sample (its t0 after the file start). */
  lead: number;
  missingDigital: number;
}

/**
 * Writes a Night as an EDF+C file: every channel (int16, power-of-two scale, see
 * quantise.ts) plus an 'EDF Annotations' signal holding the events, and the record time
 * keeping. The record duration is the least whole number of seconds giving every channel
 * whole samples per record. The file starts at the earliest of the night start, channel
 * starts and event onsets; the header holds that time on the night's local clock to the
 * second and the first record's time keeping holds the sub-second part. Channels that
 * start later or end earlier than the file (the last record is filled up too) are padded
 * with the missing code -1, which other EDF readers show as such; the prefiltering field
 * notes where the channel's own samples sit ('Nocturne lead=… count=…'), so our reader
 * gives back exactly those samples at the channel's own t0. Labels are the channel codes
 * (16 characters at most), marked by the transducer field so they are not re-mapped.
 * Throws RangeError for rates no record of at most an hour fits, or values beyond ±8.19e6.
 */
export function writeEdfPlus(night: Night): Uint8Array {
  const startMs = Math.min(night.startMs, minOf(night.channels.map((c) => c.t0)), minOf(night.events.map((e) => e.onsetMs)));
  const headerStartMs = Math.floor(startMs / MS_PER_S) * MS_PER_S;
  const subSecond = (startMs - headerStartMs) / MS_PER_S;
  const endMs = Math.max(night.stopMs, maxOf(night.channels.map(channelEndMs)), maxOf(night.events.map((e) => e.onsetMs)));
  const duration = night.channels.length > 0 ? chooseRecordDuration(night.channels.map((c) => c.sampleRate)) : ANNOTATION_ONLY_RECORD_S;
  const recordCount = Math.max(1, Math.ceil((endMs - startMs) / MS_PER_S / duration - 1e-9));

  const planned = night.channels.map((channel) => planSignal(channel, duration, startMs));
  const annotationRecords = planAnnotations(night.events, recordCount, duration, startMs, headerStartMs, subSecond);
  const annotationWords = Math.max(1, maxOf(annotationRecords.map((r) => Math.ceil(r.length / 2))));

  const signalCount = planned.length + 1;
  const headerBytes = FIXED_HEADER_BYTES + SIGNAL_HEADER_BYTES * signalCount;
  const recordWords = planned.reduce((sum, p) => sum + p.samplesPerRecord, 0) + annotationWords;
  const out = new Uint8Array(headerBytes + recordCount * recordWords * 2);
  out.set(encodeHeader(night, headerStartMs, recordCount, duration, planned, annotationWords), 0);

  const words = new Int16Array(out.buffer, headerBytes, recordCount * recordWords);
  const annotationAt = recordWords - annotationWords;
  for (let r = 0; r < recordCount; r++) {
    let at = r * recordWords;
    for (const p of planned) {
      writeRecordSamples(words, at, p, r);
      at += p.samplesPerRecord;
    }
  }
  if (!LITTLE_ENDIAN_HOST) swapBytes(out, headerBytes);
  for (let r = 0; r < recordCount; r++) out.set(annotationRecords[r], headerBytes + (r * recordWords + annotationAt) * 2);
  return out;
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

function planSignal(channel: ChannelData, duration: number, startMs: number): PlannedSignal {
  const quantised = quantiseChannel(channel);
  return {
    channel,
    quantised,
    samplesPerRecord: samplesPerRecord(channel.sampleRate, duration),
    lead: Math.max(0, Math.round(((channel.t0 - startMs) / MS_PER_S) * channel.sampleRate)),
    missingDigital: Math.round(MISSING_CODES[0] / quantised.step),
  };
}

/** Copies record r's share of a channel into `words` at `at`, padding outside the data. */
function writeRecordSamples(words: Int16Array, at: number, p: PlannedSignal, r: number): void {
  const n = p.samplesPerRecord;
  const data = p.quantised.digital;
  const from = r * n - p.lead;
  const lo = Math.max(0, -from);
  const hi = Math.min(n, data.length - from);
  if (hi <= lo) {
    words.fill(p.missingDigital, at, at + n);
    return;
  }
  if (lo > 0) words.fill(p.missingDigital, at, at + lo);
  words.set(data.subarray(from + lo, from + hi), at + lo);
  if (hi < n) words.fill(p.missingDigital, at + hi, at + n);
}

/** The annotation bytes of each record: its time keeping, then the events whose onset falls in it. */
function planAnnotations(
  events: NightEvent[],
  recordCount: number,
  duration: number,
  startMs: number,
  headerStartMs: number,
  subSecond: number,
): Uint8Array[] {
  const perRecord: NightEvent[][] = Array.from({ length: recordCount }, () => []);
  for (const e of events) {
    const r = Math.min(recordCount - 1, Math.max(0, Math.floor((e.onsetMs - startMs) / MS_PER_S / duration)));
    perRecord[r].push(e);
  }
  return perRecord.map((list, r) => {
    const parts = [encodeTal(subSecond + r * duration, null, [''], TAL_DECIMALS)];
    for (const e of list) {
      parts.push(encodeTal((e.onsetMs - headerStartMs) / MS_PER_S, e.durationMs / MS_PER_S, [e.text], TAL_DECIMALS));
    }
    return concat(parts);
  });
}

function encodeHeader(
  night: Night,
  headerStartMs: number,
  recordCount: number,
  duration: number,
  planned: PlannedSignal[],
  annotationWords: number,
): Uint8Array {
  const { startDate, startTime, plusDate } = edfDateFields(headerStartMs, night.timezone);
  // EDF+ subfields are single words: spaces become '_', and each is kept short enough for the 80-character fields.
  const word = (v: unknown) => (typeof v === 'string' && v.trim() !== '' ? toHeaderAscii(v.trim()).replace(/ /g, '_').slice(0, 40) : 'X');
  const signalCount = planned.length + 1;
  let h = '';
  h += padField('0', 8, 'version');
  h += padField(`${word(night.meta.patientCode)} X X X`, 80, 'patient identification');
  h += padField(`Startdate ${plusDate} X X ${word(night.meta.deviceId)}`, 80, 'recording identification');
  h += startDate + startTime;
  h += padField(String(FIXED_HEADER_BYTES + SIGNAL_HEADER_BYTES * signalCount), 8, 'header bytes');
  h += padField('EDF+C', 44, 'reserved');
  h += padField(String(recordCount), 8, 'number of data records');
  h += padField(String(duration), 8, 'duration of a data record');
  h += padField(String(signalCount), 4, 'number of signals');

  const rows: string[][] = planned.map((p) => [
    toHeaderAscii(p.channel.code).slice(0, 16),
    NOCTURNE_TRANSDUCER,
    toHeaderAscii(p.channel.unit).slice(0, 8),
    p.quantised.physicalMin,
    p.quantised.physicalMax,
    String(p.quantised.digitalMin),
    String(p.quantised.digitalMax),
    nocturneExtent(p.lead, p.quantised.digital.length),
    String(p.samplesPerRecord),
    '',
  ]);
  rows.push([ANNOTATION_LABEL, '', '', '-1', '1', '-32768', '32767', '', String(annotationWords), '']);
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

function swapBytes(bytes: Uint8Array, from: number): void {
  for (let i = from; i + 1 < bytes.length; i += 2) {
    const t = bytes[i];
    bytes[i] = bytes[i + 1];
    bytes[i + 1] = t;
  }
}
