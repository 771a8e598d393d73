import { loadEngine } from '../engine/index';
import { createSignalApi } from './api';
import { createSignalPool, poolSize } from './pool';
import type { ChannelInfo, EngineMemory } from '../engine/index';
import type { SignalApi } from './protocol';
import { wrapRemote } from './remote';

/** Where the engine runs. */
type EngineMode = 'worker' | 'main-thread';

/** A ready signal engine and where it runs. */
export interface SignalEngine {
  api: SignalApi;
  mode: EngineMode;
}

/**
 * How long a new worker may take to answer `info()` before we give up on it. A worker
 * that fails to load or throws reports an error event at once; this only bounds one that
 * neither answers nor fails. A first, cold visit on a busy two-core machine (fetch,
 * compile the module and the WebAssembly, instantiate) took more than 5 s.
 */
const WORKER_START_TIMEOUT_MS = 20_000;

let warned = false;
function warnOnce(reason: unknown): void {
  if (warned) return;
  warned = true;
  console.warn('Signal engine: workers unavailable, running on the main thread.', reason);
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

/** Starts one worker and waits until its engine answers. */
async function startWorker(): Promise<SignalApi> {
  const worker = new Worker(new URL('./signal.worker.ts', import.meta.url), { type: 'module' });
  try {
    const api = wrapRemote(worker);
    const failed = new Promise<never>((_, reject) => {
      worker.addEventListener('error', (e) => reject(new Error(`worker failed to start: ${e.message || 'script error'}`)), { once: true });
    });
    await withTimeout(Promise.race([api.info(), failed]), WORKER_START_TIMEOUT_MS);
    return api;
  } catch (error) {
    worker.terminate();
    throw error;
  }
}

/** Starts up to poolSize() workers; resolves to those that answered. */
async function startWorkers(): Promise<SignalApi[]> {
  if (typeof Worker === 'undefined') throw new Error('Worker is not defined in this runtime');
  const count = poolSize(typeof navigator === 'undefined' ? undefined : navigator.hardwareConcurrency);
  const started = await Promise.allSettled(Array.from({ length: count }, startWorker));
  const workers = started.flatMap((s) => (s.status === 'fulfilled' ? [s.value] : []));
  if (workers.length === 0) throw (started[0] as PromiseRejectedResult).reason;
  return workers;
}

let current: Promise<SignalEngine> | undefined;

/**
 * Starts (once) and returns the signal engine: a pool of up to
 * min(4, cores - 1) web workers when they start and answer `info()` in time,
 * otherwise the same engine on the main thread (logged once). In worker mode
 * the arrays passed to `load` and `sum` are transferred (detached afterwards).
 */
export function getSignalEngine(): Promise<SignalEngine> {
  current ??= (async (): Promise<SignalEngine> => {
    try {
      const workers = await startWorkers();
      performance.mark('nocturne:engine-ready');
      return { api: workers.length === 1 ? workers[0]! : createSignalPool(workers), mode: 'worker' };
    } catch (error) {
      warnOnce(error);
      return { api: createSignalApi(await loadEngine()), mode: 'main-thread' };
    }
  })();
  // A failed start is not cached: the next call tries again.
  current.catch(() => {
    current = undefined;
  });
  return current;
}

declare global {
  interface Window {
    /** What the signal engine holds, for the e2e tests (read-only: the page's own channels and memory). */
    __nocturneEngine?: { channels(): Promise<ChannelInfo[]>; memory(): Promise<EngineMemory> };
  }
}

if (typeof window !== 'undefined') {
  window.__nocturneEngine = {
    channels: async () => (await getSignalEngine()).api.channels(),
    memory: async () => (await getSignalEngine()).api.memory(),
  };
}
