// Loading a channel into the engine: copy the samples in, convert them with
// the missing-value rules (spec 2 §5), build the indexes. Validation is the
// caller's (validate.ts); a failure here frees whatever was allocated.
import { MISSING_CODES, nonPositiveIsMissing } from './constants';
import { EngineError } from './errors';
import type { Heap } from './heap';
import { endTime, type ChannelClock } from './time';
import type { ChannelInfo, ChannelInput } from './types';
import type { WasmExports } from './wasm';

/** A channel living in WebAssembly memory. */
export interface LoadedChannel extends ChannelClock {
  handle: number;
  info: ChannelInfo;
}

/** Loads a checked channel input; the caller owns the result and destroys its handle. */
export function loadChannel(wasm: WasmExports, heap: Heap, input: ChannelInput): LoadedChannel {
  const n = input.samples.length;
  const codes = input.missingCodes ?? MISSING_CODES;
  const nonPositive = input.nonPositiveMissing ?? nonPositiveIsMissing(input.code, codes);
  let handle: number;
  try {
    handle = wasm.channelCreate(n);
  } catch (error) {
    throw new EngineError('ENGINE_FAILURE', `no memory for ${n} samples of channel ${input.code} of night ${input.night}: ${String(error)}`);
  }
  try {
    heap.withF64(codes, (codesPtr) => {
      const { samples } = input;
      if (samples instanceof Float32Array) {
        const values = wasm.channelValues(handle);
        new Float32Array(heap.buffer, values, n).set(samples);
        wasm.channelConvertF32(handle, values, input.scale ?? 1, input.offset ?? 0, codesPtr, codes.length, nonPositive);
      } else {
        heap.withBlock(n * 2, (raw) => {
          new Int16Array(heap.buffer, raw, n).set(samples);
          wasm.channelConvertI16(handle, raw, input.scale ?? 1, input.offset ?? 0, codesPtr, codes.length, nonPositive);
        });
      }
    });
    wasm.channelBuild(handle);
  } catch (error) {
    wasm.channelDestroy(handle);
    throw new EngineError('ENGINE_FAILURE', `loading channel ${input.code} of night ${input.night} failed: ${String(error)}`);
  }
  const validCount = wasm.channelValidCount(handle);
  const clock: ChannelClock = { t0Ms: input.t0Ms, sampleRateHz: input.sampleRateHz, count: n };
  const info: ChannelInfo = {
    night: input.night,
    code: input.code,
    sampleRateHz: input.sampleRateHz,
    t0Ms: input.t0Ms,
    t1Ms: endTime(clock),
    count: n,
    validCount,
    missingFraction: n === 0 ? 0 : (n - validCount) / n,
    min: validCount ? wasm.channelLo(handle) : NaN,
    max: validCount ? wasm.channelHi(handle) : NaN,
    sampleBytes: n * 4,
    indexBytes: wasm.channelIndexBytes(handle),
  };
  return { ...clock, handle, info };
}
