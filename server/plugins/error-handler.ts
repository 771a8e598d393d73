import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, errorBody, fastifyErrorCode, isBadValue, isDatabaseOutage, isPoolExhausted, loggableUrl, OutageLog, RetryLater } from '../errors';
import { bookingConflict } from '../devices/allocations';

type ValidationIssue = { instancePath?: string; keyword?: string; params?: { missingProperty?: string; limit?: unknown } };

/** A schema's refusal as 400: the field and the broken rule, so forms can say it in the user's words (issue 16 point 4). */
function sendValidation(reply: FastifyReply, err: FastifyError, validation: NonNullable<FastifyError['validation']>) {
  // A nested field (Device Config's /config/radar/range_m) also by its whole path, and a bound by its limit.
  const first = validation[0] as ValidationIssue | undefined;
  const field = first?.params?.missingProperty ?? first?.instancePath?.replace(/^\//, '').split('/')[0] ?? '';
  const path = first?.instancePath ? { path: first.instancePath } : {};
  const limit = typeof first?.params?.limit === 'number' ? { limit: first.params.limit } : {};
  return reply.code(400).send(errorBody('validation_failed', err.message, { field, rule: first?.keyword ?? '', ...path, ...limit }));
}

/** The client went away mid-request (an aborted upload). */
function clientAborted(request: FastifyRequest, err: Error): boolean {
  return request.raw.aborted || request.raw.socket?.destroyed || ((err as { code?: string }).code === 'ECONNRESET' && !request.raw.complete);
}

/** What is neither ours nor the client's: a lost client, an exhausted pool or a lost database, a bad value, else a bug. */
function sendFailure(request: FastifyRequest, reply: FastifyReply, err: Error, outage: OutageLog) {
  // Said as an aborted request, not as a lost database.
  if (clientAborted(request, err)) {
    request.log.warn({ req: request }, `${request.method} ${loggableUrl(request.url)}: the client aborted the request`);
    return reply.code(400).send(errorBody('client_aborted', 'The request was aborted by the client.'));
  }
  if (isPoolExhausted(err)) {
    return reply.code(503).header('retry-after', '5').send(errorBody('overloaded', 'The server is busy (every database connection is in use); try again in a few seconds.'));
  }
  if (isDatabaseOutage(err)) {
    outage.failed(err);
    return reply.code(503).header('retry-after', '10').send(errorBody('database_unavailable', 'The database is unavailable. Try again in a moment.'));
  }
  if (isBadValue(err)) {
    return reply.code(400).send(errorBody('invalid_value', `A value is out of range or malformed: ${err.message}`));
  }
  request.log.error({ req: request, err }, `${request.method} ${loggableUrl(request.url)} failed: ${err.message}`);
  return reply.code(500).send(errorBody('server_error', 'Sorry, server goes wrong'));
}

/**
 * One error handler: a client's mistake is 4xx with the field named, a lost database is 503
 * with one log line per outage, and only a real bug is 500 (with its stack, once).
 */
export function registerErrorHandler(app: FastifyInstance, logError: (line: string) => void): void {
  const outage = new OutageLog(logError);
  app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
    const refusedBooking = bookingConflict(err);
    if (refusedBooking) err = refusedBooking;
    if (err instanceof ApiError) {
      if (err instanceof RetryLater) reply.header('retry-after', String(err.retryAfterS));
      return reply.code(err.status).send(err.body());
    }
    const validation = err.validation;
    if (validation) return sendValidation(reply, err, validation);
    const status = err.statusCode;
    if (status && status >= 400 && status < 500) return reply.code(status).send(errorBody(fastifyErrorCode(err.code), err.message));
    return sendFailure(request, reply, err, outage);
  });
}
