import '@fastify/websocket';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { AppContext } from '../context';
import { checkSession, onSessionsEnded, sessionValidUntil } from '../auth/tokens';
import type { UserRow } from '../auth/users';
import type { LiveHub } from './hub';
import { practiceDevice } from './practice';
import { liveChannels } from './repository';
import { CLOSE, liveState, VIEWER_SOCKET_PATH, type LiveErrorCode, type ServerToViewer, type ViewerMessage } from '../../contract/live-protocol';

const AUTH_TIMEOUT_MS = 10_000;
/** A viewer's session is checked again at its expiry and at least this often (a user disabled meanwhile) (ms). */
const SESSION_RECHECK_MS = 60_000;

/** Open viewer sockets by session: a sign-out (NOTIFY) checks theirs at once. */
const bySession = new Map<number, Set<{ userId: number; recheck: () => void }>>();

const send = (socket: WebSocket, msg: ServerToViewer) => socket.send(JSON.stringify(msg));
const fail = (socket: WebSocket, code: LiveErrorCode, message: string, deviceId?: string) => send(socket, { type: 'error', code, message, ...(deviceId ? { deviceId } : {}) });

async function authenticateViewer(ctx: AppContext, token: unknown): Promise<{ user: UserRow; tokenId: number } | null> {
  if (typeof token !== 'string' || token.length > 200) return null;
  const session = await checkSession(ctx.db, token);
  return session && session.user.status === 'active' ? session : null;
}

/**
 * Keeps checking an authenticated viewer's session: at its expiry (idle or absolute), every
 * SESSION_RECHECK_MS, and at once when a sign-out or revocation is announced. Once it is
 * over, the viewer gets an error and the socket closes (4401). Returns the stop function.
 */
function watchSession(ctx: AppContext, socket: WebSocket, tokenId: number, userId: number): () => void {
  let timer: NodeJS.Timeout | null = null;
  let stopped = false;
  const entry = { userId, recheck: () => void check() };
  const stop = () => {
    stopped = true;
    if (timer) clearTimeout(timer);
    const set = bySession.get(tokenId);
    set?.delete(entry);
    if (set?.size === 0) bySession.delete(tokenId);
  };
  const check = async () => {
    if (stopped) return;
    if (timer) clearTimeout(timer);
    const until = await sessionValidUntil(ctx.db, tokenId).catch(() => -1);
    if (stopped) return;
    if (until === null) {
      stop();
      fail(socket, 'unauthorized', 'Your session has ended; sign in again.');
      socket.close(CLOSE.unauthorized, 'session ended');
      return;
    }
    // -1: the database did not answer; try again shortly.
    const wait = until < 0 ? 5_000 : Math.min(SESSION_RECHECK_MS, Math.max(0, until - Date.now()) + 50);
    timer = setTimeout(() => void check(), wait);
    timer.unref();
  };
  let set = bySession.get(tokenId);
  if (!set) bySession.set(tokenId, (set = new Set()));
  set.add(entry);
  void check();
  return stop;
}

async function subscribe(ctx: AppContext, hub: LiveHub, socket: WebSocket, user: UserRow, deviceId: unknown, fromSeq: unknown): Promise<void> {
  if (typeof deviceId !== 'string' || deviceId.length > 40) return fail(socket, 'bad_message', 'deviceId must be a device serial');
  if (fromSeq !== undefined && (typeof fromSeq !== 'number' || !Number.isSafeInteger(fromSeq) || fromSeq < -1)) return fail(socket, 'bad_message', 'fromSeq must be a whole number', deviceId);
  const device = await practiceDevice(ctx.db, user, deviceId);
  if (!device) return fail(socket, 'not_found', `Device ${deviceId} not found.`, deviceId);
  const channels = device.recording_id === null ? [] : await liveChannels(ctx.db, device.recording_id);
  send(socket, {
    type: 'subscribed',
    deviceId,
    recordingId: device.recording_id,
    patientId: device.patient_id,
    state: liveState(device.last_frame_ms, Date.now()),
    lastSeq: device.last_seq,
    channels,
  });
  await hub.subscribe(socket, device.device_master_id, deviceId, device.last_frame_ms, fromSeq as number | undefined);
}

/** Bad messages after which a viewer's connection is closed (each gets an error frame). */
const MAX_BAD_VIEWER_MESSAGES = 20;
/** Open viewer connections per user (a screen uses one; tabs and reconnects need a few). */
export const MAX_VIEWER_SOCKETS_PER_USER = 20;
const socketsOfUser = new Map<number, number>();

