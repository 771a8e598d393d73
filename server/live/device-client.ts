import WebSocket from 'ws';
import type { ChannelData } from '../recordings/model';
import { DEFAULT_CONFIG } from './device-config';
import { encodeFrame, FRAME_INTERVAL_MS, HEARTBEAT_MS, LIVE_CHANNELS, LIVE_PROTOCOL, type FrameHeader, type LiveChannelCode, type ServerToDevice } from '../../contract/live-protocol';

/** What a simulated device streams: the channels of a simulated night that are live channels. */
export function liveSource(channels: readonly ChannelData[]): ChannelData[] {
  return channels.filter((c) => c.code in LIVE_CHANNELS);
}

export interface DeviceClientOptions {
  /** Base URL of the server (http://… or ws://…). */
  server: string;
  deviceId: string;
  key: string;
  source: ChannelData[];
  /** Data time per wall time: 1 streams in real time, 60 a minute a second. */
  speed?: number;
  sessionStartMs?: number;
  /**
   * Offset of the frame ticks (ms, 0 to the frame interval): they run at phase + k × the
   * interval from start() (k ≥ 1). Devices at separate
   * bedsides tick on their own clocks; N devices run by one process are spread over the
   * interval by their callers instead of all sending in the same millisecond.
   */
  phaseMs?: number;
  log?: (line: string) => void;
}

/**
 * Whether a simulated device can run a configuration: it samples each channel at its
 * source's rate and has no other channels. Returns why not, or null.
 */
function configRefusal(source: readonly ChannelData[], config: Record<string, unknown>): string | null {
  const channels = (config.channels ?? {}) as Record<string, number>;
  for (const [code, rate] of Object.entries(channels)) {
    const c = source.find((s) => s.code === code);
    if (!c) return `this device has no ${code} channel`;
    if (c.sampleRate !== rate) return `this device samples ${code} at ${c.sampleRate} Hz only`;
  }
  return null;
}

/** Most data time one frame carries (ms): a backlog after live streaming was off goes in frames of this much. */
const MAX_FRAME_DATA_MS = 60_000;

const BACKOFF_MIN_MS = 250;
const BACKOFF_MAX_MS = 10_000;

/**
 * A simulated bedside device: sends frames every 200 ms, keeps each until the server acks it,
 * resends what is unacknowledged after every reconnect (with exponential back-off), so
 * nothing is lost or duplicated. Resolves `done` once the whole source was acknowledged
 * and the server ended the recording.
 */
export class DeviceClient {
  readonly pending = new Map<number, { bytes: Uint8Array; firstSentMs: number }>();
  /** Ack latency of every acknowledged frame (ms from first send to ack). */
  readonly ackMs: number[] = [];
  /** When each of ackMs was received (epoch ms, same order). */
  readonly ackAtMs: number[] = [];
  /** When the server first welcomed this device (epoch ms), or null. */
  welcomedAtMs: number | null = null;
  readonly errors: { code: string; message: string; seq?: number }[] = [];
  recordingId: number | null = null;
  connects = 0;
  /** The configuration the device runs (the last one it applied) and its version; null: the factory one (DEFAULT_CONFIG). */
  config: { version: number; config: Record<string, unknown> } | null = null;
  /**
   * Channels of this session (announced in every hello of it): those of the configuration it
   * ran when the session began. A channel the configuration turns off stops at once; one it
   * turns on begins with the next session (a channel's samples start at the session's start).
   */
  readonly sessionChannels: ChannelData[];
  /** Channels it sends now: the session's that its configuration has on. */
  streamingChannels: ChannelData[];
  /** Live streaming on: false sends no frames (heartbeats only); samples made meanwhile follow once it is on again. */
  streaming = true;
  private streamedMs = 0;
  private lastHeartbeatMs = 0;
  private socket: WebSocket | null = null;
  /** The current socket got its welcome: new frames may follow the resent ones. */
  private ready = false;
  private nextSeq = -1;
  private firstSeq = -1;
  private readonly sent = new Map<string, number>();
  private dataMs = 0;
  private timer: NodeJS.Timeout | null = null;
  private backoff = BACKOFF_MIN_MS;
  private stopped = false;
  private finished = false;
  private readonly startMs: number;
  private resolveDone!: () => void;
  private rejectDone!: (err: Error) => void;
  /** Settles when the night is over and acknowledged, or fails when the server refuses the device for good. */
  readonly done: Promise<void> = new Promise((resolve, reject) => {
    this.resolveDone = resolve;
    this.rejectDone = reject;
  });

