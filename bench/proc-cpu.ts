// CPU time of groups of processes over a measurement (Linux /proc/<pid>/stat: utime + stime),
// to say which process bounds a benchmark. A group's processes are listed afresh at every
// sample (PostgreSQL backends come and go with the pools' connections); a process first seen
// after the start counts all its CPU time (it began during the measurement), one gone before
// the end counts what it had at its last sample.
import { readdirSync, readFileSync } from 'node:fs';

/** Clock ticks per second of /proc times (getconf CLK_TCK; 100 on Linux). */
const TICKS = 100;

/** utime + stime of a process in seconds, or null once it is gone. */
function cpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces, in parentheses): state is field 3, utime 14, stime 15.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / TICKS;
  } catch {
    // The process exited between listing and reading: its last sample stands.
    return null;
  }
}

/** Every process on the machine whose command name is `comm` (e.g. every PostgreSQL process, ours or not). */
export function pidsNamed(comm: string): number[] {
  const out: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/comm`, 'utf8').trim() === comm) out.push(Number(entry));
    } catch {
      // Gone since the listing.
    }
  }
  return out;
}

export interface CpuGroups {
  /** Samples every group now (call it every second or so while the measurement runs). */
  sample(): Promise<void>;
  /** CPU time of each group since start, as % of one core over the elapsed wall time, and the seconds. */
  stop(): Promise<Record<string, { cpuSeconds: number; pctOfOneCore: number }>>;
}

/** Starts measuring the groups' CPU time; `groups` name → the group's pids now. */
export async function cpuGroups(groups: Record<string, () => number[] | Promise<number[]>>, everyMs = 1000): Promise<CpuGroups> {
  const started = Date.now();
  const seen = new Map<string, Map<number, { first: number; last: number }>>();
  let first = true;
  const sample = async () => {
    for (const [name, list] of Object.entries(groups)) {
      let group = seen.get(name);
      if (!group) seen.set(name, (group = new Map()));
      for (const pid of await list()) {
        const s = cpuSeconds(pid);
        if (s === null) continue;
        const known = group.get(pid);
        if (known) known.last = s;
        else group.set(pid, { first: first ? s : 0, last: s });
      }
    }
    first = false;
  };
  await sample();
  let running = true;
  const loop = (async () => {
    while (running) {
      await new Promise((r) => setTimeout(r, everyMs));
      if (running) await sample();
    }
  })();
  return {
    sample,
    async stop() {
      running = false;
      await loop;
      await sample();
      const wall = (Date.now() - started) / 1000;
      const out: Record<string, { cpuSeconds: number; pctOfOneCore: number }> = {};
      for (const [name, group] of seen) {
        const cpu = [...group.values()].reduce((s, p) => s + (p.last - p.first), 0);
        out[name] = { cpuSeconds: Math.round(cpu * 100) / 100, pctOfOneCore: Math.round((cpu / wall) * 1000) / 10 };
      }
      return out;
    },
  };
}