function onViewerSocket(ctx: AppContext, hub: LiveHub, socket: WebSocket, log: FastifyBaseLogger): void {
  let user: UserRow | null = null;
  let counted = false;
  let badMessages = 0;
  /** A bad message costs the sender: an error frame, one log line per connection, closed after a few. */
  const bad = (message: string) => {
    if (++badMessages === 1) log.warn(`live viewer${user ? ` of user ${user.id}` : ''}: bad message refused (${message})`);
    fail(socket, 'bad_message', message);
    if (badMessages >= MAX_BAD_VIEWER_MESSAGES) socket.close(1008, 'too many bad messages');
  };
  let stopWatching: (() => void) | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  const timer = setTimeout(() => socket.close(CLOSE.unauthorized, 'no auth'), AUTH_TIMEOUT_MS);
  const handle = async (msg: Partial<ViewerMessage> & Record<string, unknown>) => {
    if (!user) {
      clearTimeout(timer);
      const session = msg.type === 'auth' ? await authenticateViewer(ctx, msg.token) : null;
      user = session?.user ?? null;
      if (!session || !user) {
        fail(socket, 'unauthorized', 'Invalid credentials');
        return socket.close(CLOSE.unauthorized, 'unauthorized');
      }
      if (user.is_annotator || user.role === 'admin') {
        fail(socket, 'forbidden', 'Real-time data is not available to this account.');
        return socket.close(CLOSE.forbidden, 'forbidden');
      }
      const open = socketsOfUser.get(user.id) ?? 0;
      if (open >= MAX_VIEWER_SOCKETS_PER_USER) {
        fail(socket, 'forbidden', `At most ${MAX_VIEWER_SOCKETS_PER_USER} live connections per user; close another screen first.`);
        return socket.close(1008, 'too many connections');
      }
      socketsOfUser.set(user.id, open + 1);
      counted = true;
      stopWatching = watchSession(ctx, socket, session.tokenId, user.id);
      return send(socket, { type: 'ready', userId: user.id });
    }
    if (msg.type === 'subscribe' && (typeof msg.deviceId !== 'string' || msg.deviceId.length > 40)) return bad('deviceId must be a device serial');
    if (msg.type === 'subscribe' && msg.fromSeq !== undefined && (typeof msg.fromSeq !== 'number' || !Number.isSafeInteger(msg.fromSeq) || msg.fromSeq < -1)) return bad('fromSeq must be a whole number');
    if (msg.type === 'subscribe') return subscribe(ctx, hub, socket, user, msg.deviceId, msg.fromSeq);
    if (msg.type === 'unsubscribe') {
      const device = typeof msg.deviceId === 'string' ? await practiceDevice(ctx.db, user, msg.deviceId) : null;
      return device ? hub.unsubscribe(socket, device.device_master_id) : fail(socket, 'not_found', 'No such device.');
    }
    bad(`unknown message type "${String(msg.type).slice(0, 40)}"`);
  };
  socket.on('message', (raw: RawData, isBinary: boolean) => {
    chain = chain.then(async () => {
      if (isBinary) return bad('viewers send JSON text messages');
      let msg: unknown;
      try {
        msg = JSON.parse(raw.toString());
      } catch {
        return bad('messages must be JSON');
      }
      if (!msg || typeof msg !== 'object') return bad('messages must be JSON objects');
      await handle(msg as Record<string, unknown>);
    }).catch((err: Error) => {
      log.error(`live viewer connection failed: ${err.message}`);
      fail(socket, 'server_error', 'Sorry, server goes wrong');
    });
  });
  socket.on('close', () => {
    clearTimeout(timer);
    if (counted && user) {
      const left = (socketsOfUser.get(user.id) ?? 1) - 1;
      if (left > 0) socketsOfUser.set(user.id, left);
      else socketsOfUser.delete(user.id);
    }
    stopWatching?.();
    hub.unsubscribe(socket);
  });
}

/** The viewers' WebSocket: the session token in the first message, never in the URL. */
export async function viewerSocketRoute(app: FastifyInstance, ctx: AppContext, hub: LiveHub): Promise<void> {
  app.get(VIEWER_SOCKET_PATH, { websocket: true }, (socket, request) => onViewerSocket(ctx, hub, socket, request.log));
  // A session ended on any process: its viewers here are checked (and closed) at once.
  const stop = await onSessionsEnded(ctx.db, (ended) => {
    for (const [tokenId, set] of bySession) {
      for (const entry of set) if (tokenId === ended.t || entry.userId === ended.u) entry.recheck();
    }
  });
  app.addHook('onClose', stop);
}
