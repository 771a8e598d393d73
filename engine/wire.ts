/**
 * The binary form of one channel's samples (GET /analytics/patient/channel-data), read by
 * the engine's loader. Little-endian, a fixed 48-byte header, then the samples:
 *
 *   0  'NCT1' magic            24 f64 scale
 *   4  u32 header bytes (48)   32 f64 offset      physical = stored * scale + offset
 *   8  f64 t0 (ms UTC)         40 u32 sample count
 *  16  f64 sample rate (Hz)    44 u8 storage (1 int16, 2 float32)
 *                              45 i8, 46 i8: the missing codes (-1, -2)
 *                              47 u8 flags: bit 0 set = the channel has no missing codes
 *                                 (45, 46 are then 0; files of other tools: a gap is NaN)
 *  48  samples (int16 or float32), `count` of them
 */
const WIRE_MAGIC = 'NCT1';
const WIRE_HEADER_BYTES = 48;
/** Flag of byte 47: no stored value means "missing" (buffers made before it had 0 there: codes apply). */
const NO_MISSING_CODES = 1;

export interface WireChannel {
  t0: number;
  sampleRate: number;
  scale: number;
  offset: number;
  storage: 'int16' | 'float32';
  /** Stored values meaning "missing": our device's [-1, -2], or none ([]) for other tools' files. */
  missingCodes: readonly number[];
  samples: Int16Array | Float32Array;
}

/** Encodes a channel into one buffer. */
export function encodeWire(c: WireChannel): Uint8Array {
  const bytes = new Uint8Array(WIRE_HEADER_BYTES + c.samples.byteLength);
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < 4; i++) bytes[i] = WIRE_MAGIC.charCodeAt(i);
  view.setUint32(4, WIRE_HEADER_BYTES, true);
  view.setFloat64(8, c.t0, true);
  view.setFloat64(16, c.sampleRate, true);
  view.setFloat64(24, c.scale, true);
  view.setFloat64(32, c.offset, true);
  view.setUint32(40, c.samples.length, true);
  view.setUint8(44, c.storage === 'int16' ? 1 : 2);
  if (c.missingCodes.length > 2 || c.missingCodes.some((m) => !Number.isInteger(m) || m < -128 || m > 127)) {
    throw new RangeError(`missing codes ${c.missingCodes.join(', ')}: at most two whole numbers in -128..127`);
  }
  if (c.missingCodes.length === 0) view.setUint8(47, NO_MISSING_CODES);
  else {
    view.setInt8(45, c.missingCodes[0]);
    view.setInt8(46, c.missingCodes[c.missingCodes.length - 1]);
  }
  bytes.set(new Uint8Array(c.samples.buffer, c.samples.byteOffset, c.samples.byteLength), WIRE_HEADER_BYTES);
  return bytes;
}

/** Decodes a buffer made by encodeWire; the samples are a copy in their own aligned buffer. */
export function decodeWire(bytes: Uint8Array): WireChannel {
  const magic = String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
  if (bytes.byteLength < WIRE_HEADER_BYTES || magic !== WIRE_MAGIC) throw new Error('not a Nocturne channel buffer');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const header = view.getUint32(4, true);
  const count = view.getUint32(40, true);
  const storage = view.getUint8(44) === 1 ? 'int16' : 'float32';
  const size = storage === 'int16' ? 2 : 4;
  if (bytes.byteLength !== header + count * size) throw new Error(`channel buffer holds ${bytes.byteLength} bytes, header says ${header + count * size}`);
  const copy = bytes.slice(header, header + count * size);
  return {
    t0: view.getFloat64(8, true),
    sampleRate: view.getFloat64(16, true),
    scale: view.getFloat64(24, true),
    offset: view.getFloat64(32, true),
    storage,
    missingCodes: (view.getUint8(47) & NO_MISSING_CODES) !== 0 ? [] : [view.getInt8(45), view.getInt8(46)],
    samples: storage === 'int16' ? new Int16Array(copy.buffer) : new Float32Array(copy.buffer),
  };
}
