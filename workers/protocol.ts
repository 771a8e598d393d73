// The one comlink API both sides of the signal worker import.
// Every method is async: in a worker it crosses postMessage, on the main
// thread (fallback) it runs the same engine directly.

/** What `info()` reports about a running engine. */
export interface EngineInfo {
  version: string;
  simd: boolean;
}

/** API exposed by signal.worker.ts (and by the main-thread fallback). */
export interface SignalApi {
  /** Engine version and whether WebAssembly SIMD is available. */
  info(): Promise<EngineInfo>;
  /** Sum of the values (pipeline self-check). The array's buffer is transferred. */
  sum(data: Float32Array): Promise<number>;
}
