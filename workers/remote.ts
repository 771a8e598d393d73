import * as Comlink from 'comlink';
import { toEngineError } from '../engine/index';
import type { ChannelRef } from '../engine/index';
import type { SignalApi } from './protocol';

/** A typed array whose buffer can be transferred as-is (it spans all of it). */
function ownBuffer<T extends Float32Array | Int16Array>(data: T): T {
  return data.byteOffset === 0 && data.byteLength === data.buffer.byteLength && data.buffer instanceof ArrayBuffer
    ? data
    : (data.slice() as T);
}

/** Only the names cross: a ref that is really a ChannelInput must not clone its samples. */
function refOf(ref: ChannelRef): ChannelRef {
  return { night: ref.night, code: ref.code };
}

/** Errors from the worker come back as EngineError with their code. */
async function rethrown<T>(call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (error) {
    throw toEngineError(error);
  }
}

/**
 * The API of a worker behind a comlink endpoint: input arrays are
 * transferred, never cloned; errors keep their EngineError code.
 */
export function wrapRemote(endpoint: Comlink.Endpoint): SignalApi {
  const remote = Comlink.wrap<SignalApi>(endpoint);
  return {
    info: () => rethrown(remote.info()),
    sum: (data) => {
      const own = ownBuffer(data);
      return rethrown(remote.sum(Comlink.transfer(own, [own.buffer])));
    },
    load: (input) => {
      // Anything but a typed array goes as it is, for the engine to refuse.
      if (!(input.samples instanceof Int16Array || input.samples instanceof Float32Array)) return rethrown(remote.load(input));
      const samples = ownBuffer(input.samples);
      return rethrown(remote.load(Comlink.transfer({ ...input, samples }, [samples.buffer])));
    },
    close: (night, code) => rethrown(remote.close(night, code)),
    channels: () => rethrown(remote.channels()),
    view: (ref, t0, t1, pixels) => rethrown(remote.view(refOf(ref), t0, t1, pixels)),
    views: (refs, t0, t1, pixels, recycle) =>
      rethrown(recycle && recycle.byteLength > 0
        ? remote.views(refs.map(refOf), t0, t1, pixels, Comlink.transfer(recycle, [recycle]))
        : remote.views(refs.map(refOf), t0, t1, pixels)),
    stats: (ref, t0, t1, mode) => rethrown(remote.stats(refOf(ref), t0, t1, mode)),
    histogram: (ref, t0, t1, edges, bands) => rethrown(remote.histogram(refOf(ref), t0, t1, edges, bands)),
    dailyStats: (ref, dayStarts, options) => rethrown(remote.dailyStats(refOf(ref), dayStarts, options)),
    memory: () => rethrown(remote.memory()),
    analyse: (input) => {
      // Each series' values go by transfer: the caller gives them up, as with load.
      const channels = Object.fromEntries(Object.entries(input.channels).map(([code, s]) => [code, { ...s!, values: ownBuffer(s!.values) }]));
      const buffers = Object.values(channels).map((s) => s.values.buffer as ArrayBuffer);
      return rethrown(remote.analyse(Comlink.transfer({ ...input, channels }, buffers)));
    },
  };
}
