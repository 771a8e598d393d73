/**
 * The binary form of one channel's M4 view (GET /analytics/patient/channel-overview sends
 * one per channel asked, one after the other): the engine's own view of a window, computed
 * on the server from the stored samples, so a chart can draw the full night before the
 * channel's raw samples have arrived. It is the
 * engine's result for exactly that window and column count (the browser's engine gives
 * the same numbers once the samples are loaded). Little-endian, a 64-byte header, then
 * the columns:
 *
 *   0  'NCV1' magic             24 f64 channel min (valid samples, NaN when none)
 *   4  u32 header bytes (64)    32 f64 channel max
 *   8  f64 origin (ms UTC)      40 u32 pixels
 *  16  f64 column width (ms)    44 u32 sample count   48 u32 valid count   52..63 zero
 *  64  x, first, min, max, last: f32 × pixels each; then flags: u8 × pixels
 */
import type { ViewResult } from './types';

const VIEW_WIRE_MAGIC = 'NCV1';
const VIEW_WIRE_HEADER_BYTES = 64;

/** What a view's bytes carry besides the columns: the channel's whole-night figures. */
export interface ViewWireChannel {
  min: number;
  max: number;
  count: number;
  validCount: number;
}

/** A decoded overview: the view (arrays over one buffer, as the engine's) and the channel's figures. */
export interface DecodedView {
  view: ViewResult;
  channel: ViewWireChannel;
}

/** Encodes an engine view and its channel's figures. */
export function encodeView(view: ViewResult, channel: ViewWireChannel): Uint8Array {
  const p = view.pixels;
  const bytes = new Uint8Array(VIEW_WIRE_HEADER_BYTES + p * (5 * 4 + 1));
  const dv = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i++) bytes[i] = VIEW_WIRE_MAGIC.charCodeAt(i);
  dv.setUint32(4, VIEW_WIRE_HEADER_BYTES, true);
  dv.setFloat64(8, view.origin, true);
  dv.setFloat64(16, view.pxMs, true);
  dv.setFloat64(24, channel.min, true);
  dv.setFloat64(32, channel.max, true);
  dv.setUint32(40, p, true);
  dv.setUint32(44, channel.count, true);
  dv.setUint32(48, channel.validCount, true);
  const floats = new Float32Array(bytes.buffer, VIEW_WIRE_HEADER_BYTES, 5 * p);
  [view.x, view.first, view.min, view.max, view.last].forEach((a, k) => floats.set(a.subarray(0, p), k * p));
  bytes.set(view.flags.subarray(0, p), VIEW_WIRE_HEADER_BYTES + 5 * 4 * p);
  return bytes;
}

/** Decodes bytes made by encodeView (a copy in its own aligned buffer). */
export function decodeView(bytes: Uint8Array): DecodedView {
  const views = decodeViews(bytes);
  if (views.length !== 1) throw new Error(`view buffer holds ${views.length} views, expected one`);
  return views[0]!;
}

/** Decodes views made by encodeView and sent one after the other (each a copy in its own aligned buffer). */
export function decodeViews(bytes: Uint8Array): DecodedView[] {
  const out: DecodedView[] = [];
  let at = 0;
  do {
    const rest = bytes.subarray(at);
    const magic = String.fromCharCode(rest[0]!, rest[1]!, rest[2]!, rest[3]!);
    if (rest.byteLength < VIEW_WIRE_HEADER_BYTES || magic !== VIEW_WIRE_MAGIC) throw new Error('not a Nocturne view buffer');
    const dv = new DataView(rest.buffer, rest.byteOffset, rest.byteLength);
    const header = dv.getUint32(4, true);
    const p = dv.getUint32(40, true);
    const size = header + p * 21;
    if (rest.byteLength < size) throw new Error(`view buffer holds ${rest.byteLength} bytes, header says ${size}`);
    out.push(decodeOne(dv, rest.subarray(header, size), p));
    at += size;
  } while (at < bytes.byteLength);
  return out;
}

function decodeOne(dv: DataView, columns: Uint8Array, p: number): DecodedView {
  const buffer = columns.slice().buffer;
  const f = (k: number) => new Float32Array(buffer, k * 4 * p, p);
  return {
    view: {
      origin: dv.getFloat64(8, true) as ViewResult['origin'],
      pxMs: dv.getFloat64(16, true) as ViewResult['pxMs'],
      pixels: p as ViewResult['pixels'],
      x: f(0),
      first: f(1),
      min: f(2),
      max: f(3),
      last: f(4),
      flags: new Uint8Array(buffer, 20 * p, p),
      buffer,
    },
    channel: { min: dv.getFloat64(24, true), max: dv.getFloat64(32, true), count: dv.getUint32(44, true), validCount: dv.getUint32(48, true) },
  };
}
