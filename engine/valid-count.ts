// How many samples of a channel are valid, by the engine's own missing-value rules (spec 2 §5,
// engine/assembly/channel.ts channelConvert*), without loading the channel: a stored value
// that is one of the missing codes, a float32 one whose physical value is not finite, and for
// SpO2 and pulse rate (and a file's breathing rate) a physical value ≤ 0 are missing
// (constants.ts nonPositiveIsMissing). The physical value is rounded to float32 as
// the engine stores it. tests/unit/valid-count.test.ts holds it to the engine's count.
import { MISSING_CODES, nonPositiveIsMissing } from './constants';

interface ValidCountInput {
  code: string;
  samples: Int16Array | Float32Array;
  scale?: number;
  offset?: number;
  missingCodes?: readonly number[];
}

export function validSampleCount(input: ValidCountInput): number {
  const { samples } = input;
  const scale = input.scale ?? 1;
  const offset = input.offset ?? 0;
  const codes = input.missingCodes ?? MISSING_CODES;
  const nonPositive = nonPositiveIsMissing(input.code, codes);
  const missing = (raw: number, v: number) => codes.includes(raw) || (nonPositive && v <= 0);
  if (samples instanceof Int16Array) {
    // Stored int16 is checked for codes only (its physical value is finite), as the engine does;
    // each of the 65,536 stored values is judged once (only the codes when no physical value is
    // missing), then the night is counted by table, read as unsigned to index it directly.
    const table = new Uint8Array(65_536);
    if (nonPositive) {
      for (let raw = -32_768; raw <= 32_767; raw++) table[raw & 0xffff] = missing(raw, Math.fround(raw * scale + offset)) ? 1 : 0;
    } else {
      const stored = codes.filter((code) => Number.isInteger(code) && code >= -32_768 && code <= 32_767);
      // No code a stored value can take (a file without missing codes): every sample is valid.
      if (stored.length === 0) return samples.length;
      for (const code of stored) table[code & 0xffff] = 1;
    }
    const stored = new Uint16Array(samples.buffer, samples.byteOffset, samples.length);
    let missed = 0;
    for (let i = 0; i < stored.length; i++) missed += table[stored[i]!]!;
    return samples.length - missed;
  }
  const identity = scale === 1 && offset === 0;
  let valid = 0;
  for (let i = 0; i < samples.length; i++) {
    const raw = samples[i]!;
    const v = identity ? raw : Math.fround(raw * scale + offset);
    if (!Number.isFinite(v) || missing(raw, v)) continue;
    valid++;
  }
  return valid;
}
