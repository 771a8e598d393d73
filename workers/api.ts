import * as Comlink from 'comlink';
import type { Engine } from '../engine/index';
import { analyseNight } from '../engine/detect';
import { SIGNAL_METHODS, type SignalApi } from './protocol';

/** Resolves after the tasks already queued (messages in a worker) have run. */
const yieldToQueue = () => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * Implements the worker protocol over one engine instance. The worker exposes
 * it with comlink; the main-thread fallback calls it directly. Result buffers
 * are marked for transfer (a no-op when no thread boundary is crossed).
 */
export function createSignalApi(engine: Engine, workers = 0): SignalApi {
  // Loads run one after another, each after a turn of the message queue: a view asked for
  // while a burst of channels loads runs after the load in progress, not after the burst. A
  // close runs in that line too, after the loads asked for before it: a night left while its
  // channels were still coming keeps none of them (a close that overtook them left them behind).
  let loads: Promise<unknown> = Promise.resolve();
  return {
    async info() {
      return { version: engine.version, simd: engine.simd, workers };
    },
    async sum(data) {
      return engine.sum(data);
    },
    async load(input) {
      const turn = loads.then(yieldToQueue).then(() => engine.load(input));
      // The next load waits for this one whatever its outcome; the caller hears the outcome.
      loads = turn.catch(() => undefined);
      return turn;
    },
    async close(night, code) {
      const turn = loads.then(() => engine.close(night, code));
      loads = turn.catch(() => undefined);
      return turn;
    },
    async channels() {
      return engine.channels();
    },
    async view(ref, t0, t1, pixels) {
      const result = engine.view(ref, t0, t1, pixels);
      return Comlink.transfer(result, [result.buffer]);
    },
    async views(refs, t0, t1, pixels, recycle) {
      const results = engine.views(refs, t0, t1, pixels, recycle);
      return Comlink.transfer(results, results.length ? [results[0]!.buffer] : []);
    },
    async stats(ref, t0, t1, mode) {
      return engine.stats(ref, t0, t1, mode);
    },
    async histogram(ref, t0, t1, edges, bands) {
      const result = engine.histogram(ref, t0, t1, edges, bands);
      return Comlink.transfer(result, [result.edges.buffer, result.counts.buffer]);
    },
    async dailyStats(ref, dayStarts, options) {
      return engine.dailyStats(ref, dayStarts, options);
    },
    async memory() {
      return engine.memory();
    },
    async analyse(input) {
      return analyseNight(input);
    },
  };
}

/**
 * An API whose every call first waits for `ready`: a worker exposes it at
 * once, so no message is lost while the WebAssembly module loads.
 */
export function deferredSignalApi(ready: Promise<SignalApi>): SignalApi {
  const forward = (name: keyof SignalApi) => async (...args: unknown[]) => {
    const api = await ready;
    return (api[name] as (...a: unknown[]) => Promise<unknown>)(...args);
  };
  return Object.fromEntries(SIGNAL_METHODS.map((name) => [name, forward(name)])) as unknown as SignalApi;
}
