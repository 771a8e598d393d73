import { MISSING_CODES, type ChannelData } from '../model';

/**
 * The spec's data-point download (spec 2 §7): one channel as `Timestamp,Value` rows.
 *
 * - Timestamp: ISO 8601 in UTC with milliseconds ('2025-08-08T01:02:10.040Z'), unambiguous
 *   whatever the reader's zone; epoch seconds or ms on request.
 * - Missing samples (the device codes -1 and -2, and non-finite values) are written as an
 *   empty Value by default: a spreadsheet then skips them instead of averaging -1s in, and
 *   the spec's chart series already treat empty strings as missing. `missing: 'code'`
 *   keeps the device's codes for machine use. Our Timestamp,Value reader reads empty as
 *   missing (NaN), and a file named like ours keeps the device's codes for its channel.
 * - Values: int16 channels in physical units to 10 significant digits, float32 to 7 (what
 *   float32 holds), trailing zeros dropped. Lines end in CRLF (RFC 4180).
 */

/** Options of {@link writeDataPointCsv}. */
export interface DataPointCsvOptions {
  missing?: 'empty' | 'code';
  timestamps?: 'iso' | 'epoch-ms' | 'epoch-s';
}

/** What the file name is built from. */
export interface DataPointFileNameParts {
  /** Channel code (SPO2, NC_PSG, blood_sugar …). */
  channel: string;
  /** The recording date: 'YYYYMMDD', 'YYYY-MM-DD', or a night key (Unix seconds at 00:00 UTC of the night's date). */
  date: string | number;
  deviceId: string;
  patientCode: string;
}

const HEADER = 'Timestamp,Value';
const EOL = '\r\n';
const INT16_DIGITS = 10;
const FLOAT32_DIGITS = 7;

/** The CSV text of one channel's data points. */
export function writeDataPointCsv(channel: ChannelData, options: DataPointCsvOptions = {}): string {
  return [...dataPointCsvChunks(channel, options)].join('');
}

/**
 * The same CSV text in pieces of `linesPerChunk` lines, so a download streams a channel of
 * millions of samples without building the whole text in memory.
 */
export function* dataPointCsvChunks(channel: ChannelData, options: DataPointCsvOptions = {}, linesPerChunk = 10_000): Generator<string> {
  const keepCodes = options.missing === 'code';
  const stamp = timestampFormatter(options.timestamps ?? 'iso');
  const { samples, scale, offset, t0, sampleRate } = channel;
  const isInt = channel.storage === 'int16';
  // float32 holding a file's digital values (BDF, EDF+D) with a scale: physical needs more than 7 digits.
  const digits = isInt || scale !== 1 || offset !== 0 ? INT16_DIGITS : FLOAT32_DIGITS;
  const periodMs = 1000 / sampleRate;
  yield HEADER + EOL;
  for (let from = 0; from < samples.length; from += linesPerChunk) {
    const to = Math.min(samples.length, from + linesPerChunk);
    const lines: string[] = new Array(to - from);
    for (let i = from; i < to; i++) {
      // float32 samples may hold digital values with a scale too (BDF, EDF+D with gaps).
      const v = samples[i] * scale + offset;
      // A channel's own codes are stored values (as the engine reads them); without any said, physical -1/-2 as before.
      const missing = !Number.isFinite(v) || (channel.missingCodes ? channel.missingCodes.includes(samples[i]) : v === MISSING_CODES[0] || v === MISSING_CODES[1]);
      const value = missing ? (keepCodes && Number.isFinite(v) ? String(v) : '') : String(Number(v.toPrecision(digits)));
      lines[i - from] = `${stamp(t0 + i * periodMs)},${value}`;
    }
    yield lines.join(EOL) + EOL;
  }
}

/**
 * `${channel}_${YYYYMMDD}_${deviceId}_${patientCode}.csv`. Characters other than letters,
 * digits, '.', '-' (and '_' in channel and patient code) become '-', so the name is safe
 * on every file system and the device id cannot be confused with its neighbours.
 */
export function dataPointFileName(parts: DataPointFileNameParts): string {
  return `${safe(parts.channel, true)}_${ymd(parts.date)}_${safe(parts.deviceId, false)}_${safe(parts.patientCode, true)}.csv`;
}

/**
 * Splits a name made by {@link dataPointFileName} back into its parts (the channel ends at
 * the first '_YYYYMMDD_', so codes with underscores such as NC_PSG survive); null otherwise.
 */
export function parseDataPointFileName(name: string): { channel: string; date: string; deviceId: string; patientCode: string } | null {
  const m = /^(.+?)_(\d{8})_([^_]+)_(.+)\.csv$/i.exec(name);
  return m ? { channel: m[1], date: m[2], deviceId: m[3], patientCode: m[4] } : null;
}

function timestampFormatter(kind: 'iso' | 'epoch-ms' | 'epoch-s'): (ms: number) => string {
  if (kind === 'epoch-ms') return (ms) => String(Math.round(ms));
  if (kind === 'epoch-s') return (ms) => String(Math.round(ms) / 1000);
  return (ms) => new Date(Math.round(ms)).toISOString();
}

function ymd(date: string | number): string {
  if (typeof date === 'number') return new Date(date * 1000).toISOString().slice(0, 10).replace(/-/g, '');
  const compact = date.replace(/-/g, '');
  if (!/^\d{8}$/.test(compact)) throw new RangeError(`data-point file name: "${date}" is not a YYYYMMDD date`);
  return compact;
}

function safe(part: string, underscore: boolean): string {
  const cleaned = part.trim().replace(underscore ? /[^A-Za-z0-9._-]+/g : /[^A-Za-z0-9.-]+/g, '-');
  return cleaned === '' ? 'unknown' : cleaned;
}
