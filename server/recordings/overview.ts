// Full-night views of a channel for the first paint of the single-night screen (issue 14
// point 7): the engine's M4 view of the window the browser's chart asks for, computed here
// from the stored samples with the same WebAssembly, so the chart draws at once from a few
// kilobytes and the raw samples follow. The view is built in the engine's worker threads. The
// same window of the same stored channel gives the same bytes: results are kept (a bounded
// cache; a stored night's samples never change, a live night is never cached). Stage codes are
// mapped as the browser maps them.
import type { Queryable } from '../db/adapter';
import { onEngine } from '../services/engine-pool';
import { storedChannel } from '../services/engine-work';
import { loadSamples, type ChannelRow } from './store';

/** Overviews kept (each ≤ 8192 × 21 bytes: contract/recordings.ts caps the columns). */
const CACHE_ENTRIES = 512;
const cache = new Map<string, Uint8Array>();

/** The encoded view of [t0, t1) in `pixels` columns of a stored channel. */
export async function channelOverview(db: Queryable, channel: ChannelRow, t0: number, t1: number, pixels: number, cacheable: boolean): Promise<Uint8Array> {
  const key = `${channel.id}:${channel.sample_count}:${t0}:${t1}:${pixels}`;
  const hit = cache.get(key);
  if (hit) {
    cache.delete(key);
    cache.set(key, hit);
    return hit;
  }
  const bytes = await onEngine(async () => ({
    kind: 'overview' as const,
    label: `overview-${channel.id}`,
    channel: storedChannel(channel, await loadSamples(db, channel)),
    t0Ms: t0,
    t1Ms: t1,
    pixels,
  }));
  if (cacheable) {
    cache.set(key, bytes);
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  }
  return bytes;
}
