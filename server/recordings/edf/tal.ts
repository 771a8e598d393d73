import { RecordingFormatError } from '../model';

/**
 * EDF+ time-stamped annotation lists (TALs), as they sit in an 'EDF Annotations' signal:
 *
 *   +Onset[\x15Duration]\x14[Text\x14]*\x00     (then more TALs, then \x00 padding)
 *
 * Onset and duration are seconds (onset relative to the header start, signed). The first
 * TAL of a record's first annotation signal has an empty first text: its onset is the
 * start time of that record ("time keeping").
 */

const SEP_DURATION = 0x15;
const SEP_TEXT = 0x14;
const NUL = 0x00;
const ONSET = /^[+-](\d+\.?\d*|\.\d+)$/;
const DURATION = /^(\d+\.?\d*|\.\d+)$/;

/** One parsed TAL. */
export interface Tal {
  onset: number;
  duration: number;
  texts: string[];
}

const utf8 = new TextDecoder('utf-8');

/** Parses the TALs of one record's annotation bytes; `where` names the record in errors. */
export function parseTals(file: string, bytes: Uint8Array, where: string): Tal[] {
  const tals: Tal[] = [];
  let pos = 0;
  while (pos < bytes.length) {
    if (bytes[pos] === NUL) {
      pos++;
      continue;
    }
    let end = bytes.indexOf(NUL, pos);
    if (end < 0) end = bytes.length;
    // A time-keeping TAL's end (an empty text, \x14\x14) with the next TAL right after it and no
    // NUL between them, as a Nihon Kohden recorder writes them: two TALs, not one with the next
    // one's onset among its texts (decision 1031).
    for (let cut = keepingEnd(bytes, pos, end); cut > 0; cut = keepingEnd(bytes, pos, end)) {
      tals.push(parseTal(file, bytes.subarray(pos, cut), `${where}, byte ${pos}`));
      pos = cut;
    }
    tals.push(parseTal(file, bytes.subarray(pos, end), `${where}, byte ${pos}`));
    pos = end + 1;
  }
  return tals;
}

const PLUS = 0x2b;
const MINUS = 0x2d;
const isDigit = (b: number | undefined) => b !== undefined && b >= 0x30 && b <= 0x39;

/**
 * Where a TAL of `bytes[pos, end)` ends at an empty text directly followed by an onset
 * (`…\x14\x14+1.14\x14…`): the index after the second \x14, or -1. Only the first text of a TAL
 * may be empty (time keeping), so its stamp must be all that comes before.
 */
function keepingEnd(bytes: Uint8Array, pos: number, end: number): number {
  const first = bytes.indexOf(SEP_TEXT, pos);
  if (first < 0 || first + 3 >= end || bytes[first + 1] !== SEP_TEXT) return -1;
  const next = bytes[first + 2];
  return (next === PLUS || next === MINUS) && isDigit(bytes[first + 3]) ? first + 2 : -1;
}

function parseTal(file: string, tal: Uint8Array, where: string): Tal {
  const field = `EDF Annotations (${where})`;
  const firstText = tal.indexOf(SEP_TEXT);
  if (firstText < 0) throw new RecordingFormatError(file, field, 'annotation list has no \\x14 after its onset');
  const stamp = utf8.decode(tal.subarray(0, firstText));
  const durSep = stamp.indexOf(String.fromCharCode(SEP_DURATION));
  const onsetText = durSep < 0 ? stamp : stamp.slice(0, durSep);
  const durationText = durSep < 0 ? '' : stamp.slice(durSep + 1);
  if (!ONSET.test(onsetText)) {
    throw new RecordingFormatError(file, field, `onset "${onsetText}" is not a signed number like +12.5`);
  }
  if (durSep >= 0 && !DURATION.test(durationText)) {
    throw new RecordingFormatError(file, field, `duration "${durationText}" is not a non-negative number`);
  }
  const body = utf8.decode(tal.subarray(firstText + 1));
  const texts = body.split(String.fromCharCode(SEP_TEXT));
  // A well-formed TAL ends with \x14, which leaves one empty piece after the split.
  if (texts.length > 0 && texts[texts.length - 1] === '') texts.pop();
  return { onset: Number(onsetText), duration: durSep < 0 ? 0 : Number(durationText), texts };
}

/** Formats seconds for a TAL: fixed-point, trailing zeros dropped, never an exponent. */
function formatTalSeconds(seconds: number, decimals: number): string {
  const fixed = Math.abs(seconds).toFixed(decimals);
  return fixed.includes('.') ? fixed.replace(/\.?0+$/, '') : fixed;
}

/** Encodes one TAL; texts have the separator and NUL characters replaced by spaces. */
export function encodeTal(onset: number, duration: number | null, texts: string[], decimals: number): Uint8Array {
  const sign = onset < 0 ? '-' : '+';
  let s = sign + formatTalSeconds(onset, decimals);
  if (duration !== null && duration > 0) s += String.fromCharCode(SEP_DURATION) + formatTalSeconds(duration, decimals);
  s += String.fromCharCode(SEP_TEXT);
  for (const text of texts) s += text.replace(/[\x00\x14\x15]/g, ' ') + String.fromCharCode(SEP_TEXT);
  s += String.fromCharCode(NUL);
  return new TextEncoder().encode(s);
}
