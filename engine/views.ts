// M4 views of loaded channels: run the kernel per channel into the scratch
// area, then copy all columns out in one go into a buffer the caller owns
// (new, or a recycled one), laid out per channel as
// x | first | min | max | last (float32 each) | flags (uint8), 4-byte aligned.
import { VIEW_BYTES_PER_COLUMN } from './constants';
import type { Heap } from './heap';
import type { LoadedChannel } from './load';
import { viewGeometry } from './time';
import type { ViewResult } from './types';
import { ms, type Ms, type Px } from './units';
import type { WasmExports } from './wasm';

/** Which kernel computes the columns. */
export type ViewKernel = 'pyramid' | 'scan';

/** Views of `channels` over [t0, t1) in `pixels` columns, sharing one buffer. */
export function computeViews(
  wasm: WasmExports, heap: Heap, channels: readonly LoadedChannel[],
  t0: Ms, t1: Ms, pixels: Px, how: ViewKernel, recycle?: ArrayBuffer,
): ViewResult[] {
  const stride = Math.ceil((pixels * VIEW_BYTES_PER_COLUMN) / 4) * 4;
  const out = heap.scratch(stride * Math.max(1, channels.length));
  const kernel = how === 'pyramid' ? wasm.view : wasm.viewScan;
  let pxMs = ms(0);
  channels.forEach((channel, i) => {
    const geometry = viewGeometry(channel, t0, t1, pixels);
    pxMs = geometry.pxMs;
    kernel(channel.handle, geometry.a, geometry.b, pixels, pxMs, out + i * stride);
  });
  const buffer = heap.copyOut(out, stride * channels.length, recycle);
  return channels.map((_, i) => {
    const base = i * stride;
    const column = (k: number) => new Float32Array(buffer, base + k * pixels * 4, pixels);
    return {
      origin: t0, pixels, pxMs,
      x: column(0), first: column(1), min: column(2), max: column(3), last: column(4),
      flags: new Uint8Array(buffer, base + 5 * pixels * 4, pixels),
      buffer,
    };
  });
}
