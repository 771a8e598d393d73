import type { FastifyReply, FastifyRequest } from 'fastify';

/** True once the client closed the connection of `request` before its answer was sent (a screen left mid-download). */
export function clientGone(request: FastifyRequest): boolean {
  return request.raw.aborted || request.raw.socket?.destroyed === true;
}

/**
 * Ends the work of a request whose client is gone: one log line saying what was stopped, no
 * answer (there is nobody to read it). Returns the hijacked reply for the handler to return.
 */
export function stopForAbort(request: FastifyRequest, reply: FastifyReply, what: string): FastifyReply {
  request.log.info({ req: request }, `Request aborted by the client: ${request.method} ${request.routeOptions.url ?? request.url.split('?')[0]} (${what})`);
  reply.hijack();
  reply.raw.destroy();
  return reply;
}
