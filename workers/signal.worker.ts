/// <reference lib="webworker" />
// Worker host of the signal engine: loads the WebAssembly module once and
// exposes the protocol of ./protocol.ts through comlink.
import * as Comlink from 'comlink';
import { loadEngine } from '../engine/index';
import { createSignalApi } from './api';
import type { SignalApi } from './protocol';

const ready: Promise<SignalApi> = loadEngine().then(createSignalApi);

/** Every call waits for the engine to load, so the host can answer at once. */
const api: SignalApi = {
  info: async () => (await ready).info(),
  sum: async (data) => (await ready).sum(data),
};

Comlink.expose(api);
