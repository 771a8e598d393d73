/// <reference lib="webworker" />
// Worker host of the signal engine: loads the WebAssembly module once and
// exposes the protocol of ./protocol.ts through comlink.
import * as Comlink from 'comlink';
import { loadEngine } from '../engine/index';
import { createSignalApi, deferredSignalApi } from './api';

Comlink.expose(deferredSignalApi(loadEngine().then((engine) => createSignalApi(engine, 1))));
