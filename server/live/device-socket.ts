import '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { AppContext } from '../context';
import { isDatabaseOutage } from '../errors';
import { FrameError, validateFrame } from './frames';
import type { LiveHub } from './hub';
import { closeOfflineSessions, endSession, heardFrom, openSession, pruneFrames, SessionAlreadyEnded, SessionClosed, SessionError, type LiveSession } from './ingest';
import { GroupCommit } from './group-commit';
import { Gate } from './gate';
import { checkDeviceKey, onKeysChanged } from './keys';
import type { ConfigPush } from './config-push';
import { CLOSE, DEVICE_SOCKET_PATH, OFFLINE_AFTER_MS, LIVE_CHANNELS, LIVE_PROTOCOL, MAX_FRAME_BYTES, type DeviceHello, type LiveErrorCode, type ServerToDevice } from '../../contract/live-protocol';

/** A device must say hello within this long after connecting (ms). */
const HELLO_TIMEOUT_MS = 10_000;
/** How often offline nights are closed and old frames pruned (ms). */
const SWEEP_MS = 10_000;
/** Frames a connection may have waiting for their commit before it is refused as flooding. */
const MAX_PENDING_FRAMES = 2_000;
/**
 * Device session work (hello, heartbeat, config-ack, end) in flight at once per process: the
 * database pool holds 10 connections and the group commit, fan-out and HTTP requests need
 * theirs while 1,000 devices say hello at once.
 */
const SESSION_WORK_AT_ONCE = 4;

const reply = (socket: WebSocket, msg: ServerToDevice) => socket.send(JSON.stringify(msg));
const refuse = (socket: WebSocket, code: LiveErrorCode, message: string, close: number) => {
  reply(socket, { type: 'error', code, message });
  socket.close(close, code);
};

/** Bad messages after which a device's connection is closed (each gets an error frame). */
const MAX_BAD_MESSAGES = 20;
const EARLIEST_SESSION_MS = Date.UTC(2000, 0, 1);

/** The hello's fields, or a message naming the first one that is wrong. */
function readHello(raw: string): DeviceHello | string {
  let msg: Partial<DeviceHello>;
  try {
    msg = JSON.parse(raw) as Partial<DeviceHello>;
  } catch {
    return 'the first message must be a JSON hello';
  }
  if (msg?.type !== 'hello') return 'the first message must be { type: "hello" }';
  if (msg.protocol !== LIVE_PROTOCOL) return `protocol must be ${LIVE_PROTOCOL}`;
  if (typeof msg.deviceId !== 'string' || !/^\w{1,40}$/.test(msg.deviceId)) return 'deviceId must be the device serial';
  if (typeof msg.key !== 'string' || msg.key.length < 8 || msg.key.length > 200) return 'key is missing';
  // A time a night can have: after 2000-01-01 and at most a day ahead of this server's clock.
  if (typeof msg.sessionStartMs !== 'number' || !Number.isSafeInteger(msg.sessionStartMs) || msg.sessionStartMs < EARLIEST_SESSION_MS || msg.sessionStartMs > Date.now() + 86_400_000) {
    return 'sessionStartMs must be a time in ms (UTC), not in the future';
  }
  if (!Array.isArray(msg.channels) || msg.channels.length === 0) return 'channels must list the channels the device sends';
  const unknown = msg.channels.find((c) => typeof c !== 'string' || !(c in LIVE_CHANNELS));
  if (unknown !== undefined) return `unknown channel "${String(unknown)}"`;
  return msg as DeviceHello;
}

/** The devices connected to this process, so a reconnecting device replaces its old socket. */
const connected = new Map<number, WebSocket>();

async function startSession(ctx: AppContext, socket: WebSocket, hello: DeviceHello): Promise<LiveSession | null> {
  const check = await checkDeviceKey(ctx.db, hello.deviceId, hello.key);
  if (!check.ok) {
    refuse(socket, check.code, check.code === 'revoked_key' ? 'This device key was revoked.' : 'Unknown device or key.', CLOSE.unauthorized);
    return null;
  }
  try {
    const session = await openSession(ctx.db, check.device, hello.sessionStartMs, [...new Set(hello.channels)]);
    connected.get(check.device.deviceMasterId)?.close(CLOSE.replaced, 'replaced');
    connected.set(check.device.deviceMasterId, socket);
    reply(socket, { type: 'welcome', lastSeq: session.lastSeq, recordingId: session.recordingId, maxFrameBytes: MAX_FRAME_BYTES });
    return session;
  } catch (err) {
    if (err instanceof SessionAlreadyEnded) {
      // Said again, as after its "end": the device stops (its reply was lost with the connection).
      reply(socket, { type: 'ended', recordingId: err.recordingId });
      socket.close(1000, 'session ended');
      return null;
    }
    if (!(err instanceof SessionError)) throw err;
    refuse(socket, err.code, err.message, CLOSE.forbidden);
    return null;
  }
}

async function ingest(log: FastifyBaseLogger, batches: GroupCommit, socket: WebSocket, session: LiveSession, data: Uint8Array): Promise<void> {
  try {
    const frame = validateFrame(data, session.channels);
    const result = await batches.commit(session, frame);
    reply(socket, { type: 'ack', seq: frame.seq, ...(result.duplicate ? { duplicate: true } : {}) });
  } catch (err) {
    if (err instanceof SessionClosed) return socket.close(1012, 'session closed; reconnect');
    if (err instanceof FrameError) return reply(socket, { type: 'error', code: err.code, message: err.message, ...(err.seq !== undefined ? { seq: err.seq } : {}) });
    // No ack: the device keeps the frame and resends it after it reconnects.
    log.error(`live ingest of ${session.device.deviceId} failed: ${(err as Error).message}`);
    socket.close(isDatabaseOutage(err) ? 1013 : 1011, 'ingest failed');
  }
}

