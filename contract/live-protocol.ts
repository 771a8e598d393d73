/**
 * The live protocol: every message between a bedside device, the server and a viewer, in one
 * module that the server, the device CLI (server/cli/device.ts) and the web client import.
 * It has no Node or browser imports, so `src/` may import its types and codecs.
 *
 * Two WebSockets:
 *
 *   device ──▶ /api/v1/device/live   (device key in the first message)
 *   viewer ──▶ /api/v1/stream        (session token in the first message, never in the URL)
 *
 * Control messages are JSON text. Sample data travels as binary messages, never as JSON
 * arrays of numbers (ARCHITECTURE "API conventions"):
 *
 *   ┌──────────────┬─────────────────────────┬──────────────────────────────────────────┐
 *   │ u32 LE: H    │ H bytes: UTF-8 JSON     │ float32 LE samples, channel after channel │
 *   │ header bytes │ FrameHeader / ViewerFrame│ in header.channels order, n of each       │
 *   └──────────────┴─────────────────────────┴──────────────────────────────────────────┘
 *
 * Samples are physical values (BR in br/min, Y_DIST in mm …); the device's missing codes
 * (-1 "no estimate", -2 "no subject") travel as themselves on the vital channels.
 *
 * Device session, in order:
 *   1. device → {@link DeviceHello}; server → {@link DeviceWelcome} (or {@link LiveError} and
 *      close 4401/4403). `welcome.lastSeq` is the last frame the server committed for this
 *      device: the device drops its pending frames up to it and resends the rest, in order.
 *   2. device → binary frames, seq = lastSeq + 1, + 2 … every ~200 ms without waiting.
 *      server → {@link DeviceAck} only once the frame's samples are committed; a frame
 *      already committed (a resend whose ack was lost) is acked again with duplicate: true
 *      and stored nothing. A bad frame gets {@link LiveError} with its seq and stores nothing.
 *   3. device → {@link DeviceEnd} when its night ends; server → {@link DeviceEnded}.
 *   Config (Device Config, server/live/config-push.ts): after the welcome and whenever a new
 *   version is saved, server → {@link DeviceConfigPush};
 *   device → {@link DeviceConfigAck}.
 *
 * Viewer session:
 *   1. viewer → {@link ViewerAuth}; server → {@link ViewerReady} (or error, close 4401).
 *   2. viewer → {@link ViewerSubscribe} per device (its practice's only; annotators refused);
 *      server → {@link ViewerSubscribed}, then binary {@link ViewerFrame}s as they commit on
 *      any server process, {@link ViewerState} when a device's state changes, and
 *      {@link ViewerSkipped} when the viewer was too slow and older frames were dropped
 *      (it reads the skipped range from storage: GET /analytics/patient/channel-data).
 *   `fromSeq` in subscribe resumes after a reconnect: frames after it still in the live
 *   table are sent first (at most {@link MAX_CATCH_UP_FRAMES}; older ones come from storage).
 */

/** Protocol version a device announces; the server refuses others. */
export const LIVE_PROTOCOL = 1;

/** Paths under the API prefix. */
export const DEVICE_SOCKET_PATH = '/device/live';
export const VIEWER_SOCKET_PATH = '/stream';

/** Largest binary frame a device may send (bytes, header included). */
export const MAX_FRAME_BYTES = 64 * 1024;
/** Largest frame header (bytes of JSON). */
const MAX_HEADER_BYTES = 4 * 1024;
/** How often a device sends a frame (ms). */
export const FRAME_INTERVAL_MS = 200;
/** How often a device that streams nothing says it is still there (ms). */
export const HEARTBEAT_MS = 10_000;
/** A device with no committed frame for this long is stalled, then offline (ms). */
export const STALLED_AFTER_MS = 10_000;
export const OFFLINE_AFTER_MS = 60_000;
/** Bytes a viewer's socket may hold unsent before newer frames replace older ones. */
export const VIEWER_BUFFER_LIMIT_BYTES = 256 * 1024;
/** Frames sent to a resuming viewer before it is told to read the rest from storage. */
export const MAX_CATCH_UP_FRAMES = 300;

/** WebSocket close codes (4000–4999 are the application's). */
export const CLOSE = {
  /** Unknown or revoked device key, missing or expired session token. */
  unauthorized: 4401,
  /** Annotators, admins, a device not deployed to a patient. */
  forbidden: 4403,
  /** First message missing, late or malformed. */
  badHello: 4400,
  /** Another connection of the same device took over. */
  replaced: 4409,
} as const;

/** One live channel: its rate, how it is stored, the range a sample may take. */
export interface LiveChannelSpec {
  rate: number;
  unit: string;
  storage: 'int16' | 'float32';
  /** int16: physical = digital * scale. */
  scale: number;
  /** Physical range a sample must lie in; missing codes are allowed where `missing`. */
  min: number;
  max: number;
  missing: boolean;
}

