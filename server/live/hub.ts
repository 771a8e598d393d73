import { randomBytes } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Db } from '../db/adapter';
import { fallbackLogger, type Logger } from '../log';
import type { CommittedFrame } from './ingest';
import { encodeFrame, liveState, MAX_CATCH_UP_FRAMES, VIEWER_BUFFER_LIMIT_BYTES, type DeviceLiveState, type ServerToViewer, type ViewerFrame } from '../../contract/live-protocol';

/** NOTIFY channel that carries "frame seq s of device m committed" between server processes. */
const LIVE_CHANNEL = 'nocturne_live';

/**
 * The NOTIFY payload. One notice says which frames of a committed batch: the hub that
 * committed them, their commit time and device/seq pairs, flat ([m, s, m, s, …]); `b`, each
 * frame as viewers get it (base64) where it is small, '' where not. A process with viewers of
 * a device sends the small frames on as they came and reads only the others from the
 * database: one statement for a whole pass, never one for each notice of a busy stream.
 */
interface Notice {
  /** The publishing hub: it has sent these frames to its own viewers already. */
  p?: string;
  c: number;
  f: number[];
  b?: string[];
}

/** A notice's payload stays under PostgreSQL's 8,000 bytes: at most this many characters. */
const NOTICE_MAX_CHARS = 7_000;
/** A frame goes in its notice when its viewers' form is at most this long in base64 (a 200-ms frame of every channel is ~700); a longer one (a backlog's 60 s) is read from the database. */
const INLINE_FRAME_CHARS = 1_500;

/**
 * A batch's notices, in frame order, each under NOTICE_MAX_CHARS: small frames carried whole
 * (`encoded`, their viewers' form), the others by device and seq.
 */
export function noticesOf(origin: string, frames: readonly CommittedFrame[], encoded: readonly Uint8Array[]): string[] {
  const out: string[] = [];
  let notice: Notice | null = null;
  let chars = 0;
  frames.forEach((frame, i) => {
    const bytes = encoded[i]!;
    // Its base64 length known before encoding it: a backlog's frame (tens of KB) is not encoded only to be dropped.
    const carried = 4 * Math.ceil(bytes.byteLength / 3) <= INLINE_FRAME_CHARS ? Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64') : '';
    // Its pair (two numbers of ≤ 16 digits with commas) and its string with quotes and a comma.
    const cost = 34 + carried.length + 3;
    if (!notice || chars + cost > NOTICE_MAX_CHARS) {
      if (notice) out.push(JSON.stringify(notice));
      notice = { p: origin, c: frame.committedMs, f: [], b: [] };
      chars = 80 + origin.length;
    }
    notice.f.push(frame.deviceMasterId, frame.seq);
    notice.b!.push(carried);
    chars += cost;
  });
  if (notice) out.push(JSON.stringify(notice));
  return out;
}

/** Most notices read back in one pass (their frames in one query: up to 10,000). */
const NOTICES_PER_PASS = 40;
/**
 * Passes reading at once. A notice is read as soon as it arrives, not after the pass before
 * has answered: a device's "end" compacts its night and prunes its frames, and on the embedded
 * database (one connection, statements in arrival order) a read asked after the end came was
 * answered after it, without the last frames. Delivered in arrival order whatever order the
 * reads answer in; beyond this many, notices wait and go together in the next pass.
 */
export const PASSES_AT_ONCE = 4;

/** One channel's part of a stored frame, with the frame (live_frames) and its device's id. */
interface FramePartRow {
  device_master_id: number;
  device_id: string;
  seq: number;
  recording_id: number;
  sent_ms: number;
  committed_ms: number;
  layout: CommittedFrame['layout'];
  code: string;
  storage: string;
  scale: number;
  data: Uint8Array;
}

/**
 * Stored frames of live recordings with their samples, in one statement (one snapshot: a
 * frame is read whole or not at all, never its row without the chunks an end compacted
 * meanwhile). `chosen`: a query of (device_master_id, seq) pairs; one row per frame and
 * channel, in device and seq order.
 */
