// A process's resident memory (Linux /proc), sampled while a benchmark runs.
import { readFile } from 'node:fs/promises';

/** Resident memory of a process now (bytes). */
export async function rssOf(pid: number): Promise<number> {
  const status = await readFile(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)![1]) * 1024;
}

/** Samples pid's RSS every `everyMs` from now until stop(), which resolves to the peak (bytes). */
export function sampleRss(pid: number, everyMs: number): { stop(): Promise<number> } {
  let peak = 0;
  let running = true;
  const sampler = (async () => {
    while (running) {
      peak = Math.max(peak, await rssOf(pid).catch(() => 0));
      await new Promise((r) => setTimeout(r, everyMs));
    }
  })();
  return {
    async stop() {
      running = false;
      await sampler;
      return peak;
    },
  };
}

/** Runs fn while sampling pid's RSS every 20 ms; returns fn's result and the peak (bytes). */
export async function peakRss<T>(pid: number, fn: () => Promise<T>): Promise<{ result: T; peak: number }> {
  const sampling = sampleRss(pid, 20);
  const result = await fn();
  return { result, peak: await sampling.stop() };
}
