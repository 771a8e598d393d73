import { randomUUID } from 'node:crypto';
import { LogController, type FastifyBaseLogger, type FastifyReply, type FastifyRequest } from 'fastify';
import pino, { type DestinationStream } from 'pino';
import { loggableUrl } from './errors';

/** What a module logs to: the server's logger, a child of it (per module) or a request's (with its id). */
export type Logger = FastifyBaseLogger;

/** pino's level names, the values LOG_LEVEL takes. */
export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** Fields that hold a secret wherever they appear: credentials, one-time codes, tokens, device keys, link signatures. */
const SECRET_FIELDS = [
  'authorization',
  'cookie',
  'set-cookie',
  'password',
  'new_password',
  'current_password',
  'otp',
  'token',
  'reset_token',
  'key',
  'device_key',
  'secret',
  'sig',
  'signature',
] as const;

/**
 * pino `redact` paths: each secret field at the top of a log object, one level down (a
 * body, a hello frame) and in request/response headers. pino's wildcards match one level,
 * so the header paths are spelled out.
 */
const REDACT_PATHS: string[] = [
  ...SECRET_FIELDS.flatMap((f) => [`["${f}"]`, `*["${f}"]`]),
  ...['req', 'request', 'res', 'reply'].flatMap((owner) => SECRET_FIELDS.map((f) => `${owner}.headers["${f}"]`)),
];

/** The parts of a Fastify request a log line shows. */
interface LoggedRequest {
  id?: string;
  method?: string;
  url?: string;
  routeOptions?: { url?: string };
}

/**
 * What a request is in a log line: its id, method, route and URL with query values withheld
 * (signed links carry their signature there). Never its headers or body.
 */
function requestFields(req: LoggedRequest): Record<string, unknown> {
  return { id: req.id, method: req.method, route: req.routeOptions?.url, url: loggableUrl(req.url ?? '') };
}

/** What an answer is in a log line: its status and the route it answered. */
function replyFields(reply: { statusCode?: number; request?: LoggedRequest }): Record<string, unknown> {
  return { statusCode: reply.statusCode, route: reply.request?.routeOptions?.url };
}

/**
 * The server's logger: JSON lines to stdout (or `stream`, the tests' in-memory sink), at
 * `level`, secrets redacted and URLs logged with their query values withheld.
 */
export function createLogger(level: LogLevel, stream?: DestinationStream | null): pino.Logger {
  const options = {
      level,
      base: { pid: process.pid },
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      serializers: {
        req: requestFields,
        res: replyFields,
        url: (url: unknown) => (typeof url === 'string' ? loggableUrl(url) : url),
        err: pino.stdSerializers.err,
      },
  };
  return stream ? pino(options, stream) : pino(options);
}

/**
 * Fastify's lines about requests. One line per request, at its end and at debug: method,
 * route, URL without query values, status and time, under the request's id. At the default
 * level (info) a request writes nothing unless it fails: the log stays readable and test
 * output quiet, and who read what is the audit trail's job, not this log's. Fastify's error
 * lines (a stream or serializer failure) are kept as they are.
 */
export class RequestLogController extends LogController {
  override incomingRequest(): void {}

  override requestCompleted(error: Error | null | undefined, request: FastifyRequest, reply: FastifyReply): void {
    if (error) return super.requestCompleted(error, request, reply);
    reply.log.debug({ req: request, res: reply, responseTime: Math.round(reply.elapsedTime) }, 'request completed');
  }

  /** Fastify's own line names the raw URL, query values (a link's signature) included. */
  override routeNotFound(request: FastifyRequest): void {
    request.log.debug({ req: request }, 'no such route');
  }
}

/** A request id of our own: a client's X-Request-Id is never trusted (it could forge or collide with another's). */
export function newRequestId(): string {
  return randomUUID();
}

let fallback: pino.Logger | null = null;
/** The logger of code run without a server's (a test's own hub, a CLI's worker): stdout at info. */
export function fallbackLogger(): Logger {
  return (fallback ??= createLogger('info'));
}
