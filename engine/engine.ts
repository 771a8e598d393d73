import {
  DAY_MARGIN_MS, EXACT_MAX_SAMPLES, MISSING_CODES, NON_POSITIVE_MISSING_CHANNELS, VIEW_BYTES_PER_COLUMN,
} from './constants';
import { EngineError } from './errors';
import { Heap } from './heap';
import { endTime, sampleRange, viewGeometry, type ChannelClock } from './time';
import type {
  ChannelInfo, ChannelInput, ChannelRef, DailyOptions, DayStats, HistogramResult, StatsMode,
  ThresholdBands, ViewResult, WindowStats,
} from './types';
import { ms, type Ms, type Px } from './units';
import {
  checkBands, checkChannelInput, checkDayStarts, checkEdges, checkPixels, checkRef, checkWindow,
} from './validate';
import { hasWasmSimd, instantiateEngine, type WasmExports } from './wasm';

/** Version of the signal engine, reported by `info()`. */
export const ENGINE_VERSION = '0.2.0';

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

interface LoadedChannel extends ChannelClock {
  handle: number;
  info: ChannelInfo;
}

const STATS_SLOTS = 7;

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
    const n = input.samples.length;
    const codes = input.missingCodes ?? MISSING_CODES;
    const nonPositive = input.nonPositiveMissing ?? NON_POSITIVE_MISSING_CHANNELS.includes(input.code.toUpperCase());
    const handle = this.wasm.channelCreate(n);
    try {
      this.heap.withF64(codes, (codesPtr) => {
        const { samples } = input;
        if (samples instanceof Float32Array) {
          const values = this.wasm.channelValues(handle);
          new Float32Array(this.heap.buffer, values, n).set(samples);
          this.wasm.channelConvertF32(handle, values, input.scale ?? 1, input.offset ?? 0, codesPtr, codes.length, nonPositive);
        } else {
          this.heap.withBlock(n * 2, (raw) => {
            new Int16Array(this.heap.buffer, raw, n).set(samples);
            this.wasm.channelConvertI16(handle, raw, input.scale ?? 1, input.offset ?? 0, codesPtr, codes.length, nonPositive);
          });
        }
      });
      this.wasm.channelBuild(handle);
    } catch (error) {
      this.wasm.channelDestroy(handle);
      throw new EngineError('ENGINE_FAILURE', `loading channel ${input.code} of night ${input.night} failed: ${String(error)}`);
    }
    const validCount = this.wasm.channelValidCount(handle);
    const clock: ChannelClock = { t0Ms: input.t0Ms, sampleRateHz: input.sampleRateHz, count: n };
    const info: ChannelInfo = {
      night: input.night,
      code: input.code,
      sampleRateHz: input.sampleRateHz,
      t0Ms: input.t0Ms,
      t1Ms: endTime(clock),
      count: n,
      validCount,
      missingFraction: n === 0 ? 0 : (n - validCount) / n,
      min: validCount ? this.wasm.channelLo(handle) : NaN,
      max: validCount ? this.wasm.channelHi(handle) : NaN,
      sampleBytes: n * 4,
      indexBytes: this.wasm.channelIndexBytes(handle),
    };
    this.loaded.set(key, { ...clock, handle, info });
    return info;
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
   * one call, one copy, and all results share one buffer to transfer.
   */
  views(refs: readonly ChannelRef[], t0: Ms, t1: Ms, pixels: Px): ViewResult[] {
    return this.runViews(refs, t0, t1, pixels, 'pyramid');
  }

  /** The same view computed by scanning every sample (benchmark peer and test oracle). */
  viewScan(ref: ChannelRef, t0: Ms, t1: Ms, pixels: Px): ViewResult {
    return this.runViews([ref], t0, t1, pixels, 'scan')[0]!;
  }

  private runViews(refs: readonly ChannelRef[], t0: Ms, t1: Ms, pixels: Px, how: 'pyramid' | 'scan'): ViewResult[] {
    const channels = refs.map((ref) => this.channel(ref));
    checkWindow(t0, t1);
    checkPixels(pixels);
    // Each view starts 4-byte aligned so its float32 arrays can view the shared buffer.
    const stride = Math.ceil((pixels * VIEW_BYTES_PER_COLUMN) / 4) * 4;
    const out = this.heap.scratch(stride * Math.max(1, channels.length));
    const kernel = how === 'pyramid' ? this.wasm.view : this.wasm.viewScan;
    let pxMs = ms(0);
    channels.forEach((channel, i) => {
      const geometry = viewGeometry(channel, t0, t1, pixels);
      pxMs = geometry.pxMs;
      kernel(channel.handle, geometry.a, geometry.b, pixels, pxMs, out + i * stride);
    });
    const buffer = this.heap.copyOut(out, stride * channels.length);
    return channels.map((_, i) => {
      const base = i * stride;
      const column = (k: number) => new Float32Array(buffer, base + k * pixels * 4, pixels);
      return {
        origin: t0, pixels, pxMs,
        x: column(0), first: column(1), min: column(2), max: column(3), last: column(4),
        flags: new Uint8Array(buffer, base + 5 * pixels * 4, pixels),
        buffer,
      };
    });
  }

  /**
   * Statistics of [t0, t1): count, missing fraction, min, max, mean, p10,
   * p50, p90 (spec 2 §5). fast: microseconds, percentiles within 0.1% of the
   * channel's range; exact: sorts, up to 1M samples; auto: exact when it may.
   */
  stats(ref: ChannelRef, t0: Ms, t1: Ms, mode: StatsMode = 'auto'): WindowStats {
    const channel = this.channel(ref);
    checkWindow(t0, t1);
    const { s, e } = sampleRange(channel, t0, t1);
    return this.windowStats(channel, s, e, mode);
  }

  private windowStats(channel: LoadedChannel, s: number, e: number, mode: StatsMode): WindowStats {
    const samples = e - s;
    if (mode !== 'fast' && mode !== 'exact' && mode !== 'auto') {
      throw new EngineError('INVALID_MODE', `stats mode must be fast, exact or auto, got ${String(mode)}`);
    }
    if (mode === 'exact' && samples > EXACT_MAX_SAMPLES) {
      throw new EngineError('WINDOW_TOO_LARGE', `exact statistics take at most ${EXACT_MAX_SAMPLES} samples; the window has ${samples}`);
    }
    const exact = mode === 'exact' || (mode === 'auto' && samples <= EXACT_MAX_SAMPLES);
    const out = this.heap.scratch(STATS_SLOTS * 8);
    if (exact) {
      this.heap.withBlock(samples * 8, (scratch) => this.wasm.statsExact(channel.handle, s, e, out, scratch));
    } else {
      this.wasm.statsFast(channel.handle, s, e, out);
    }
    const [count, min, max, mean, p10, p50, p90] = this.heap.readF64(out, STATS_SLOTS) as unknown as number[];
    const missingCount = samples - count!;
    return {
      mode: exact ? 'exact' : 'fast',
      samples,
      count: count!,
      missingCount,
      missingFraction: samples === 0 ? 0 : missingCount / samples,
      min: min!, max: max!, mean: mean!, p10: p10!, p50: p50!, p90: p90!,
    };
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
    const nBins = edges.length - 1;
    const out = this.heap.scratch((nBins + 2) * 8);
    const counts = this.heap.withF64(edges, (edgesPtr) => {
      this.wasm.histogramEdges(channel.handle, s, e, edgesPtr, edges.length, out);
      return this.heap.readF64(out, nBins + 2);
    });
    const below = counts[nBins]!;
    const above = counts[nBins + 1]!;
    const binCounts = counts.slice(0, nBins);
    const total = binCounts.reduce((sum, c) => sum + c, 0) + below + above;
    const result: HistogramResult = { edges: Float64Array.from(edges), counts: binCounts, below, above, total };
    if (bands !== undefined) result.bands = this.bandCounts(channel, s, e, bands);
    return result;
  }

  private bandCounts(channel: LoadedChannel, s: number, e: number, bands: ThresholdBands): HistogramResult['bands'] {
    const triplets = [
      ...bands.moderate.flatMap(([from, to]) => [from, to, 1]),
      ...bands.severe.flatMap(([from, to]) => [from, to, 2]),
    ];
    const out = this.heap.scratch(3 * 8);
    const [normal, moderate, severe] = this.heap.withF64(triplets, (ranges) => {
      this.wasm.bandCounts(channel.handle, s, e, ranges, triplets.length / 3, 3, out);
      return this.heap.readF64(out, 3);
    });
    return { normal: normal!, moderate: moderate!, severe: severe! };
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
      days.push({ start, end, from, to, stats: this.windowStats(channel, s, e, mode) });
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