const vital = (rate: number, unit: string, min: number, max: number): LiveChannelSpec => ({ rate, unit, storage: 'float32', scale: 1, min, max, missing: true });
const raw = (scale: number, unit: string): LiveChannelSpec => ({ rate: 20, unit, storage: 'int16', scale, min: -32_767 * scale, max: 32_767 * scale, missing: false });

/** The radar channels a device may stream (server/simulator/README.md "Channels"). */
export const LIVE_CHANNELS = {
  I: raw(1e-4, 'a.u.'),
  Q: raw(1e-4, 'a.u.'),
  Y_DIST: raw(0.01, 'mm'),
  BR: vital(1, 'br/min', 0, 80),
  BRV: vital(1, 'br/min', 0, 60),
  HR: vital(1, 'bpm', 20, 300),
  HRV: vital(1, 'ms', 0, 1000),
  MOV: vital(1, 'a.u.', 0, 100),
  SPO2: vital(1, '%', 0, 100),
  PR: vital(1, 'bpm', 20, 300),
  SQB: { rate: 1, unit: '', storage: 'int16', scale: 1, min: 0, max: 1, missing: false },
} as const satisfies Record<string, LiveChannelSpec>;

export type LiveChannelCode = keyof typeof LIVE_CHANNELS;

/** A device's state as viewers and GET /device/real-time see it. */
export type DeviceLiveState = 'streaming' | 'stalled' | 'offline';

/** The state of a device whose last frame committed at lastFrameMs (null: never). */
export function liveState(lastFrameMs: number | null, nowMs: number): DeviceLiveState {
  if (lastFrameMs === null) return 'offline';
  const age = nowMs - lastFrameMs;
  if (age >= OFFLINE_AFTER_MS) return 'offline';
  return age >= STALLED_AFTER_MS ? 'stalled' : 'streaming';
}

// ── device → server ────────────────────────────────────────────────────────────────────

/** First message of a device connection. */
export interface DeviceHello {
  type: 'hello';
  protocol: typeof LIVE_PROTOCOL;
  /** The device's serial (devices.device_id, e.g. NCT0001). */
  deviceId: string;
  /** Its device key, as issued (shown once). */
  key: string;
  /** When this night's recording began on the device (ms UTC); one recording per session. */
  sessionStartMs: number;
  /** Channels it will send, from {@link LIVE_CHANNELS}. */
  channels: LiveChannelCode[];
}

/** Header of a binary device frame; samples follow it. */
export interface FrameHeader {
  /** Frame number: the device's committed lastSeq + 1, + 2 … (non-negative integer). */
  seq: number;
  /** Device clock when the frame was first sent (ms UTC), for latency figures. */
  sentMs: number;
  /** Samples per channel, in payload order; each channel's samples continue its previous frame's. */
  channels: { code: string; n: number }[];
}

/** The device's night is over: the server closes the live recording. @public (the wire protocol, documented whole) */
export interface DeviceEnd {
  type: 'end';
}

/** The device applied (or refused) a configuration version. @public (the wire protocol, documented whole) */
export interface DeviceConfigAck {
  type: 'config-ack';
  version: number;
  applied: boolean;
  reason?: string;
}

/**
 * "Still here": sent every {@link HEARTBEAT_MS} by a device that sends no frames (live
 * streaming off), so its night is not closed as offline while it is connected.
 * @public (the wire protocol, documented whole)
 */
export interface DeviceHeartbeat {
  type: 'heartbeat';
}

/** @public (the wire protocol, documented whole) */
export type DeviceMessage = DeviceHello | DeviceEnd | DeviceConfigAck | DeviceHeartbeat;

// ── server → device ────────────────────────────────────────────────────────────────────

/** @public (the wire protocol, documented whole) */
export interface DeviceWelcome {
  type: 'welcome';
  /** Last committed seq of this device (-1 when none). */
  lastSeq: number;
  /** The recording this session's samples go to. */
  recordingId: number;
  maxFrameBytes: number;
}

/** A frame is committed (duplicate: it had been committed before; nothing stored again). @public (the wire protocol, documented whole) */
export interface DeviceAck {
  type: 'ack';
  seq: number;
  duplicate?: boolean;
}

/** @public (the wire protocol, documented whole) */
export interface DeviceEnded {
  type: 'ended';
  recordingId: number;
}

/** Configuration pushed over the live connection (Device Config, server/live/config-push.ts). @public (the wire protocol, documented whole) */
export interface DeviceConfigPush {
  type: 'config';
  version: number;
  config: Record<string, unknown>;
}

/** Stable codes of {@link LiveError}; the UI maps them to translated messages. */
export type LiveErrorCode =
  | 'bad_hello'
  | 'unsupported_protocol'
  | 'unknown_key'
  | 'revoked_key'
  | 'not_deployed'
  | 'bad_frame'
  | 'frame_too_large'
  | 'bad_sequence'
  | 'sequence_gap'
  | 'sequence_reused'
  | 'unknown_channel'
  | 'channel_not_announced'
  | 'non_finite_sample'
  | 'out_of_range_sample'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'bad_message'
  | 'server_error';