function onDeviceSocket(ctx: AppContext, batches: GroupCommit, gate: Gate, push: ConfigPush, socket: WebSocket, log: FastifyBaseLogger): void {
  let session: LiveSession | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  let pending = 0;
  let badMessages = 0;
  /** Frames queued for a group commit: not awaited in the chain, so a backlog goes in few batches. */
  const inFlight = new Set<Promise<void>>();
  const helloTimer = setTimeout(() => refuse(socket, 'bad_hello', 'No hello received.', CLOSE.badHello), HELLO_TIMEOUT_MS);
  const run = (task: () => Promise<unknown>) => {
    pending++;
    chain = chain.then(task).catch((err: Error) => {
      log.error(`live device connection failed: ${err.message}`);
      socket.close(1011, 'server error');
    }).finally(() => pending--);
  };
  socket.on('message', (raw: RawData, isBinary: boolean) => {
    const bytes = Array.isArray(raw) ? Buffer.concat(raw) : Buffer.isBuffer(raw) ? raw : Buffer.from(raw);
    if (pending >= MAX_PENDING_FRAMES) return refuse(socket, 'bad_frame', 'Too many frames waiting; slow down.', 1008);
    if (!session && pending === 0) {
      if (isBinary) return refuse(socket, 'bad_hello', 'the first message must be a JSON hello, not a frame', CLOSE.badHello);
      clearTimeout(helloTimer);
      const hello = readHello(bytes.toString('utf8'));
      if (typeof hello === 'string') return refuse(socket, 'bad_hello', hello, CLOSE.badHello);
      return run(() =>
        gate.run(async () => {
          if (socket.readyState !== socket.OPEN) return;
          session = await startSession(ctx, socket, hello);
          if (session) await push.attach(session.device.deviceMasterId, socket);
        }),
      );
    }
    run(async () => {
      if (!session) return;
      if (isBinary) {
        pending++;
        const p = ingest(log, batches, socket, session, new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)).finally(() => {
          pending--;
          inFlight.delete(p);
        });
        inFlight.add(p);
        return;
      }
      let msg: { type?: string; version?: unknown; applied?: unknown; reason?: unknown };
      try {
        msg = JSON.parse(bytes.toString('utf8')) as typeof msg;
      } catch {
        msg = {};
      }
      if (!msg || typeof msg !== 'object' || !['heartbeat', 'config-ack', 'end'].includes(String(msg.type))) {
        // A bad message costs the sender: an error frame, one log line for the connection, closed after a few.
        if (++badMessages === 1) log.warn(`live device ${session.device.deviceId}: bad message refused (${bytes.length} bytes)`);
        if (badMessages >= MAX_BAD_MESSAGES) return refuse(socket, 'bad_frame', 'Too many bad messages.', 1008);
        return reply(socket, { type: 'error', code: 'bad_frame', message: 'text messages after the hello are heartbeat, config-ack or end (JSON)' });
      }
      const s = session;
      if (msg.type === 'heartbeat') await gate.run(() => heardFrom(ctx.db, s.device.deviceMasterId));
      if (msg.type === 'config-ack') await gate.run(() => push.acknowledged(s.device.deviceMasterId, msg));
      if (msg.type === 'end') {
        await Promise.all(inFlight);
        await gate.run(() => endSession(ctx.db, s));
        reply(socket, { type: 'ended', recordingId: s.recordingId });
      }
    });
  });
  socket.on('close', () => {
    clearTimeout(helloTimer);
    if (session && connected.get(session.device.deviceMasterId) === socket) connected.delete(session.device.deviceMasterId);
  });
}

/** The devices' WebSocket: a device key in the hello, frames acknowledged once committed. */
export async function deviceSocketRoute(app: FastifyInstance, ctx: AppContext, hub: LiveHub, push: ConfigPush): Promise<void> {
  const log = app.log.child({ module: 'live' });
  const batches = new GroupCommit(ctx.db.live(), (frames) => hub.published(frames), undefined, undefined, log);
  const gate = new Gate(SESSION_WORK_AT_ONCE);
  // Every SWEEP_MS: close the nights of devices gone offline without "end", prune frames no longer needed.
  let sweeping = false;
  const sweeper = setInterval(() => {
    if (sweeping) return;
    sweeping = true;
    void closeOfflineSessions(ctx.db, OFFLINE_AFTER_MS)
      .then(() => pruneFrames(ctx.db))
      .catch((err: Error) => { if (!isDatabaseOutage(err)) log.error(`live sweep failed: ${err.message}`); })
      .finally(() => (sweeping = false));
  }, SWEEP_MS);
  sweeper.unref();
  app.addHook('onClose', async () => clearInterval(sweeper));
  app.get(DEVICE_SOCKET_PATH, { websocket: true }, (socket, request) => onDeviceSocket(ctx, batches, gate, push, socket, request.log));
  // Keys issued or revoked: the device's connection here (if any) must show a valid key again.
  const stop = await onKeysChanged(ctx.db, (deviceMasterId) => {
    const socket = connected.get(deviceMasterId);
    if (socket) refuse(socket, 'revoked_key', 'This device key was revoked.', CLOSE.unauthorized);
  });
  app.addHook('onClose', stop);
}
