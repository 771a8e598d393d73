// The viewer's side of /api/v1/stream (contract/live-protocol.ts): one reconnecting socket,
// the session token in the first message, subscriptions renewed after every reconnect with
// the last seq seen so the server resends what was missed (older gaps: "skipped", read
// from storage by the caller).
import ReconnectingWebSocket from 'reconnecting-websocket';
import {
  CLOSE, decodeFrame, VIEWER_SOCKET_PATH, type DeviceLiveState, type LiveError, type ServerToViewer,
  type ViewerFrame, type ViewerSkipped, type ViewerSubscribed,
} from '../../../contract/live-protocol';
import { API_BASE } from '../../config';

/** The socket's own state, apart from any device's. */
export type ConnectionState = 'connecting' | 'open' | 'closed';

/** One decoded frame: its header and each channel's samples. */
export interface LiveFrame {
  header: ViewerFrame;
  channels: { code: string; at: number; samples: Float32Array }[];
}

export interface StreamListener {
  subscribed?(msg: ViewerSubscribed): void;
  frame?(frame: LiveFrame): void;
  state?(deviceId: string, state: DeviceLiveState, lastFrameMs: number | null): void;
  skipped?(msg: ViewerSkipped): void;
  error?(msg: LiveError): void;
}

/** Where the stream socket is for this page's origin. */
function streamUrl(origin: string = window.location.origin): string {
  return `${origin.replace(/^http/, 'ws')}${API_BASE}${VIEWER_SOCKET_PATH}`;
}

/** Splits a binary viewer frame into its channels. */
function splitFrame(bytes: ArrayBuffer): LiveFrame {
  const { header, samples } = decodeFrame(new Uint8Array(bytes));
  const h = header as ViewerFrame;
  let offset = 0;
  const channels = h.channels.map((c) => {
    const part = samples.subarray(offset, offset + c.n);
    offset += c.n;
    return { code: c.code, at: c.at, samples: part };
  });
  return { header: h, channels };
}

/** Frames remembered per device to drop a resent one (about 7 minutes of frames). */
const SEEN_FRAMES = 2_000;

export class LiveStream {
  private readonly socket: ReconnectingWebSocket;
  /** Device → last seq received (-1: none yet, undefined: newest only). */
  private readonly devices = new Map<string, number | undefined>();
  private readonly listeners = new Map<string, Set<StreamListener>>();
  /** Device → seqs already delivered (the newest few thousand): a resume may resend some. */
  private readonly seen = new Map<string, Set<number>>();
  private readonly connectionListeners = new Set<(state: ConnectionState) => void>();
  connection: ConnectionState = 'connecting';
  private ready = false;

  /** `WebSocket`: the class to connect with where there is no global one (Node 20 in tests). */
  constructor(private readonly token: () => string | null, url = streamUrl(), WebSocket?: unknown) {
    this.socket = new ReconnectingWebSocket(url, [], { minReconnectionDelay: 250, maxReconnectionDelay: 5_000, reconnectionDelayGrowFactor: 2, ...(WebSocket ? { WebSocket } : {}) });
    this.socket.binaryType = 'arraybuffer';
    this.socket.addEventListener('open', () => this.socket.send(JSON.stringify({ type: 'auth', token: this.token() ?? '' })));
    this.socket.addEventListener('close', (event) => {
      this.ready = false;
      this.setConnection('closed');
      // Refused (token ended, annotator): trying again would be refused again.
      if (event.code === CLOSE.unauthorized || event.code === CLOSE.forbidden) this.socket.close();
    });
    this.socket.addEventListener('message', (event) => this.onMessage(event.data as string | ArrayBuffer));
  }

  /** Watches a device: its frames, states and errors go to `listener` until the returned function is called. */
  watch(deviceId: string, listener: StreamListener): () => void {
    let set = this.listeners.get(deviceId);
    if (!set) {
      set = new Set();
      this.listeners.set(deviceId, set);
      this.devices.set(deviceId, undefined);
      if (this.ready) this.subscribe(deviceId);
    }
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size > 0) return;
      this.listeners.delete(deviceId);
      this.devices.delete(deviceId);
      this.seen.delete(deviceId);
      if (this.ready) this.socket.send(JSON.stringify({ type: 'unsubscribe', deviceId }));
    };
  }

  onConnection(fn: (state: ConnectionState) => void): () => void {
    this.connectionListeners.add(fn);
    fn(this.connection);
    return () => this.connectionListeners.delete(fn);
  }

  /** Asks again for a device (after a new recording began: its channels and t0 are new). */
  resubscribe(deviceId: string): void {
    if (this.ready) this.subscribe(deviceId);
  }

  close(): void {
    this.socket.close();
  }

  private subscribe(deviceId: string): void {
    const fromSeq = this.devices.get(deviceId);
    this.socket.send(JSON.stringify({ type: 'subscribe', deviceId, ...(fromSeq === undefined ? {} : { fromSeq }) }));
  }

  /** True when this frame was delivered before (the catch-up after a resume and the live fan-out can overlap). */
  private delivered(deviceId: string, seq: number): boolean {
    let set = this.seen.get(deviceId);
    if (!set) this.seen.set(deviceId, (set = new Set()));
    if (set.has(seq)) return true;
    set.add(seq);
    if (set.size > SEEN_FRAMES) for (const old of set) if (old < seq - SEEN_FRAMES) set.delete(old);
    return false;
  }

  private setConnection(state: ConnectionState): void {
    this.connection = state;
    for (const fn of this.connectionListeners) fn(state);
  }

  private each(deviceId: string | undefined, fn: (l: StreamListener) => void): void {
    const targets = deviceId === undefined ? [...this.listeners.values()].flatMap((s) => [...s]) : [...(this.listeners.get(deviceId) ?? [])];
    for (const l of targets) fn(l);
  }

  private onMessage(data: string | ArrayBuffer): void {
    if (typeof data !== 'string') {
      const frame = splitFrame(data);
      const id = frame.header.deviceId;
      if (!this.devices.has(id) || this.delivered(id, frame.header.seq)) return;
      this.devices.set(id, Math.max(this.devices.get(id) ?? -1, frame.header.seq));
      return this.each(id, (l) => l.frame?.(frame));
    }
    const msg = JSON.parse(data) as ServerToViewer;
    if (msg.type === 'ready') {
      this.ready = true;
      this.setConnection('open');
      for (const id of this.devices.keys()) this.subscribe(id);
    } else if (msg.type === 'subscribed') {
      if (this.devices.get(msg.deviceId) === undefined) this.devices.set(msg.deviceId, msg.lastSeq);
      this.each(msg.deviceId, (l) => l.subscribed?.(msg));
    } else if (msg.type === 'state') this.each(msg.deviceId, (l) => l.state?.(msg.deviceId, msg.state, msg.lastFrameMs));
    else if (msg.type === 'skipped') this.each(msg.deviceId, (l) => l.skipped?.(msg));
    else if (msg.type === 'error') this.each(msg.deviceId, (l) => l.error?.(msg));
  }
}
