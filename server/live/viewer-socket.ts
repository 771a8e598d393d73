import '@fastify/websocket';
import type { FastifyInstance } from 'fastify';
import type { RawData, WebSocket } from 'ws';
import type { AppContext } from '../context';
import { checkSession } from '../auth/tokens';
import type { UserRow } from '../auth/users';
import type { LiveHub } from './hub';
import { practiceDevice } from './practice';
import { CLOSE, liveState, VIEWER_SOCKET_PATH, type LiveErrorCode, type ServerToViewer, type ViewerMessage } from './protocol';

const AUTH_TIMEOUT_MS = 10_000;

const send = (socket: WebSocket, msg: ServerToViewer) => socket.send(JSON.stringify(msg));
const fail = (socket: WebSocket, code: LiveErrorCode, message: string, deviceId?: string) => send(socket, { type: 'error', code, message, ...(deviceId ? { deviceId } : {}) });

async function authenticateViewer(ctx: AppContext, token: unknown): Promise<UserRow | null> {
  if (typeof token !== 'string' || token.length > 200) return null;
  const session = await checkSession(ctx.db, token);
  return session && session.user.status === 'active' ? session.user : null;
}

async function subscribe(ctx: AppContext, hub: LiveHub, socket: WebSocket, user: UserRow, deviceId: unknown, fromSeq: unknown): Promise<void> {
  if (typeof deviceId !== 'string' || deviceId.length > 40) return fail(socket, 'bad_message', 'deviceId must be a device serial');
  if (fromSeq !== undefined && (typeof fromSeq !== 'number' || !Number.isInteger(fromSeq) || fromSeq < -1)) return fail(socket, 'bad_message', 'fromSeq must be a whole number', deviceId);
  const device = await practiceDevice(ctx.db, user, deviceId);
  if (!device) return fail(socket, 'not_found', `Device ${deviceId} not found.`, deviceId);
  const channels = device.recording_id === null ? [] : await ctx.db.query<{ code: string; rate: number; unit: string; t0Ms: number }>(
    'select code, sample_rate as rate, unit, t0_ms as "t0Ms" from recording_channels where recording_id = $1 order by id',
    [device.recording_id],
  );
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

function onViewerSocket(ctx: AppContext, hub: LiveHub, socket: WebSocket): void {
  let user: UserRow | null = null;
  let chain: Promise<unknown> = Promise.resolve();
  const timer = setTimeout(() => socket.close(CLOSE.unauthorized, 'no auth'), AUTH_TIMEOUT_MS);
  const handle = async (msg: Partial<ViewerMessage> & Record<string, unknown>) => {
    if (!user) {
      clearTimeout(timer);
      user = msg.type === 'auth' ? await authenticateViewer(ctx, msg.token) : null;
      if (!user) {
        fail(socket, 'unauthorized', 'Invalid credentials');
        return socket.close(CLOSE.unauthorized, 'unauthorized');
      }
      if (user.is_annotator || user.role === 'admin') {
        fail(socket, 'forbidden', 'Real-time data is not available to this account.');
        return socket.close(CLOSE.forbidden, 'forbidden');
      }
      return send(socket, { type: 'ready', userId: user.id });
    }
    if (msg.type === 'subscribe') return subscribe(ctx, hub, socket, user, msg.deviceId, msg.fromSeq);
    if (msg.type === 'unsubscribe') {
      const device = typeof msg.deviceId === 'string' ? await practiceDevice(ctx.db, user, msg.deviceId) : null;
      return device ? hub.unsubscribe(socket, device.device_master_id) : fail(socket, 'not_found', 'No such device.');
    }
    fail(socket, 'bad_message', `unknown message type "${String(msg.type)}"`);
  };
  socket.on('message', (raw: RawData, isBinary: boolean) => {
    chain = chain.then(async () => {
      if (isBinary) return fail(socket, 'bad_message', 'viewers send JSON text messages');
      let msg: unknown;
      try {
        msg = JSON.parse(raw.toString());
      } catch {
        return fail(socket, 'bad_message', 'messages must be JSON');
      }
      if (!msg || typeof msg !== 'object') return fail(socket, 'bad_message', 'messages must be JSON objects');
      await handle(msg as Record<string, unknown>);
    }).catch((err: Error) => {
      console.error(`live viewer connection failed: ${err.stack ?? err.message}`);
      fail(socket, 'server_error', 'Sorry, server goes wrong');
    });
  });
  socket.on('close', () => {
    clearTimeout(timer);
    hub.unsubscribe(socket);
  });
}

/** The viewers' WebSocket: the session token in the first message, never in the URL. */
export function viewerSocketRoute(app: FastifyInstance, ctx: AppContext, hub: LiveHub): void {
  app.get(VIEWER_SOCKET_PATH, { websocket: true }, (socket) => onViewerSocket(ctx, hub, socket));
}
