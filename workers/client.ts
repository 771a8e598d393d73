import * as Comlink from 'comlink';
import { loadEngine } from '../engine/index';
import { createSignalApi } from './api';
import type { SignalApi } from './protocol';

/** Where the engine runs. */
export type EngineMode = 'worker' | 'main-thread';

/** A ready signal engine and where it runs. */
export interface SignalEngine {
  api: SignalApi;
  mode: EngineMode;
}

/** How long a new worker may take to answer `info()` before we give up on it. */
const WORKER_START_TIMEOUT_MS = 5_000;

let warned = false;
function warnOnce(reason: unknown): void {
  if (warned) return;
  warned = true;
  console.warn('Signal engine: worker unavailable, running on the main thread.', reason);
}

/** A typed array whose buffer can be transferred as-is (it views all of it). */
function ownBuffer(data: Float32Array): Float32Array {
  return data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer
    ? data
    : data.slice();
}

/** Wraps a comlink remote so that input buffers are transferred, not cloned. */
function transferringApi(remote: Comlink.Remote<SignalApi>): SignalApi {
  return {
    info: () => remote.info(),
    sum: (data) => {
      const own = ownBuffer(data);
      return remote.sum(Comlink.transfer(own, [own.buffer]));
    },
  };
}

function withTimeout<T>(promise: Promise<T>, ms: number): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    promise.then(
      (value) => { clearTimeout(timer); resolve(value); },
      (error: unknown) => { clearTimeout(timer); reject(error); },
    );
  });
}

async function startWorker(): Promise<SignalApi> {
  const worker = new Worker(new URL('./signal.worker.ts', import.meta.url), { type: 'module' });
  try {
    const api = transferringApi(Comlink.wrap<SignalApi>(worker));
    await withTimeout(api.info(), WORKER_START_TIMEOUT_MS);
    return api;
  } catch (error) {
    worker.terminate();
    throw error;
  }
}

async function startMainThread(): Promise<SignalApi> {
  return createSignalApi(await loadEngine());
}

let current: Promise<SignalEngine> | undefined;

/**
 * Starts (once) and returns the signal engine: in a web worker when one can
 * start and answers `info()` in time, otherwise on the main thread (logged once).
 * Arrays passed to the API are transferred to the worker, so their buffers
 * are detached afterwards in worker mode.
 */
export function getSignalEngine(): Promise<SignalEngine> {
  current ??= (async (): Promise<SignalEngine> => {
    try {
      if (typeof Worker === 'undefined') throw new Error('Worker is not defined in this runtime');
      return { api: await startWorker(), mode: 'worker' };
    } catch (error) {
      warnOnce(error);
      return { api: await startMainThread(), mode: 'main-thread' };
    }
  })();
  // A failed start is not cached: the next call tries again.
  current.catch(() => {
    current = undefined;
  });
  return current;
}
