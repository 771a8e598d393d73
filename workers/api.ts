import type { Engine } from '../engine/index';
import type { SignalApi } from './protocol';

/**
 * Implements the worker protocol over one engine instance. The worker exposes
 * it with comlink; the main-thread fallback calls it directly.
 */
export function createSignalApi(engine: Engine): SignalApi {
  return {
    async info() {
      return { version: engine.version, simd: engine.simd };
    },
    async sum(data) {
      return engine.sum(data);
    },
  };
}
