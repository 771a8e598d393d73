import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** Headers must arrive within this (ms): a client that stalls in them is closed. */
const HEADERS_TIMEOUT_MS = 20_000;
/** An idle kept-alive connection is closed after this (ms). */
const KEEP_ALIVE_TIMEOUT_MS = 5_000;
/** No request may take longer than this in all (ms), however steadily it sends (a 1 GB upload at 2 MB/s fits). */
const REQUEST_TIMEOUT_MS = 60 * 60_000;

const current = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();

/**
 * Timeouts suited to uploads (issue 33 point 5). A socket that sends nothing for `idleMs`
 * (UPLOAD_IDLE_MS) is closed while its request's body is still coming (a stalled upload),
 * or while it carries no request at all; a slow upload that keeps sending is never cut,
 * and a request whose body has all arrived may take as long as its work needs. An answer
 * sent before the body was read (a refused upload) closes the connection, so no later
 * request on it waits behind the unread body.
 */
export function applyTimeouts(app: FastifyInstance, idleMs: number): void {
  const server = app.server;
  server.headersTimeout = HEADERS_TIMEOUT_MS;
  server.keepAliveTimeout = KEEP_ALIVE_TIMEOUT_MS;
  server.requestTimeout = REQUEST_TIMEOUT_MS;
  server.setTimeout(idleMs);
  server.on('request', (req: IncomingMessage, res: ServerResponse) => current.set(req.socket, { req, res }));
  server.on('timeout', (socket: Socket) => {
    const open = current.get(socket);
    // The body is all here and the answer is being made: not idle, just working.
    if (open && open.req.complete && !open.res.writableEnded) return;
    socket.destroy();
  });
  app.addHook('onSend', async (request, reply) => {
    if (!request.raw.complete) reply.header('connection', 'close');
  });
}
