import type { FastifyInstance } from 'fastify';
import underPressure from '@fastify/under-pressure';
import { errorBody } from './errors';

/** When the server refuses new requests with 503 rather than slowing every request down. */
export interface OverloadLimits {
  /** Event-loop delay (ms) beyond which requests are refused (0: never). */
  maxEventLoopDelayMs: number;
  /** JavaScript heap in use (bytes) beyond which requests are refused. */
  maxHeapUsedBytes: number;
  /** How often (ms) the delay and memory are sampled. */
  sampleIntervalMs: number;
}

/**
 * Memory limit: 1.5 GB of JavaScript heap in use. Not resident size: the embedded database's
 * WebAssembly memory grows with a large import and never shrinks, so an RSS limit would
 * refuse every request after one 200 MB upload; the heap is what runs out when requests pile up.
 */
export const MAX_HEAP_USED_BYTES = 1536 * 1024 * 1024;

/**
 * Answers 503 with Retry-After (code `overloaded`) while the event loop lags or memory runs
 * high, so an overload sheds requests instead of queueing them all until they time out.
 */
export async function shedOverload(app: FastifyInstance, limits: OverloadLimits): Promise<void> {
  await app.register(underPressure, {
    maxEventLoopDelay: limits.maxEventLoopDelayMs,
    maxHeapUsedBytes: limits.maxHeapUsedBytes,
    sampleInterval: limits.sampleIntervalMs,
    exposeStatusRoute: false,
    pressureHandler: (_request, reply, type, value) => {
      reply
        .code(503)
        .header('retry-after', '5')
        .send(errorBody('overloaded', `The server is busy (${type}${value !== undefined ? ` ${Math.round(value)}` : ''}); try again in a few seconds.`));
    },
  });
}
