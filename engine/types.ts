import type { Hz, Ms, Px } from './units';

/** Names one loaded channel: the night it belongs to and its code (BR, HR, SPO2, …). */
export interface ChannelRef {
  night: string;
  code: string;
}

/** A channel to load. Samples are copied into the engine; the array is not kept. */
export interface ChannelInput extends ChannelRef {
  /** int16 or float32 stored values; physical = stored * scale + offset. */
  samples: Int16Array | Float32Array;
  sampleRateHz: Hz;
  /** Time of the first sample, ms UTC. */
  t0Ms: Ms;
  /** Default 1. */
  scale?: number;
  /** Default 0. */
  offset?: number;
  /** Sample count announced by the source (binary header); must match samples.length. */
  count?: number;
  /** Stored values that mean "missing"; default -1 and -2 (spec 2 §5). */
  missingCodes?: readonly number[];
  /** Whether any physical value <= 0 is missing; default true for SPO2 and PR. */
  nonPositiveMissing?: boolean;
}

/** What the engine knows about a loaded channel. */
export interface ChannelInfo extends ChannelRef {
  sampleRateHz: Hz;
  t0Ms: Ms;
  /** End of the recording: time of the last sample plus one sample period. */
  t1Ms: Ms;
  count: number;
  validCount: number;
  missingFraction: number;
  /** Smallest and largest valid values (NaN when none). */
  min: number;
  max: number;
  /** Bytes of the samples as the engine keeps them (float32). */
  sampleBytes: number;
  /** Bytes of the pyramid and histogram indexes. */
  indexBytes: number;
}

/**
 * An M4 view: per pixel column the first, min, max and last valid value
 * (NaN where the column has none), x rebased to `origin` (ms from origin,
 * column centres), and per-column flags (GAP_BEFORE). All arrays view
 * `buffer`, which is transferred between threads as a whole; the views of
 * one `views()` call share it.
 */
export interface ViewResult {
  origin: Ms;
  pixels: Px;
  /** Width of one column in ms. */
  pxMs: Ms;
  x: Float32Array;
  first: Float32Array;
  min: Float32Array;
  max: Float32Array;
  last: Float32Array;
  flags: Uint8Array;
  buffer: ArrayBuffer;
}

/** fast: block histograms (error ≤ 0.1% of the channel range); exact: sorting (≤ 1M samples); auto: exact when it may. */
export type StatsMode = 'fast' | 'exact' | 'auto';

/** Statistics of a time window. Values are NaN when no valid sample is in it. */
export interface WindowStats {
  mode: 'fast' | 'exact';
  /** Samples whose time falls in the window, valid or not. */
  samples: number;
  /** Valid samples. */
  count: number;
  missingCount: number;
  /** missingCount / samples (0 for a window without samples). */
  missingFraction: number;
  min: number;
  max: number;
  mean: number;
  p10: number;
  p50: number;
  p90: number;
}

/** An inclusive value range [from, to]. */
type ValueRange = readonly [from: number, to: number];

/** Threshold bands of a vital parameter (spec 2 §3); severe wins where they overlap. */
export interface ThresholdBands {
  moderate: readonly ValueRange[];
  severe: readonly ValueRange[];
}

/** Valid samples by band: normal = in neither band. */
export interface BandCounts {
  normal: number;
  moderate: number;
  severe: number;
}

/** Histogram of a window: counts[i] for [edges[i], edges[i+1]), the last bin closed. */
export interface HistogramResult {
  edges: Float64Array;
  counts: Float64Array;
  /** Valid samples below edges[0] and above the last edge. */
  below: number;
  above: number;
  /** Valid samples in the window. */
  total: number;
  bands?: BandCounts;
}

/** Statistics of one day, over [from, to) = the day widened by the margins. */
export interface DayStats {
  start: Ms;
  end: Ms;
  from: Ms;
  to: Ms;
  stats: WindowStats;
}

/** Options of per-day statistics. */
export interface DailyOptions {
  /** Padding on both ends of each day; default 8 h (spec 2 §4). */
  marginMs?: Ms;
  mode?: StatsMode;
}
