import { DAY_MARGIN_MS } from './constants';
import { EngineError } from './errors';
import { Heap } from './heap';
import { histogramOf } from './histogram';
import { loadChannel, type LoadedChannel } from './load';
import { windowStats } from './stats';
import { sampleRange } from './time';
import type {
  ChannelInfo, ChannelInput, ChannelRef, DailyOptions, DayStats, HistogramResult, StatsMode,
  ThresholdBands, ViewResult, WindowStats,
} from './types';
import { ms, type Ms, type Px } from './units';
import {
  checkBands, checkChannelInput, checkDayStarts, checkEdges, checkPixels, checkRef, checkWindow,
} from './validate';
import { computeViews, type ViewKernel } from './views';
import { hasWasmSimd, instantiateEngine, type WasmExports } from './wasm';

/** Version of the signal engine, reported by `info()`. */
export const ENGINE_VERSION = '0.3.1';

/** Memory held by the engine, for leak checks. */
export interface EngineMemory {
  /** Bytes handed out by the engine's allocator and not yet freed. */
  liveBytes: number;
  /** Blocks handed out and not yet freed. */
  liveBlocks: number;
  /** Size of the WebAssembly linear memory (it never shrinks; freed blocks are reused). */
  heapBytes: number;
  /** Loaded channels. */
  channels: number;
}

/** Key of a channel in the registry. */
function keyOf(ref: ChannelRef): string {
  return `${ref.night}\u0000${ref.code}`;
}

/**
 * Synchronous face of the WebAssembly signal engine. One instance owns one
 * WebAssembly memory; each worker and the server hold their own. Queries take
 * times in ms; bad input throws an EngineError and changes nothing.
 */
export class Engine {
  readonly version = ENGINE_VERSION;
  readonly simd: boolean;
  private readonly heap: Heap;
  private readonly loaded = new Map<string, LoadedChannel>();

  constructor(private readonly wasm: WasmExports) {
    this.simd = hasWasmSimd();
    this.heap = new Heap(wasm);
  }

  /**
   * Sum of all values, computed in WebAssembly with SIMD (float64 lanes).
   * The pipeline self-check of the app uses it.
   */
  sum(data: Float32Array): number {
    if (data.length === 0) return 0;
    return this.heap.withBlock(data.length * 4, (ptr) => {
      new Float32Array(this.heap.buffer, ptr, data.length).set(data);
      return this.wasm.sumF32(ptr, data.length);
    });
  }

  /**
   * Loads a channel once: converts the samples (missing values become gaps,
   * spec 2 §5) and builds its min/max pyramid and block histograms.
   */
  load(input: ChannelInput): ChannelInfo {
    checkChannelInput(input);
    const key = keyOf(input);
    if (this.loaded.has(key)) {
      throw new EngineError('DUPLICATE_CHANNEL', `channel ${input.code} of night ${input.night} is already loaded; close it first`);
    }
    const channel = loadChannel(this.wasm, this.heap, input);
    this.loaded.set(key, channel);
    return channel.info;
  }

  /** Loaded channels. */
  channels(): ChannelInfo[] {
    return [...this.loaded.values()].map((c) => c.info);
  }

  /** Closes one channel, or every channel of a night when `code` is omitted; frees their memory. */
  close(night: string, code?: string): number {
    let closed = 0;
    for (const [key, channel] of this.loaded) {
      if (channel.info.night === night && (code === undefined || channel.info.code === code)) {
        this.wasm.channelDestroy(channel.handle);
        this.loaded.delete(key);
        closed++;
      }
    }
    return closed;
  }

  /**
   * M4 view of [t0, t1) in `pixels` columns: first/min/max/last per column,
   * x in ms from origin = t0. Cost O(pixels), whatever the window.
   */
  view(ref: ChannelRef, t0: Ms, t1: Ms, pixels: Px): ViewResult {
    return this.runViews([ref], t0, t1, pixels, 'pyramid')[0]!;
  }

  /**
   * Views of several channels over the same window (a synchronized screen):
   * one call, one copy, and all results share one buffer to transfer. A
   * `recycle` buffer from earlier results that are no longer needed is
   * filled instead of a new one when it is large enough (no allocation, no
   * page faults in the steady state of a pan).
   */
  views(refs: readonly ChannelRef[], t0: Ms, t1: Ms, pixels: Px, recycle?: ArrayBuffer): ViewResult[] {
    return this.runViews(refs, t0, t1, pixels, 'pyramid', recycle);
  }

