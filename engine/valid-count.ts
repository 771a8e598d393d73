// How many samples of a channel are valid, by the engine's own missing-value rules (spec 2 §5,
// engine/assembly/channel.ts channelConvert*), without loading the channel: a stored value
// that is one of the missing codes, a float32 one whose physical value is not finite, and for
// SpO2 and pulse rate a physical value ≤ 0 are missing. The physical value is rounded to float32 as
// the engine stores it. tests/unit/valid-count.test.ts holds it to the engine's count.
import { MISSING_CODES, NON_POSITIVE_MISSING_CHANNELS } from './constants';

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
  const nonPositive = NON_POSITIVE_MISSING_CHANNELS.includes(input.code.toUpperCase());
  const float = samples instanceof Float32Array;
  const identity = float && scale === 1 && offset === 0;
  let valid = 0;
  for (let i = 0; i < samples.length; i++) {
    const raw = samples[i]!;
    const v = identity ? raw : Math.fround(raw * scale + offset);
    // Stored int16 is checked for codes only (its physical value is finite), as the engine does.
    if ((float && !Number.isFinite(v)) || codes.includes(raw) || (nonPositive && v <= 0)) continue;
    valid++;
  }
  return valid;
}