  constructor(private readonly opts: DeviceClientOptions) {
    this.startMs = opts.sessionStartMs ?? opts.source[0]?.t0 ?? Date.now();
    this.sessionChannels = opts.source.filter((c) => c.code in DEFAULT_CONFIG.channels);
    this.streamingChannels = this.sessionChannels;
  }

  /** Runs an applied configuration: its channels (of this session's) and live streaming on or off. */
  private apply(config: Record<string, unknown>): void {
    const on = (config.channels ?? {}) as Record<string, number>;
    this.streamingChannels = this.sessionChannels.filter((c) => c.code in on);
    this.streaming = config.live_streaming !== false;
  }

  private get url(): string {
    return `${this.opts.server.replace(/^http/, 'ws').replace(/\/$/, '')}/api/v1/device/live`;
  }

  start(): void {
    this.connect();
    const phase = Math.max(0, Math.min(FRAME_INTERVAL_MS, this.opts.phaseMs ?? 0));
    if (phase === 0) this.timer = setInterval(() => this.tick(), FRAME_INTERVAL_MS);
    else {
      this.timer = setTimeout(() => {
        if (this.stopped) return;
        this.timer = setInterval(() => this.tick(), FRAME_INTERVAL_MS);
      }, phase);
    }
  }

  /** Samples made so far over every channel. */
  get samplesMade(): number {
    let n = 0;
    for (const v of this.sent.values()) n += v;
    return n;
  }

  /** Frames made so far (acknowledged or not). */
  get framesMade(): number {
    return this.firstSeq < 0 ? 0 : this.nextSeq - this.firstSeq;
  }

  /** Ends the night now: no more frames; `done` settles once every frame is acknowledged. */
  finish(): void {
    this.finished = true;
    this.checkDone();
  }

  /** Stops sending and closes the connection (pending frames are kept in memory only). */
  stop(): void {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    this.socket?.close();
  }

  /** Drops the connection as a network failure would; the client reconnects by itself. */
  dropConnection(): void {
    this.socket?.terminate();
  }

  private connect(): void {
    if (this.stopped) return;
    const socket = new WebSocket(this.url);
    this.socket = socket;
    socket.on('open', () => {
      const channels = this.sessionChannels.map((c) => c.code as LiveChannelCode);
      socket.send(JSON.stringify({ type: 'hello', protocol: LIVE_PROTOCOL, deviceId: this.opts.deviceId, key: this.opts.key, sessionStartMs: this.startMs, channels }));
    });
    socket.on('message', (data, isBinary) => {
      if (!isBinary) this.onMessage(JSON.parse(data.toString()) as ServerToDevice);
    });
    socket.on('error', () => undefined);
    socket.on('close', (code) => {
      if (this.socket === socket) {
        this.socket = null;
        this.ready = false;
      }
      if (this.stopped || code === 4401 || code === 4403) return;
      setTimeout(() => this.connect(), this.backoff * (0.5 + Math.random()));
      this.backoff = Math.min(BACKOFF_MAX_MS, this.backoff * 2);
    });
  }