/** Something was wrong; `seq` names the refused frame, `deviceId` the refused subscription. */
export interface LiveError {
  type: 'error';
  code: LiveErrorCode;
  message: string;
  seq?: number;
  deviceId?: string;
}

export type ServerToDevice = DeviceWelcome | DeviceAck | DeviceEnded | DeviceConfigPush | LiveError;

// ── viewer ⇄ server ────────────────────────────────────────────────────────────────────

/** @public (the wire protocol, documented whole) */
export interface ViewerAuth {
  type: 'auth';
  token: string;
}

/** @public (the wire protocol, documented whole) */
export interface ViewerSubscribe {
  type: 'subscribe';
  deviceId: string;
  /** Resume after this seq (the last one drawn); omitted: newest frames only. */
  fromSeq?: number;
}

/** @public (the wire protocol, documented whole) */
export interface ViewerUnsubscribe {
  type: 'unsubscribe';
  deviceId: string;
}

export type ViewerMessage = ViewerAuth | ViewerSubscribe | ViewerUnsubscribe;

/** @public (the wire protocol, documented whole) */
export interface ViewerReady {
  type: 'ready';
  userId: number;
}

export interface ViewerSubscribed {
  type: 'subscribed';
  deviceId: string;
  /** The live (or latest) recording, readable through the night endpoints; null: none yet. */
  recordingId: number | null;
  patientId: number | null;
  state: DeviceLiveState;
  lastSeq: number;
  channels: { code: string; rate: number; unit: string; t0Ms: number }[];
}

/** @public (the wire protocol, documented whole) */
export interface ViewerState {
  type: 'state';
  deviceId: string;
  state: DeviceLiveState;
  lastFrameMs: number | null;
}

/** Frames (fromSeq..toSeq) were not sent to this viewer; read them from storage. */
export interface ViewerSkipped {
  type: 'skipped';
  deviceId: string;
  fromSeq: number;
  toSeq: number;
}

/** Header of a binary frame to a viewer; samples follow it as in the device frame. */
export interface ViewerFrame {
  type: 'frame';
  deviceId: string;
  recordingId: number;
  seq: number;
  sentMs: number;
  /** `at`: index of the channel's first sample of this frame in the recording (t = t0 + at / rate). */
  channels: { code: string; n: number; at: number }[];
}

export type ServerToViewer = ViewerReady | ViewerSubscribed | ViewerState | ViewerSkipped | LiveError;

// ── binary codec (both sides) ──────────────────────────────────────────────────────────

/** Encodes a header and its channels' samples as one binary message. */
export function encodeFrame(header: object, samples: ArrayLike<number>[]): Uint8Array {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const total = samples.reduce((s, a) => s + a.length, 0);
  const out = new Uint8Array(4 + json.byteLength + total * 4);
  const view = new DataView(out.buffer);
  view.setUint32(0, json.byteLength, true);
  out.set(json, 4);
  let at = 4 + json.byteLength;
  for (const a of samples) {
    for (let i = 0; i < a.length; i++, at += 4) view.setFloat32(at, a[i]!, true);
  }
  return out;
}

/** A binary message split into its parsed header and its float32 samples. */
export interface DecodedFrame {
  header: unknown;
  samples: Float32Array;
}

const utf8 = new TextDecoder();
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

/** Splits a binary message; throws a RangeError naming what is wrong with its layout. */
export function decodeFrame(bytes: Uint8Array, maxHeaderBytes = MAX_HEADER_BYTES): DecodedFrame {
  if (bytes.byteLength < 4) throw new RangeError('frame shorter than its 4-byte header length');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const h = view.getUint32(0, true);
  if (h > maxHeaderBytes || 4 + h > bytes.byteLength) throw new RangeError(`header length ${h} does not fit the frame`);
  if ((bytes.byteLength - 4 - h) % 4 !== 0) throw new RangeError('sample payload is not a whole number of float32 values');
  let header: unknown;
  try {
    header = JSON.parse(utf8.decode(bytes.subarray(4, 4 + h)));
  } catch {
    throw new RangeError('header is not JSON');
  }
  // The samples are little-endian float32: one copy on a little-endian machine (a frame's
  // payload need not start 4-aligned), value by value elsewhere. Uint8Array's own slice: a
  // Node Buffer's is a view into its (shared) pool, not a copy.
  if (LITTLE_ENDIAN) return { header, samples: new Float32Array(Uint8Array.prototype.slice.call(bytes, 4 + h).buffer) };
  const n = (bytes.byteLength - 4 - h) / 4;
  const samples = new Float32Array(n);
  for (let i = 0; i < n; i++) samples[i] = view.getFloat32(4 + h + i * 4, true);
  return { header, samples };
}
