import { decodeFrame, LIVE_CHANNELS, MAX_FRAME_BYTES, type LiveChannelSpec, type LiveErrorCode } from '../../contract/live-protocol';
import { MISSING_CODES } from '../recordings/model';

/** A frame refused before anything of it is stored: the code and message go back to the device. */
export class FrameError extends Error {
  constructor(
    readonly code: LiveErrorCode,
    message: string,
    readonly seq?: number,
  ) {
    super(message);
  }
}

/** One channel's part of a valid frame. */
export interface FramePart {
  code: string;
  spec: LiveChannelSpec;
  values: Float32Array;
}

/** A frame that passed every check that needs no database. */
export interface ValidFrame {
  seq: number;
  sentMs: number;
  parts: FramePart[];
  bytes: Uint8Array;
}

/** Sequence numbers are stored as chunk numbers (int4). */
const MAX_SEQ = 2_147_483_647;

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function readHeader(header: unknown): { seq: number; sentMs: number; channels: { code: string; n: number }[] } {
  if (!isObject(header)) throw new FrameError('bad_frame', 'frame header must be a JSON object');
  const { seq, sentMs, channels } = header;
  if (typeof seq !== 'number' || !Number.isInteger(seq) || seq < 0 || seq > MAX_SEQ) {
    throw new FrameError('bad_sequence', `seq must be an integer from 0 to ${MAX_SEQ}, got ${JSON.stringify(seq)}`);
  }
  if (typeof sentMs !== 'number' || !Number.isFinite(sentMs)) throw new FrameError('bad_frame', 'sentMs must be a time in ms', seq);
  if (!Array.isArray(channels)) throw new FrameError('bad_frame', 'channels must be a list', seq);
  const out = channels.map((c, i) => {
    if (!isObject(c) || typeof c.code !== 'string' || typeof c.n !== 'number' || !Number.isInteger(c.n) || c.n < 0) {
      throw new FrameError('bad_frame', `channels[${i}] must be { code, n } with n a whole number`, seq);
    }
    return { code: c.code, n: c.n };
  });
  return { seq, sentMs, channels: out };
}

/**
 * A sample in the units its range is checked in: int16 channels by the digital value it will
 * be stored as (3.2767 reaches us as float32 3.27670002, still digital 32767).
 */
const checked = (spec: LiveChannelSpec, v: number) => (spec.storage === 'int16' ? Math.round(v / spec.scale) : v);

function checkSamples(code: string, spec: LiveChannelSpec, values: Float32Array, seq: number): void {
  const min = checked(spec, spec.min);
  const max = checked(spec, spec.max);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) throw new FrameError('non_finite_sample', `channel ${code} sample ${i} is ${v}, not a finite number`, seq);
    if (spec.missing && (MISSING_CODES as readonly number[]).includes(v)) continue;
    const x = checked(spec, v);
    if (x < min || x > max) throw new FrameError('out_of_range_sample', `channel ${code} sample ${i} is ${v}, outside ${spec.min} to ${spec.max}`, seq);
  }
}

/**
 * Checks a binary device frame against everything but the database: its size and layout,
 * its sequence number's form, that every channel is a live channel the device announced,
 * and that every sample is finite and within its channel's range. Throws FrameError.
 */
export function validateFrame(bytes: Uint8Array, announced: { has(code: string): boolean }): ValidFrame {
  if (bytes.byteLength > MAX_FRAME_BYTES) throw new FrameError('frame_too_large', `frame of ${bytes.byteLength} bytes is over the limit of ${MAX_FRAME_BYTES}`);
  let decoded;
  try {
    decoded = decodeFrame(bytes);
  } catch (err) {
    throw new FrameError('bad_frame', (err as Error).message);
  }
  const { seq, sentMs, channels } = readHeader(decoded.header);
  const total = channels.reduce((s, c) => s + c.n, 0);
  if (total !== decoded.samples.length) throw new FrameError('bad_frame', `header counts ${total} samples, payload holds ${decoded.samples.length}`, seq);
  const seen = new Set<string>();
  let at = 0;
  const parts = channels.map(({ code, n }) => {
    const spec = (LIVE_CHANNELS as Record<string, LiveChannelSpec>)[code];
    if (!spec) throw new FrameError('unknown_channel', `unknown channel "${code}"`, seq);
    if (!announced.has(code)) throw new FrameError('channel_not_announced', `channel ${code} was not announced in hello`, seq);
    if (seen.has(code)) throw new FrameError('bad_frame', `channel ${code} appears twice`, seq);
    seen.add(code);
    const values = decoded.samples.subarray(at, at + n);
    at += n;
    checkSamples(code, spec, values, seq);
    return { code, spec, values };
  });
  return { seq, sentMs, parts, bytes };
}

/** A part's samples as stored: int16 digital values (physical / scale) or float32. */
export function storedBytes(part: FramePart): Uint8Array {
  if (part.spec.storage === 'float32') return new Uint8Array(part.values.slice().buffer);
  const out = new Int16Array(part.values.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.round(part.values[i]! / part.spec.scale);
  return new Uint8Array(out.buffer);
}
