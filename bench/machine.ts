// What the whole machine's CPUs did over a measurement (Linux /proc/stat): how busy they were,
// and how much time the hypervisor gave to other guests (steal). Two runs of the same benchmark
// on the same code differed several-fold (bench:realtime's ingest ack p99 92 vs 925 ms); the
// steal beside each figure tells a slower machine from slower code.
import { readFileSync } from 'node:fs';

interface Jiffies {
  total: number;
  idle: number;
  steal: number;
}

function read(): Jiffies {
  // cpu user nice system idle iowait irq softirq steal guest guest_nice
  const f = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1, 9).map(Number);
  return { total: f.reduce((a, b) => a + b, 0), idle: f[3]! + f[4]!, steal: f[7]! };
}

export interface MachineCpu {
  /** Share of all CPUs' time spent working (ours and anything else on the machine), %. */
  busyPct: number;
  /** Share of all CPUs' time the hypervisor ran other guests instead of this machine, %. */
  stealPct: number;
}

/** Starts reading the machine's CPUs; stop() gives what they did since. */
export function machineCpu(): { stop(): MachineCpu } {
  const from = read();
  return {
    stop() {
      const to = read();
      const total = to.total - from.total || 1;
      const pct = (v: number) => Math.round((v / total) * 1000) / 10;
      return { busyPct: pct(total - (to.idle - from.idle) - (to.steal - from.steal)), stealPct: pct(to.steal - from.steal) };
    },
  };
}
