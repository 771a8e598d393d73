import type { ChannelRef, EngineMemory, ViewResult } from '../engine/index';
import type { SignalApi } from './protocol';

/** Key of a channel in the pool's routing table. */
function keyOf(ref: ChannelRef): string {
  return `${ref.night}\u0000${ref.code}`;
}

/** Workers a pool may use on a machine with `cores` logical cores: min(4, cores - 1), at least 1. */
export function poolSize(cores: number | undefined): number {
  return Math.max(1, Math.min(4, (cores ?? 2) - 1));
}

/**
 * Spreads channels over several engines (one per worker): each channel is
 * loaded on the member holding the fewest samples and every query about it
 * goes there, so the 16 channels of a screen are computed in parallel.
 */
export function createSignalPool(members: readonly SignalApi[]): SignalApi {
  if (members.length === 0) throw new Error('a signal pool needs at least one member');
  const home = new Map<string, number>();
  const samples = members.map(() => 0);
  const sizes = new Map<string, number>();
  const memberOf = (ref: ChannelRef): SignalApi => members[home.get(keyOf(ref)) ?? 0]!;

  return {
    async info() {
      const infos = await Promise.all(members.map((m) => m.info()));
      return {
        version: infos[0]!.version,
        simd: infos.every((i) => i.simd),
        workers: infos.reduce((sum, i) => sum + i.workers, 0),
      };
    },
    sum: (data) => members[0]!.sum(data),
    async load(input) {
      const key = keyOf(input);
      const known = home.get(key);
      // Already loaded: its member refuses the duplicate and nothing changes.
      if (known !== undefined) return members[known]!.load(input);
      // Reserve before awaiting, so loads started together spread out.
      const index = samples.indexOf(Math.min(...samples));
      const count = Number(input.samples?.length) || 0;
      home.set(key, index);
      sizes.set(key, count);
      samples[index]! += count;
      try {
        return await members[index]!.load(input);
      } catch (error) {
        home.delete(key);
        sizes.delete(key);
        samples[index]! -= count;
        throw error;
      }
    },
    async close(night, code) {
      // Forgotten as the close is sent, not when it is done: a load of the same channel asked
      // for meanwhile (the night opened again) finds its own member, where it runs after this close.
      for (const [key, index] of home) {
        const [keyNight, keyCode] = key.split('\u0000');
        if (keyNight === night && (code === undefined || keyCode === code)) {
          samples[index]! -= sizes.get(key) ?? 0;
          home.delete(key);
          sizes.delete(key);
        }
      }
      const closed = await Promise.all(members.map((m) => m.close(night, code)));
      return closed.reduce((sum, n) => sum + n, 0);
    },
    async channels() {
      return (await Promise.all(members.map((m) => m.channels()))).flat();
    },
    view: (ref, t0, t1, pixels) => memberOf(ref).view(ref, t0, t1, pixels),
    async views(refs, t0, t1, pixels, recycle) {
      // One batch per member, computed in parallel, put back in order; the
      // recycled buffer goes to the largest batch.
      const batches = members.map(() => [] as number[]);
      refs.forEach((ref, i) => batches[home.get(keyOf(ref)) ?? 0]!.push(i));
      const largest = batches.reduce((best, b, m) => (b.length > batches[best]!.length ? m : best), 0);
      const results = new Array<ViewResult>(refs.length);
      await Promise.all(batches.map(async (indexes, m) => {
        if (indexes.length === 0) return;
        const views = await members[m]!.views(indexes.map((i) => refs[i]!), t0, t1, pixels, m === largest ? recycle : undefined);
        indexes.forEach((i, k) => { results[i] = views[k]!; });
      }));
      return results;
    },
    stats: (ref, t0, t1, mode) => memberOf(ref).stats(ref, t0, t1, mode),
    histogram: (ref, t0, t1, edges, bands) => memberOf(ref).histogram(ref, t0, t1, edges, bands),
    dailyStats: (ref, dayStarts, options) => memberOf(ref).dailyStats(ref, dayStarts, options),
    // Detection holds its own copies of the series: the member with the fewest samples runs it.
    analyse: (input) => members[samples.indexOf(Math.min(...samples))]!.analyse(input),
    async memory() {
      const all = await Promise.all(members.map((m) => m.memory()));
      return all.reduce<EngineMemory>(
        (sum, m) => ({
          liveBytes: sum.liveBytes + m.liveBytes,
          liveBlocks: sum.liveBlocks + m.liveBlocks,
          heapBytes: sum.heapBytes + m.heapBytes,
          channels: sum.channels + m.channels,
        }),
        { liveBytes: 0, liveBlocks: 0, heapBytes: 0, channels: 0 },
      );
    },
  };
}
