// Public face of the Nocturne signal engine, shared by workers/ and server/.
export { Engine, loadEngine, ENGINE_VERSION, type EngineMemory } from './engine';
export { EngineError, toEngineError, type EngineErrorCode } from './errors';
export * from './constants';
export * from './units';
export * from './vitals';
export type * from './types';
export { channelInputFromWire } from './ingest';
export { validSampleCount } from './valid-count';
