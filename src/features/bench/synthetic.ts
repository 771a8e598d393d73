// Synthetic nights for the render benchmark, generated in the browser: breathing-like
// waves with heartbeat and noise at high rates, slow vitals at low rates, a few gaps.

export interface BenchParams {
  channels: number;
  /** Rate of the fast channels, Hz. */
  hz: number;
  hours: number;
  /** How many channels run at `hz`. */
  fast: number;
}

export interface BenchChannel {
  code: string;
  rate: number;
  samples: Float32Array;
}

/** Reads ?channels=16&hz=250&hours=10&fast=4 with those defaults. */
export function benchParams(search: string): BenchParams {
  const q = new URLSearchParams(search);
  const num = (key: string, fallback: number, max: number) => {
    const v = Number(q.get(key));
    return Number.isFinite(v) && v > 0 ? Math.min(v, max) : fallback;
  };
  const channels = Math.round(num('channels', 16, 64));
  return { channels, hz: num('hz', 250, 2000), hours: num('hours', 10, 24), fast: Math.min(channels, Math.round(num('fast', 4, 64))) };
}

/** Rates of the channels: `fast` at hz, then a few at 25 Hz, the rest at 1 Hz. */
export function benchRates(p: BenchParams): number[] {
  return Array.from({ length: p.channels }, (_, i) => (i < p.fast ? p.hz : i < p.fast + 4 ? 25 : 1));
}

/** One channel of `hours` at `rate`, deterministic for its index. */
export function synthChannel(index: number, rate: number, hours: number): BenchChannel {
  const n = Math.floor(hours * 3600 * rate);
  const samples = new Float32Array(n);
  let seed = (index + 1) * 2_654_435_761;
  const noise = () => {
    seed = (seed * 1_103_515_245 + 12_345) >>> 0;
    return seed / 4_294_967_296 - 0.5;
  };
  const breath = 0.25 + 0.02 * index;
  const base = 20 + 10 * index;
  for (let i = 0; i < n; i++) {
    const t = i / rate;
    const slow = Math.sin(t / 900 + index);
    if (rate >= 20) {
      samples[i] = Math.sin(2 * Math.PI * breath * t) * (1 + 0.3 * slow) + 0.08 * Math.sin(2 * Math.PI * 1.1 * t) + 0.05 * noise();
    } else {
      samples[i] = base + 3 * slow + Math.sin(t / 37) + noise();
    }
    // A one-minute gap every 47 minutes: the renderer must break lines there.
    if (t % 2820 < 60) samples[i] = -1;
  }
  return { code: `CH${String(index + 1).padStart(2, '0')}`, rate, samples };
}

