// The one comlink API both sides of the signal worker import.
// Every method is async: in a worker it crosses postMessage, on the main
// thread (fallback) it runs the same engine directly. Arrays go by transfer:
// the samples of `load` and the data of `sum` are detached from the caller
// in worker mode; results own their buffers.
import type {
  ChannelInfo, ChannelInput, ChannelRef, DailyOptions, DayStats, EngineMemory, HistogramResult,
  Ms, Px, StatsMode, ThresholdBands, ViewResult, WindowStats,
} from '../engine/index';
import type { NightAnalysis, NightInput } from '../engine/detect';

/** What `info()` reports about a running engine. */
interface EngineInfo {
  version: string;
  simd: boolean;
  /** Workers behind this API (0 on the main thread). */
  workers: number;
}

/** API exposed by signal.worker.ts, by the worker pool and by the main-thread fallback. */
export interface SignalApi {
  /** Engine version and whether WebAssembly SIMD is available. */
  info(): Promise<EngineInfo>;
  /** Sum of the values (pipeline self-check). */
  sum(data: Float32Array): Promise<number>;
  /** Loads a channel once (see Engine.load). */
  load(input: ChannelInput): Promise<ChannelInfo>;
  /** Closes a channel, or a whole night without `code`; resolves to the number closed. */
  close(night: string, code?: string): Promise<number>;
  /** Loaded channels. */
  channels(): Promise<ChannelInfo[]>;
  /** M4 view of [t0, t1) in `pixels` columns. */
  view(ref: ChannelRef, t0: Ms, t1: Ms, pixels: Px): Promise<ViewResult>;
  /**
   * M4 views of several channels over the same window, in the order of
   * `refs`. `recycle`: the buffer of earlier results the caller is done with
   * (transferred back and refilled, so a pan allocates nothing).
   */
  views(refs: readonly ChannelRef[], t0: Ms, t1: Ms, pixels: Px, recycle?: ArrayBuffer): Promise<ViewResult[]>;
  /** Window statistics (count, missing fraction, min, max, mean, p10, p50, p90). */
  stats(ref: ChannelRef, t0: Ms, t1: Ms, mode?: StatsMode): Promise<WindowStats>;
  /** Histogram over edges, with threshold band counts when bands are given. */
  histogram(ref: ChannelRef, t0: Ms, t1: Ms, edges: readonly number[] | Float64Array, bands?: ThresholdBands): Promise<HistogramResult>;
  /** Per-day statistics with margins (trend views). */
  dailyStats(ref: ChannelRef, dayStarts: readonly Ms[], options?: DailyOptions): Promise<DayStats[]>;
  /** Memory held by the engine(s). */
  memory(): Promise<EngineMemory>;
  /** Runs the event detectors and night metrics (engine/detect) over a night's series. */
  analyse(input: NightInput): Promise<NightAnalysis>;
}

/** Every method of SignalApi, for hosts that forward calls. */
export const SIGNAL_METHODS = [
  'info', 'sum', 'load', 'close', 'channels', 'view', 'views', 'stats', 'histogram', 'dailyStats', 'memory', 'analyse',
] as const satisfies readonly (keyof SignalApi)[];