  private onMessage(msg: ServerToDevice): void {
    if (msg.type === 'welcome') {
      this.connects++;
      this.welcomedAtMs ??= Date.now();
      this.backoff = BACKOFF_MIN_MS;
      this.recordingId = msg.recordingId;
      for (const seq of this.pending.keys()) if (seq <= msg.lastSeq) this.pending.delete(seq);
      if (this.nextSeq <= msg.lastSeq) this.nextSeq = msg.lastSeq + 1;
      if (this.firstSeq < 0) this.firstSeq = this.nextSeq;
      for (const [, f] of this.pending) this.socket?.send(f.bytes);
      this.ready = true;
      this.checkDone();
    } else if (msg.type === 'ack') {
      const f = this.pending.get(msg.seq);
      if (f) {
        const now = Date.now();
        this.ackMs.push(now - f.firstSentMs);
        this.ackAtMs.push(now);
      }
      this.pending.delete(msg.seq);
      this.checkDone();
    } else if (msg.type === 'config') {
      const reason = configRefusal(this.opts.source, msg.config);
      if (!reason) {
        this.config = { version: msg.version, config: msg.config };
        this.apply(msg.config);
      }
      this.opts.log?.(`${this.opts.deviceId}: configuration version ${msg.version} ${reason ? `refused: ${reason}` : 'applied'}`);
      // Applied, but a channel this session does not have starts with the next one: said in the ack.
      const later = reason ? [] : Object.keys((msg.config.channels ?? {}) as object).filter((code) => !this.sessionChannels.some((c) => c.code === code));
      const note = reason ?? (later.length ? `${later.join(', ')} start${later.length === 1 ? 's' : ''} with the next recording` : null);
      this.socket?.send(JSON.stringify({ type: 'config-ack', version: msg.version, applied: !reason, ...(note ? { reason: note } : {}) }));
    } else if (msg.type === 'ended') {
      this.stopped = true;
      if (this.timer) clearInterval(this.timer);
      this.socket?.close();
      this.resolveDone();
    } else if (msg.type === 'error') {
      this.errors.push({ code: msg.code, message: msg.message, seq: msg.seq });
      this.opts.log?.(`${this.opts.deviceId}: server refused ${msg.seq === undefined ? 'the connection' : `frame ${msg.seq}`}: ${msg.code}: ${msg.message}`);
      // Out of order: reconnect and resend in order. Any other refused frame would be refused again: dropped.
      if (msg.code === 'sequence_gap') this.socket?.terminate();
      else if (msg.seq !== undefined) this.pending.delete(msg.seq);
      if (msg.code === 'unknown_key' || msg.code === 'revoked_key' || msg.code === 'not_deployed') {
        this.stop();
        this.rejectDone(new Error(`${this.opts.deviceId}: ${msg.code}: ${msg.message}`));
      }
    }
  }

  /** Every frame acknowledged at the end of the night: ends the session (answered with "ended"). */
  private checkDone(): void {
    if (this.finished && this.pending.size === 0 && this.ready) this.socket?.send(JSON.stringify({ type: 'end' }));
  }

  /**
   * The next frame's samples: each streaming channel up to where data time has reached (at
   * most MAX_FRAME_DATA_MS of it a frame). With live streaming off, data time goes on (the
   * device records) but nothing is sent except a heartbeat every HEARTBEAT_MS.
   */
  private tick(): void {
    if (this.nextSeq < 0 || this.finished) return;
    this.dataMs += FRAME_INTERVAL_MS * (this.opts.speed ?? 1);
    if (!this.streaming) {
      const now = Date.now();
      if (this.ready && now - this.lastHeartbeatMs >= HEARTBEAT_MS && this.socket?.readyState === WebSocket.OPEN) {
        this.lastHeartbeatMs = now;
        this.socket.send(JSON.stringify({ type: 'heartbeat' }));
      }
      return;
    }
    this.streamedMs = Math.min(this.dataMs, this.streamedMs + MAX_FRAME_DATA_MS);
    const header: FrameHeader = { seq: this.nextSeq, sentMs: Date.now(), channels: [] };
    const values: Float32Array[] = [];
    let left = false;
    for (const c of this.streamingChannels) {
      const from = this.sent.get(c.code) ?? 0;
      const to = Math.min(c.samples.length, Math.floor((this.streamedMs * c.sampleRate) / 1000));
      if (to < c.samples.length) left = true;
      const out = new Float32Array(Math.max(0, to - from));
      for (let i = 0; i < out.length; i++) out[i] = c.samples[from + i]! * c.scale + c.offset;
      this.sent.set(c.code, Math.max(from, to));
      header.channels.push({ code: c.code, n: out.length });
      values.push(out);
    }
    const bytes = encodeFrame(header, values);
    this.pending.set(this.nextSeq++, { bytes, firstSentMs: header.sentMs });
    if (this.ready && this.socket?.readyState === WebSocket.OPEN) this.socket.send(bytes);
    if (!left) {
      this.finished = true;
      this.checkDone();
    }
  }
}
