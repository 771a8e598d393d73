// Samples of one live channel, placed by their index in the recording: a frame, a resend
// after a reconnect and a read from storage land on the same slots, so gaps fill and
// duplicates cannot double a sample. Unfilled slots and the device's missing codes are NaN.
import type { WireChannel } from '../../../engine/wire';

const MISSING_CODES = new Set([-1, -2]);
const INITIAL_CAPACITY = 1024;

export class LiveSeries {
  private data = new Float32Array(INITIAL_CAPACITY).fill(Number.NaN);
  /** One past the highest filled index. */
  length = 0;
  /** Bumped on every write, so a plot redraws only when something changed. */
  version = 0;

  constructor(
    readonly code: string,
    readonly rate: number,
    readonly t0Ms: number,
    readonly missingCodes: boolean,
  ) {}

  /** Writes physical samples starting at index `at`. */
  put(at: number, samples: ArrayLike<number>): void {
    if (!Number.isInteger(at) || at < 0) return;
    this.reserve(at + samples.length);
    for (let i = 0; i < samples.length; i++) {
      const v = samples[i]!;
      this.data[at + i] = this.missingCodes && MISSING_CODES.has(v) ? Number.NaN : v;
    }
    this.length = Math.max(this.length, at + samples.length);
    this.version++;
  }

  /** Writes a stored channel (as GET /analytics/patient/channel-data sends it). */
  putWire(wire: WireChannel): void {
    const at = Math.round(((wire.t0 - this.t0Ms) * this.rate) / 1000);
    const missing = new Set(wire.missingCodes);
    const out = new Float32Array(wire.samples.length);
    for (let i = 0; i < out.length; i++) {
      const s = wire.samples[i]!;
      out[i] = missing.has(s) ? Number.NaN : s * wire.scale + wire.offset;
    }
    this.put(Math.max(0, at), out);
  }

  /** Time of sample i (ms UTC). */
  timeOf(i: number): number {
    return this.t0Ms + (i * 1000) / this.rate;
  }

  /** Time just after the newest sample. */
  get endMs(): number {
    return this.timeOf(this.length);
  }

  /** Index range [from, to) of the samples in [t0, t1). */
  indexRange(t0: number, t1: number): [number, number] {
    const from = Math.max(0, Math.ceil(((t0 - this.t0Ms) * this.rate) / 1000));
    const to = Math.min(this.length, Math.ceil(((t1 - this.t0Ms) * this.rate) / 1000));
    return [from, Math.max(from, to)];
  }

  /** A copy of the samples in [t0, t1). */
  slice(t0: number, t1: number): Float32Array {
    const [from, to] = this.indexRange(t0, t1);
    return this.data.slice(from, to);
  }

  /** The newest finite value, or null. */
  latest(): number | null {
    for (let i = this.length - 1; i >= 0 && i >= this.length - 600; i--) {
      const v = this.data[i]!;
      if (Number.isFinite(v)) return v;
    }
    return null;
  }

  /** Slots never written in [0, length): the gaps storage has not filled yet. */
  holes(): number {
    let n = 0;
    for (let i = 0; i < this.length; i++) if (Number.isNaN(this.data[i]!)) n++;
    return n;
  }

  /** Samples in [from, to) without copying (read-only use). */
  view(from: number, to: number): Float32Array {
    return this.data.subarray(from, to);
  }

  private reserve(n: number): void {
    if (n <= this.data.length) return;
    let size = this.data.length;
    while (size < n) size *= 2;
    const next = new Float32Array(size).fill(Number.NaN);
    next.set(this.data.subarray(0, this.length));
    this.data = next;
  }
}

/**
 * Min/max of each of `columns` columns of [t0, t1): 2 points a column (x in -1..1), the
 * y range of the finite values, and how many columns hold data. A column without samples
 * holds the last value only while it lies within two sample periods of it (columns narrower
 * than a sample); past that — a gap in the data, or time not recorded yet — it is NaN, which
 * draws nothing: the line never invents samples.
 */
export function columnsOf(series: LiveSeries, t0: number, t1: number, columns: number, out: Float32Array): { lo: number; hi: number; filled: number } {
  let lo = Infinity;
  let hi = -Infinity;
  let filled = 0;
  let last = Number.NaN;
  let lastColumn = -Infinity;
  const span = Math.max(1, t1 - t0);
  const holdColumns = ((2 * 1000) / series.rate) * (columns / span);
  // One view of the samples and plain index arithmetic (indexRange's, column by column): a
  // draw allocates nothing per column (16 tiles redraw several times a second).
  const values = series.view(0, series.length);
  const index = (t: number) => Math.ceil(((t - series.t0Ms) * series.rate) / 1000);
  let next = index(t0);
  for (let c = 0; c < columns; c++) {
    const start = next;
    next = index(t0 + (span * (c + 1)) / columns);
    const from = Math.max(0, start);
    const to = Math.max(from, Math.min(values.length, next));
    let mn = Infinity;
    let mx = -Infinity;
    for (let i = from; i < to; i++) {
      const v = values[i]!;
      if (v < mn) mn = v;
      if (v > mx) mx = v;
    }
    if (mn <= mx) {
      filled++;
      last = mx;
      lastColumn = c;
      lo = Math.min(lo, mn);
      hi = Math.max(hi, mx);
    } else {
      mn = mx = c - lastColumn <= holdColumns ? last : Number.NaN;
    }
    const x = -1 + (2 * (c + 0.5)) / columns;
    out[c * 4] = x;
    out[c * 4 + 1] = mn;
    out[c * 4 + 2] = x;
    out[c * 4 + 3] = mx;
  }
  return { lo, hi, filled };
}
