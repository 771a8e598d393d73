// Full-night views of a channel for the first paint of the single-night screen (issue 14
// point 7): the engine's M4 view of the window the browser's chart asks for, computed here
// from the stored samples with the same WebAssembly, so the chart draws at once from a few
// kilobytes and the raw samples follow. The same window of the same stored channel gives
// the same bytes: results are kept (a bounded cache; a stored night's samples never change,
// a live night is never cached). Stage codes are mapped as the browser maps them.
import { hz, ms, px } from '../../engine/index';
import { encodeView } from '../../engine/viewWire';
import { mapStages, STAGES_CODE } from '../../engine/stages';
import type { Queryable } from '../db/adapter';
import { scratchNight, serverEngine } from '../services/engine';
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
  const samples = await loadSamples(db, channel);
  // Stages are charted mapped, as the browser's loader maps them.
  if (channel.code === STAGES_CODE) mapStages(samples, channel.scale, channel.offset_value);
  const engine = await serverEngine();
  const night = scratchNight(`overview-${channel.id}`);
  let bytes: Uint8Array;
  try {
    const info = engine.load({ night, code: channel.code, samples, sampleRateHz: hz(channel.sample_rate), t0Ms: ms(Number(channel.t0_ms)), scale: channel.scale, offset: channel.offset_value, missingCodes: channel.missing_codes });
    const view = engine.view({ night, code: channel.code }, ms(t0), ms(t1), px(pixels));
    bytes = encodeView(view, { min: info.min, max: info.max, count: info.count, validCount: info.validCount });
  } finally {
    engine.close(night);
  }
  if (cacheable) {
    cache.set(key, bytes);
    if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  }
  return bytes;
}