  /** The same view computed by scanning every sample (benchmark peer and test oracle). */
  viewScan(ref: ChannelRef, t0: Ms, t1: Ms, pixels: Px): ViewResult {
    return this.runViews([ref], t0, t1, pixels, 'scan')[0]!;
  }

  private runViews(refs: readonly ChannelRef[], t0: Ms, t1: Ms, pixels: Px, how: ViewKernel, recycle?: ArrayBuffer): ViewResult[] {
    const channels = refs.map((ref) => this.channel(ref));
    checkWindow(t0, t1);
    checkPixels(pixels);
    return computeViews(this.wasm, this.heap, channels, t0, t1, pixels, how, recycle);
  }

  /**
   * Statistics of [t0, t1): count, missing fraction, min, max, mean, p10,
   * p50, p90 (spec 2 §5). fast: microseconds, percentiles within 0.1% of the
   * channel's range; exact: up to 1M samples; auto: exact when it may.
   */
  stats(ref: ChannelRef, t0: Ms, t1: Ms, mode: StatsMode = 'auto'): WindowStats {
    const channel = this.channel(ref);
    checkWindow(t0, t1);
    const { s, e } = sampleRange(channel, t0, t1);
    return windowStats(this.wasm, this.heap, channel.handle, s, e, mode);
  }

  /**
   * Histogram of the valid samples of [t0, t1) over `edges` (bins
   * [edges[i], edges[i+1]), the last one closed), with counts inside the
   * moderate and severe threshold bands when `bands` is given.
   */
  histogram(ref: ChannelRef, t0: Ms, t1: Ms, edges: ArrayLike<number>, bands?: ThresholdBands): HistogramResult {
    const channel = this.channel(ref);
    checkWindow(t0, t1);
    checkEdges(edges);
    if (bands !== undefined) checkBands(bands);
    const { s, e } = sampleRange(channel, t0, t1);
    return histogramOf(this.wasm, this.heap, channel.handle, s, e, edges, bands);
  }

  /**
   * Per-day statistics for trend views: day i runs from dayStarts[i] to
   * dayStarts[i+1] and its statistics cover it widened by the margin on both
   * ends (default 8 h, spec 2 §4). Day boundaries come from the caller so
   * time zones and DST stay out of the engine.
   */
  dailyStats(ref: ChannelRef, dayStarts: readonly Ms[], options: DailyOptions = {}): DayStats[] {
    const channel = this.channel(ref);
    const margin = options.marginMs ?? DAY_MARGIN_MS;
    checkDayStarts(dayStarts, margin);
    const mode = options.mode ?? 'auto';
    const days: DayStats[] = [];
    for (let i = 0; i + 1 < dayStarts.length; i++) {
      const start = dayStarts[i]!;
      const end = dayStarts[i + 1]!;
      const from = ms(start - margin);
      const to = ms(end + margin);
      const { s, e } = sampleRange(channel, from, to);
      days.push({ start, end, from, to, stats: windowStats(this.wasm, this.heap, channel.handle, s, e, mode) });
    }
    return days;
  }

  /** Memory currently held, see {@link EngineMemory}. */
  memory(): EngineMemory {
    return {
      liveBytes: this.wasm.liveBytes(),
      liveBlocks: this.wasm.liveBlocks(),
      heapBytes: this.wasm.memory.buffer.byteLength,
      channels: this.loaded.size,
    };
  }

  /** Closes every channel and releases the engine's scratch memory. */
  dispose(): void {
    for (const channel of this.loaded.values()) this.wasm.channelDestroy(channel.handle);
    this.loaded.clear();
    this.heap.dispose();
  }

  private channel(ref: ChannelRef): LoadedChannel {
    checkRef(ref);
    const channel = this.loaded.get(keyOf(ref));
    if (!channel) throw new EngineError('UNKNOWN_CHANNEL', `channel ${ref.code} of night ${ref.night} is not loaded`);
    return channel;
  }
}

/**
 * Loads engine/build/nocturne.wasm (browser: fetch of the Vite asset; Node:
 * file read) and returns a ready engine. Build it first with `npm run build:engine`.
 */
export async function loadEngine(): Promise<Engine> {
  return new Engine(await instantiateEngine());
}
