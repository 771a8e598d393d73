/**
 * ResMed's daily summary file, STR.edf: one 86,400-s record per noon-to-noon day (years of
 * them), each holding the device's own figures for that day: usage, mask on/off times (minutes
 * after the day's noon, up to 10 pairs), the device's AHI and indices (HI, AI, OAI, CAI, UAI).
 * It is no night: it is read here, apart from the night readers (whose 48-h limit it exceeds
 * by design), and stored per patient-day (device_summaries). Its header declares some digital
 * ranges 0..65534: read as unsigned 16-bit values (docs/decisions/0068-str-digital-range.md).
 */
import { DateTime } from 'luxon';
import { RecordingFormatError } from '../model';
import { FIXED_HEADER_BYTES, readFixedHeader, readSignalHeaders } from './header';
import type { EdfSignalHeader } from './types';

const DAY_S = 86_400;
/** Signals every STR.edf has: how a file is told to be one (by content, not name). */
const STR_SIGNALS = ['Date', 'MaskOn', 'MaskOff', 'Duration', 'AHI'] as const;
const INDICES = ['AHI', 'HI', 'AI', 'OAI', 'CAI', 'UAI'] as const;

/** One day of the device's summary. */
export interface DeviceDay {
  /** The device's day: the date of its noon start, YYYY-MM-DD. */
  day: string;
  ahi: number | null;
  hi: number | null;
  ai: number | null;
  oai: number | null;
  cai: number | null;
  uai: number | null;
  /** Therapy time, min (the device's Duration). */
  usageMin: number | null;
  /** Mask on/off pairs, ms UTC. */
  maskSessions: Array<{ on_ms: number; off_ms: number }>;
}

export interface DeviceSummaryFile {
  fileName: string;
  vendor: 'resmed';
  /** Records in the file (days read). */
  daysRead: number;
  /** Days with therapy (usage above 0), the ones kept. */
  days: DeviceDay[];
}

/** The signal labels of an EDF header, or null when the bytes are no EDF (cheap: headers only). */
function labelsOf(bytes: Uint8Array): string[] | null {
  if (bytes.length < FIXED_HEADER_BYTES || String.fromCharCode(...bytes.subarray(0, 8)).trim() !== '0') return null;
  const n = Number.parseInt(String.fromCharCode(...bytes.subarray(252, 256)).trim(), 10);
  if (!Number.isInteger(n) || n <= 0 || bytes.length < FIXED_HEADER_BYTES + n * 16) return null;
  const out: string[] = [];
  for (let i = 0; i < n; i++) out.push(String.fromCharCode(...bytes.subarray(FIXED_HEADER_BYTES + i * 16, FIXED_HEADER_BYTES + (i + 1) * 16)).trim());
  return out;
}

/** True when the bytes are a ResMed STR.edf (its daily-summary signals), whatever the file is called. */
export function isDeviceSummary(bytes: Uint8Array): boolean {
  const labels = labelsOf(bytes);
  return labels !== null && STR_SIGNALS.every((l) => labels.includes(l));
}

/**
 * Reads a ResMed STR.edf: each day's figures in physical units, a value outside its digital range
 * (ResMed writes -1 for "none") as null; mask times in `timezone` (the device's clock).
 */
export function readDeviceSummary(bytes: Uint8Array, fileName: string, timezone: string): DeviceSummaryFile {
  const fixed = readFixedHeader(fileName, bytes);
  if (fixed.format !== 'EDF') throw new RecordingFormatError(fileName, 'version', 'a device summary is a 16-bit EDF file');
  if (fixed.recordDuration !== DAY_S) throw new RecordingFormatError(fileName, 'duration of a data record', `is ${fixed.recordDuration} s, not one day (86400 s) as in a ResMed STR.edf`);
  const signals = readSignalHeaders(fileName, bytes, fixed.signalCount, 'EDF', { unsignedDigital: true });
  const recordBytes = signals.reduce((a, s) => a + 2 * s.samplesPerRecord, 0);
  const whole = Math.floor((bytes.length - fixed.headerBytes) / recordBytes);
  const count = fixed.declaredRecordCount === -1 ? whole : fixed.declaredRecordCount;
  if (count <= 0) throw new RecordingFormatError(fileName, 'number of data records', `is ${count}: the file holds no day`);
  if (count > whole) throw new RecordingFormatError(fileName, 'number of data records', `is ${count}, but the file holds ${whole} whole records`);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = new Map<string, { s: EdfSignalHeader; offset: number }>();
  let offset = 0;
  for (const s of signals) {
    at.set(s.label, { s, offset });
    offset += 2 * s.samplesPerRecord;
  }
  for (const l of STR_SIGNALS) if (!at.has(l)) throw new RecordingFormatError(fileName, 'signals', `has no "${l}" signal: not a ResMed STR.edf`);
  /** Physical values of a signal in record r; null where the digital value is outside its declared range. */
  const values = (label: string, r: number): Array<number | null> => {
    const slot = at.get(label);
    if (!slot) return [];
    const { s } = slot;
    const unsigned = s.digitalMax > 32767;
    const scale = (s.physicalMax - s.physicalMin) / (s.digitalMax - s.digitalMin);
    const out: Array<number | null> = [];
    for (let i = 0; i < s.samplesPerRecord; i++) {
      const pos = fixed.headerBytes + r * recordBytes + slot.offset + 2 * i;
      const d = unsigned ? view.getUint16(pos, true) : view.getInt16(pos, true);
      out.push(d < s.digitalMin || d > s.digitalMax ? null : s.physicalMin + (d - s.digitalMin) * scale);
    }
    return out;
  };
  const one = (label: string, r: number) => {
    const v = values(label, r)[0];
    return v === undefined || v === null ? null : Math.round(v * 100) / 100;
  };
  const start = headerDay(fixed.startDate, fileName);
  const days: DeviceDay[] = [];
  for (let r = 0; r < count; r++) {
    const day = start.plus({ days: r });
    const usageMin = one('Duration', r);
    if (usageMin === null || usageMin <= 0) continue;
    const noon = DateTime.fromObject({ year: day.year, month: day.month, day: day.day, hour: 12 }, { zone: timezone });
    const on = values('MaskOn', r);
    const off = values('MaskOff', r);
    const maskSessions: DeviceDay['maskSessions'] = [];
    for (let i = 0; i < on.length; i++) {
      const a = on[i];
      const b = off[i];
      if (a === null || a === undefined || b === null || b === undefined || b <= a) continue;
      maskSessions.push({ on_ms: noon.plus({ minutes: a }).toMillis(), off_ms: noon.plus({ minutes: b }).toMillis() });
    }
    const [ahi, hi, ai, oai, cai, uai] = INDICES.map((l) => one(l, r));
    days.push({ day: day.toISODate()!, ahi: ahi!, hi: hi!, ai: ai!, oai: oai!, cai: cai!, uai: uai!, usageMin, maskSessions });
  }
  return { fileName, vendor: 'resmed', daysRead: count, days };
}

/** The header's dd.mm.yy start date (ResMed: 20yy). */
function headerDay(startDate: string, fileName: string): DateTime {
  const m = /^(\d\d)\.(\d\d)\.(\d\d)$/.exec(startDate.trim());
  const d = m ? DateTime.fromObject({ year: 2000 + Number(m[3]), month: Number(m[2]), day: Number(m[1]) }, { zone: 'UTC' }) : null;
  if (!d || !d.isValid) throw new RecordingFormatError(fileName, 'startdate', `"${startDate.trim()}" is not a dd.mm.yy date`);
  return d;
}