const framesSql = (chosen: string) => `
  select f.device_master_id, d.device_id, f.seq, f.recording_id, f.sent_ms, f.committed_ms, f.layout, c.code, c.storage, c.scale, k.data
  from (${chosen}) as u(m, s)
  join live_frames f on f.device_master_id = u.m and f.seq = u.s
  join recordings r on r.id = f.recording_id
  join devices d on d.device_master_id = f.device_master_id
  join recording_channels c on c.recording_id = f.recording_id
  join recording_chunks k on k.channel_id = c.id and k.seq = f.seq
  where r.recording_meta->>'live' = 'true'
  order by f.device_master_id, f.seq`;

/** A frame of a pass over other processes' notices: carried in its notice (bytes) or read (frame). */
interface PassFrame {
  m: number;
  seq: number;
  committedMs: number;
  bytes?: Uint8Array;
  frame?: CommittedFrame;
}

/** One viewer's subscription to one device. */
interface Subscription {
  socket: WebSocket;
  deviceId: string;
  /** Frames not sent because the socket was full: told to the viewer once it drains. */
  skipped: { from: number; to: number } | null;
  /** The newest frame not sent: sent after the skipped notice once the socket drains. */
  newest: { seq: number; bytes: Uint8Array } | null;
  state: DeviceLiveState | null;
}

const STATE_TICK_MS = 1_000;

const send = (socket: WebSocket, msg: ServerToViewer) => socket.send(JSON.stringify(msg));

/** Physical samples of a stored chunk. */
function physical(data: Uint8Array, storage: string, scale: number): Float32Array {
  const bytes = new Uint8Array(data).buffer;
  if (storage === 'float32') return new Float32Array(bytes);
  const digital = new Int16Array(bytes);
  const out = new Float32Array(digital.length);
  for (let i = 0; i < out.length; i++) out[i] = digital[i]! * scale;
  return out;
}

/**
 * Fan-out in one server process: viewers subscribe per device; every committed frame, on
 * this process or another (LISTEN/NOTIFY), is sent to the device's viewers here. A viewer
 * whose socket holds more than VIEWER_BUFFER_LIMIT_BYTES unsent gets no more frames until
 * it drains, then a "skipped" notice and the newest frame: no queue grows per viewer.
 * Frames committed here reach this process's viewers straight from the committed batch
 * (after the commit, before the NOTIFY); the NOTIFY is for the other processes, and the
 * hub skips its own notices when they come back.
 */
export class LiveHub {
  private readonly subs = new Map<number, Set<Subscription>>();
  private readonly lastFrameMs = new Map<number, number | null>();
  private stopListening: (() => Promise<void>) | null = null;
  /** The NOTIFYs of committed batches, in commit order. */
  private notices: Promise<void> = Promise.resolve();
  /** Other processes' notices not read yet, in arrival order. */
  private readonly queued: Notice[] = [];
  /** Passes reading now (at most PASSES_AT_ONCE). */
  private reading = 0;
  /** The passes' frames to viewers, one pass after another in arrival order. */
  private delivered: Promise<void> = Promise.resolve();
  private timer: NodeJS.Timeout | null = null;
  /** Names this hub in its notices (several hubs may share a process in tests). */
  private readonly origin = randomBytes(6).toString('base64url');

  constructor(
    private readonly db: Db,
    private readonly log: Logger = fallbackLogger(),
  ) {}

  async start(): Promise<void> {
    // Notices are read as they come and delivered one pass after another, so a device's frames reach its viewers in commit order.
    this.stopListening = await this.db.listen(LIVE_CHANNEL, (payload) => {
      this.queued.push(JSON.parse(payload) as Notice);
      this.pump();
    });
    this.timer = setInterval(() => this.tickStates(), STATE_TICK_MS);
    this.timer.unref();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.stopListening?.();
  }

  /**
   * Ingest committed frames here (a batch): send them to this process's viewers at once,
   * then tell every other process in its notices, all in one statement (small frames carried
   * whole: noticesOf). The notices of successive batches go in commit order, one batch's after
   * the one before; this process's viewers never wait for them (they had waited behind the
   * previous batch's NOTIFY round trip).
   */
  published(frames: CommittedFrame[]): Promise<void> {
    // Each frame in its viewers' form once: for the viewers here and for the notices.
    const encoded = frames.map((f) => this.encode(f));
    frames.forEach((f, i) => this.fanOutBytes(f.deviceMasterId, f.seq, f.committedMs, encoded[i]!));
    const payloads = noticesOf(this.origin, frames, encoded);
    // One round trip for all of a batch's notices, after the batch before's.
    const sent = this.notices.then(() => this.db.notify(LIVE_CHANNEL, payloads));
    // A failed NOTIFY is the caller's to report (GroupCommit logs it); the next batch's still go.
    this.notices = sent.catch(() => undefined);
    return sent;
  }

