import type { FastifyInstance } from 'fastify';
import underPressure from '@fastify/under-pressure';

/** When the server refuses new requests with 503 rather than slowing every request down. */
export interface OverloadLimits {
  /** Event-loop delay (ms) beyond which requests are refused (0: never). */
  maxEventLoopDelayMs: number;
  /** Resident memory (bytes) beyond which requests are refused. */
  maxRssBytes: number;
  /** How often (ms) the delay and memory are sampled. */
  sampleIntervalMs: number;
}

/** Memory limit: 1.5 GB resident (the goal is 1 GB under the largest load). */
export const MAX_RSS_BYTES = 1536 * 1024 * 1024;

/**
 * Answers 503 with Retry-After (code `overloaded`) while the event loop lags or memory runs
 * high, so an overload sheds requests instead of queueing them all until they time out.
 */
export async function shedOverload(app: FastifyInstance, limits: OverloadLimits): Promise<void> {
  await app.register(underPressure, {
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    maxRssBytes: limits.maxRssBytes,
    sampleInterval: limits.sampleIntervalMs,
    exposeStatusRoute: false,
    pressureHandler: (_request, reply, type, value) => {
      reply
        .code(503)
        .header('retry-after', '5')
        .send({ code: 'overloaded', message: `The server is busy (${type}${value !== undefined ? ` ${Math.round(value)}` : ''}); try again in a few seconds.` });
    },
  });
}