  /** Adds a viewer of a device (access already checked); sends frames after fromSeq first. */
  async subscribe(socket: WebSocket, deviceMasterId: number, deviceId: string, lastFrameMs: number | null, fromSeq?: number): Promise<void> {
    this.lastFrameMs.set(deviceMasterId, lastFrameMs);
    const sub: Subscription = { socket, deviceId, skipped: null, newest: null, state: liveState(lastFrameMs, Date.now()) };
    let set = this.subs.get(deviceMasterId);
    if (!set) this.subs.set(deviceMasterId, (set = new Set()));
    set.add(sub);
    if (fromSeq !== undefined) await this.catchUp(sub, deviceMasterId, fromSeq);
  }

  unsubscribe(socket: WebSocket, deviceMasterId?: number): void {
    for (const [m, set] of this.subs) {
      if (deviceMasterId !== undefined && m !== deviceMasterId) continue;
      for (const sub of set) if (sub.socket === socket) set.delete(sub);
      if (set.size === 0) this.subs.delete(m);
    }
  }

  /**
   * Starts reading the queued notices, up to PASSES_AT_ONCE passes at a time: those that
   * arrived while every pass was reading go together in the next (at most NOTICES_PER_PASS),
   * so a process that fell behind (a busy machine) catches up in a few reads instead of one
   * a notice. Each pass's frames go to the viewers after the pass before's.
   */
  private pump(): void {
    while (this.queued.length > 0 && this.reading < PASSES_AT_ONCE) {
      const notices = this.queued.splice(0, NOTICES_PER_PASS);
      this.reading++;
      const read = this.onNotices(notices).catch((err: Error) => {
        this.log.error(`live fan-out failed: ${err.message}`);
        return [];
      });
      void read.then(() => {
        this.reading--;
        this.pump();
      });
      this.delivered = this.delivered.then(async () => {
        for (const f of await read) this.fanOutBytes(f.m, f.seq, f.committedMs, f.bytes ?? this.encode(f.frame!));
      });
    }
  }

  /**
   * Notices of other processes' batches: their frames of devices watched here, read in one
   * statement (not three queries a frame or a notice), in seq order.
   */
  private async onNotices(notices: Notice[]): Promise<PassFrame[]> {
    const carried: PassFrame[] = [];
    const devices: number[] = [];
    const seqs: number[] = [];
    for (const n of notices) {
      if (n.p === this.origin) continue;
      for (let i = 0; i < n.f.length; i += 2) {
        const m = n.f[i]!;
        const seq = n.f[i + 1]!;
        this.lastFrameMs.set(m, n.c);
        if (!this.subs.get(m)?.size) continue;
        const b = n.b?.[i / 2];
        if (b) carried.push({ m, seq, committedMs: n.c, bytes: Buffer.from(b, 'base64') });
        else {
          devices.push(m);
          seqs.push(seq);
        }
      }
    }
    if (devices.length === 0) return carried;
    const read = this.framesOf(await this.db.query<FramePartRow>(framesSql('select * from unnest($1::int[], $2::bigint[])'), [devices, seqs]));
    // A device's frames in seq order, whether carried or read.
    return [...carried, ...read.map((frame) => ({ m: frame.deviceMasterId, seq: frame.seq, committedMs: frame.committedMs, frame }))].sort((a, b) => a.m - b.m || a.seq - b.seq);
  }

  /** A committed frame, in its viewers' form, to the device's viewers in this process. */
  private fanOutBytes(deviceMasterId: number, seq: number, committedMs: number, bytes: Uint8Array): void {
    this.lastFrameMs.set(deviceMasterId, committedMs);
    const set = this.subs.get(deviceMasterId);
    if (!set) return;
    for (const sub of set) this.deliver(sub, seq, bytes);
  }

  private encode(frame: CommittedFrame): Uint8Array {
    const header: ViewerFrame = {
      type: 'frame',
      deviceId: frame.deviceId,
      recordingId: frame.recordingId,
      seq: frame.seq,
      sentMs: frame.sentMs,
      channels: Object.entries(frame.layout).map(([code, [at, n]]) => ({ code, n, at })),
    };
    return encodeFrame(header, frame.values);
  }

  private deliver(sub: Subscription, seq: number, bytes: Uint8Array): void {
    if (sub.socket.readyState !== sub.socket.OPEN) return;
    if (sub.socket.bufferedAmount > VIEWER_BUFFER_LIMIT_BYTES) {
      // Only the newest skipped frame is kept: one frame per subscription, however slow the viewer.
      if (sub.newest) sub.skipped = { from: sub.skipped?.from ?? sub.newest.seq, to: sub.newest.seq };
      sub.newest = { seq, bytes };
      return;
    }
    if (sub.skipped) {
      send(sub.socket, { type: 'skipped', deviceId: sub.deviceId, fromSeq: sub.skipped.from, toSeq: sub.skipped.to });
      sub.skipped = null;
    }
    if (sub.newest && sub.newest.seq < seq) sub.socket.send(sub.newest.bytes);
    sub.newest = null;
    sub.socket.send(bytes);
  }

  /** A viewer that fell behind and has drained gets the skipped notice and the newest frame. */
  private flushDrained(sub: Subscription): void {
    if (!sub.newest || sub.socket.readyState !== sub.socket.OPEN || sub.socket.bufferedAmount > VIEWER_BUFFER_LIMIT_BYTES) return;
    const { seq, bytes } = sub.newest;
    sub.newest = null;
    this.deliver(sub, seq, bytes);
  }

  private async catchUp(sub: Subscription, deviceMasterId: number, fromSeq: number): Promise<void> {
    const frames = await this.loadFrames(deviceMasterId, fromSeq, MAX_CATCH_UP_FRAMES);
    if (frames.length && frames[0]!.seq > fromSeq + 1) {
      send(sub.socket, { type: 'skipped', deviceId: sub.deviceId, fromSeq: fromSeq + 1, toSeq: frames[0]!.seq - 1 });
    }
    for (const f of frames) this.deliver(sub, f.seq, this.encode(f));
  }

  /**
   * The newest `limit` frames of a device after seq `after`, oldest first, from the database:
   * of live recordings only (an ended night's chunks are compacted; it is read as a night).
   */
  private async loadFrames(deviceMasterId: number, after: number, limit: number): Promise<CommittedFrame[]> {
    const chosen = `select device_master_id, seq from (select f.device_master_id, f.seq from live_frames f join recordings r on r.id = f.recording_id
       where f.device_master_id = $1 and f.seq > $2 and r.recording_meta->>'live' = 'true' order by f.seq desc limit $3) newest`;
    return this.framesOf(await this.db.query<FramePartRow>(framesSql(chosen), [deviceMasterId, after, limit]));
  }

  /** Frames from their channels' rows (framesSql), in the rows' order, each channel's samples where its layout puts them. */
  private framesOf(rows: FramePartRow[]): CommittedFrame[] {
    const frames: CommittedFrame[] = [];
    for (let i = 0; i < rows.length; ) {
      const r = rows[i]!;
      const parts = new Map<string, FramePartRow>();
      for (; i < rows.length && rows[i]!.device_master_id === r.device_master_id && rows[i]!.seq === r.seq; i++) parts.set(rows[i]!.code, rows[i]!);
      frames.push({
        deviceMasterId: r.device_master_id,
        deviceId: r.device_id,
        recordingId: r.recording_id,
        seq: r.seq,
        sentMs: r.sent_ms,
        committedMs: r.committed_ms,
        layout: r.layout,
        values: Object.keys(r.layout).map((code) => {
          const c = parts.get(code);
          if (!c) throw new Error(`frame ${r.seq} of device ${r.device_master_id}: no stored samples of ${code}`);
          return physical(c.data, c.storage, c.scale);
        }),
      });
    }
    return frames;
  }

  /** Tells viewers when a device turns stalled or offline (or streams again); flushes drained viewers. */
  private tickStates(now = Date.now()): void {
    for (const [m, set] of this.subs) {
      const last = this.lastFrameMs.get(m) ?? null;
      const state = liveState(last, now);
      for (const sub of set) {
        this.flushDrained(sub);
        if (sub.state === state || sub.socket.readyState !== sub.socket.OPEN) continue;
        sub.state = state;
        send(sub.socket, { type: 'state', deviceId: sub.deviceId, state, lastFrameMs: last });
      }
    }
  }
}
