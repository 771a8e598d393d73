// Calls of the single-night screen. JSON through the app's client; channel samples as
// binary (the browser undoes the gzip), cached in IndexedDB.
import { call, download } from '../../api/client';
import { readChannel, writeChannel } from '../../cache/channelCache';
import { chartsFramed } from '../../charts/gl/stats';
import { decodeViews, type DecodedView } from '../../../engine/viewWire';
import type { NightInfo } from './types';

export const nightApi = {
  details: async (patientId: number) => (await call('GET /patient/details', { query: { patient_id: patientId } })).data.patient_info,
  nights: async (patientId: number) =>
    (await call('GET /patient/available-nights', { query: { patient_id: patientId } })).data.nights,
  preferences: async () => (await call('GET /physician/preferences')).data,
  saveOrder: (order: Record<string, boolean>) => call('POST /patient/update-kpi-preferences', { body: { new_sorted_array_kpis: order } }),
};

/**
 * A channel's version as the night list gives it (decision 1019), or null for a live night's
 * (it grows with every frame: neither read from nor kept in the cache) or a code it lacks.
 */
export function channelVersion(night: Pick<NightInfo, 'live' | 'channels'>, code: string): string | null {
  if (night.live) return null;
  return night.channels.find((c) => c.code === code)?.version ?? null;
}

/** Cache key of one channel of one recording, at its version: a channel whose samples changed (a session joined onto it) is another entry. */
const channelKey = (patientId: number, recordingId: number, code: string, version: string | null) => `${patientId}/${recordingId}/${code}@${version ?? 'live'}`;

/** Bytes asked for ahead of the screen that uses them, until it takes them. */
const prefetched = new Map<string, Promise<ArrayBuffer>>();
/** Aborts the prefetches of one recording (`patientId/recordingId`): leaving the night before its screen took them. */
const prefetchAborts = new Map<string, AbortController>();
const recordingKey = (patientId: number, recordingId: number) => `${patientId}/${recordingId}`;

/** The abort controller of a recording's prefetches (one per recording until it is aborted). */
function prefetchSignal(patientId: number, recordingId: number): AbortSignal {
  const key = recordingKey(patientId, recordingId);
  let controller = prefetchAborts.get(key);
  if (!controller || controller.signal.aborted) prefetchAborts.set(key, (controller = new AbortController()));
  return controller.signal;
}

/**
 * Aborts the downloads begun ahead of a night's screen that it has not taken (its channels'
 * bytes and overviews): leaving the night, or switching to another, stops them.
 */
export function abortPrefetched(patientId: number, recordingId: number): void {
  const key = recordingKey(patientId, recordingId);
  prefetchAborts.get(key)?.abort();
  prefetchAborts.delete(key);
  const prefix = `${key}/`;
  for (const k of [...prefetched.keys()]) if (k.startsWith(prefix)) {
    prefetched.delete(k);
    prefetchedAt.delete(k);
  }
  for (const k of [...prefetchedOverviews.keys()]) if (k.startsWith(prefix) && prefetchedOverviews.get(k)?.arrived === undefined) prefetchedOverviews.delete(k);
}
/** When each channel was last prefetched: a screen's re-renders do not ask again. */
const prefetchedAt = new Map<string, number>();
/** A prefetch nobody took is dropped after this long, and a channel is not prefetched again sooner, ms. */
const PREFETCH_KEEP_MS = 30_000;

/**
 * The longest a cached channel waits for a first paint drawn from overviews, ms: a safety
 * net only (that paint comes in the screen's first frames; a hidden tab has none until shown).
 */
const FIRST_PAINT_WAIT_MS = 5000;

/** Channels prefetched: the first charts' (more would compete with them for two busy cores; the loader streams the rest). */
const PREFETCH_CHANNELS = 3;

/**
 * Starts reading the first channels' bytes (cache or server) before the review screen
 * renders, so the downloads overlap its first render. Idempotent; the loader takes them
 * through `channelBytes`.
 */
export function prefetchChannels(patientId: number, night: Pick<NightInfo, 'recording_id' | 'live' | 'channels'>, codes: readonly string[]): void {
  const recordingId = night.recording_id;
  for (const code of codes.slice(0, PREFETCH_CHANNELS)) {
    const version = channelVersion(night, code);
    const key = channelKey(patientId, recordingId, code, version);
    const now = Date.now();
    if (now - (prefetchedAt.get(key) ?? -Infinity) < PREFETCH_KEEP_MS) continue;
    prefetchedAt.set(key, now);
    const bytes = readChannelBytes(key, patientId, recordingId, code, version, prefetchSignal(patientId, recordingId));
    // A failed prefetch is the loader's to report, when it asks for the channel.
    bytes.catch(() => undefined);
    prefetched.set(key, bytes);
    setTimeout(() => {
      if (prefetched.get(key) === bytes) prefetched.delete(key);
    }, PREFETCH_KEEP_MS);
  }
}

/** Drops every prefetch (logout: nothing of one session's nights stays for the next). */
export function forgetPrefetched(): void {
  for (const controller of prefetchAborts.values()) controller.abort();
  prefetchAborts.clear();
  prefetched.clear();
  prefetchedAt.clear();
  prefetchedOverviews.clear();
}

/**
 * The wire bytes of a channel at `version` (channelVersion; null: a live night's): prefetched,
 * else from the cache, else from the server (then cached). `signal` aborts the download (the
 * screen closed).
 */
export function channelBytes(patientId: number, recordingId: number, code: string, version: string | null, signal?: AbortSignal): Promise<ArrayBuffer> {
  const key = channelKey(patientId, recordingId, code, version);
  const early = prefetched.get(key);
  if (early) {
    prefetched.delete(key);
    return early;
  }
  return readChannelBytes(key, patientId, recordingId, code, version, signal);
}

async function readChannelBytes(key: string, patientId: number, recordingId: number, code: string, version: string | null, signal?: AbortSignal): Promise<ArrayBuffer> {
  const cached = version === null ? null : await readChannel(key, overviewsFirst(patientId, recordingId));
  if (cached) return cached;
  const query = { patient_id: patientId, recording_id: recordingId, code, ...(version === null ? {} : { v: version }) };
  const response = await download('GET /analytics/patient/channel-data', 'application/octet-stream', { query }, { signal });
  const bytes = await response.arrayBuffer();
  // Kept only as the version asked for: bytes that changed since the night list was read (a
  // session joined onto the channel) are drawn, not kept under a version they are not.
  // The chart does not wait for the cache: the write takes its own copy and logs its own failure.
  if (version !== null && response.headers.get('x-channel-version') === version) void writeChannel(key, bytes);
  return bytes;
}

/**
 * With the night's overviews asked for (a reload), its first charts draw from them: a cached
 * channel (megabytes copied on this thread) is read after that frame (the first with chart
 * data, on screen or below the fold: what the screen shows first may need the channel itself,
 * as the navigator's strip does). Decided when the read starts, for overviews still on their
 * way too (a prefetch that started before they arrived read its channel ahead of the first
 * frame on a loaded machine); overviews that failed let the channel go at once. Undefined
 * without any overview asked for.
 */
function overviewsFirst(patientId: number, recordingId: number): (() => Promise<void>) | undefined {
  const prefix = `${patientId}/${recordingId}/`;
  const asked = [...prefetchedOverviews].filter(([key]) => key.startsWith(prefix)).map(([, entry]) => entry.views);
  if (asked.length === 0) return undefined;
  return async () => {
    await Promise.all(asked);
    if (arrivedOverviews(patientId, recordingId)) await chartsFramed(FIRST_PAINT_WAIT_MS);
  };
}

/** Overviews asked for before the screen that draws them exists: the channels asked and their views, by window. */
interface PrefetchedOverviews {
  codes: readonly string[];
  /** The channels' versions they were asked at (null: a live night's, or a request remembered without them). */
  versions: readonly string[] | null;
  window: { t0: number; t1: number; pixels: number };
  views: Promise<DecodedView[] | null>;
  /** The views once they arrived (null: the request failed). */
  arrived?: DecodedView[] | null;
}
const prefetchedOverviews = new Map<string, PrefetchedOverviews>();
const windowKey = (patientId: number, recordingId: number, t0: number, t1: number, pixels: number) => `${patientId}/${recordingId}/${t0}/${t1}/${pixels}@`;
const overviewKey = (patientId: number, recordingId: number, t0: number, t1: number, pixels: number, versions: readonly string[] | null) =>
  `${windowKey(patientId, recordingId, t0, t1, pixels)}${versions?.join(',') ?? 'any'}`;

/**
 * The versions of `codes` in a night as the night list gives them, in their order (decision
 * 1019): what an overview request carries so the browser keeps its answer under them; null
 * for a live night or a code the night lacks (then nothing is kept).
 */
export function overviewVersions(night: Pick<NightInfo, 'live' | 'channels'>, codes: readonly string[]): string[] | null {
  const versions = codes.map((code) => channelVersion(night, code));
  return versions.every((v) => v !== null) ? (versions as string[]) : null;
}

/** Whether prefetched overviews show `night` as the night list now gives it: at its channels' versions, or any for a live night (asked moments ago, kept by nobody). */
function showsNight(entry: PrefetchedOverviews, night: Pick<NightInfo, 'live' | 'channels'>): boolean {
  if (night.live) return true;
  const now = overviewVersions(night, entry.codes);
  return entry.versions !== null && now !== null && entry.versions.length === now.length && entry.versions.every((v, i) => v === now[i]);
}

/**
 * Starts fetching the overviews of `codes` at `versions` for one window before the charts ask
 * for them (idempotent per window and versions). The screen takes them when it asks for these
 * channels, at these versions, and this very window; anything else is asked for as usual.
 */
export function prefetchOverviews(patientId: number, recordingId: number, codes: readonly string[], versions: readonly string[] | null, t0: number, t1: number, pixels: number): void {
  const key = overviewKey(patientId, recordingId, t0, t1, pixels, versions);
  if (codes.length === 0 || prefetchedOverviews.has(key)) return;
  // A failed prefetch is null: the screen then asks again and reports its own failure.
  const views = fetchOverviews(patientId, recordingId, codes, versions, t0, t1, pixels, prefetchSignal(patientId, recordingId)).then((v) => v, () => null);
  const entry: PrefetchedOverviews = { codes: [...codes], versions: versions && [...versions], window: { t0, t1, pixels }, views };
  void views.then((v) => (entry.arrived = v));
  prefetchedOverviews.set(key, entry);
  setTimeout(() => {
    if (prefetchedOverviews.get(key)?.views === views) prefetchedOverviews.delete(key);
  }, PREFETCH_KEEP_MS);
}

/**
 * Prefetched overviews of a recording that have arrived, with their channels and window; null
 * when none has. With `night`, only overviews asked at its channels' current versions: a
 * reload's early request, remembered from an earlier visit, may predate a session joined since.
 */
export function arrivedOverviews(
  patientId: number,
  recordingId: number,
  night?: Pick<NightInfo, 'live' | 'channels'>,
): { codes: readonly string[]; window: { t0: number; t1: number; pixels: number }; views: DecodedView[] } | null {
  const prefix = `${patientId}/${recordingId}/`;
  for (const [key, entry] of prefetchedOverviews) {
    if (!key.startsWith(prefix) || !entry.arrived) continue;
    if (night && !showsNight(entry, night)) continue;
    return { codes: entry.codes, window: entry.window, views: entry.arrived };
  }
  return null;
}

/**
 * The server's overviews of a night's channels: the engine's view of [t0, t1) in `pixels`
 * columns of each, in the order of `codes` (a few kilobytes each, in one request; the
 * browser's HTTP cache keeps the answer for the next visit, under the channels' versions).
 * Taken from a prefetch of this window at these versions when one asked for every channel of `codes`.
 */
export async function channelOverviews(
  patientId: number,
  night: Pick<NightInfo, 'recording_id' | 'live' | 'channels'>,
  codes: readonly string[],
  t0: number,
  t1: number,
  pixels: number,
  signal?: AbortSignal,
): Promise<DecodedView[]> {
  const recordingId = night.recording_id;
  const prefix = windowKey(patientId, recordingId, t0, t1, pixels);
  const early = [...prefetchedOverviews].find(([key, e]) => key.startsWith(prefix) && codes.every((c) => e.codes.includes(c)) && showsNight(e, night))?.[1];
  if (early) {
    const views = await early.views;
    if (views) return codes.map((c) => views[early.codes.indexOf(c)]!);
  }
  return fetchOverviews(patientId, recordingId, codes, overviewVersions(night, codes), t0, t1, pixels, signal);
}

async function fetchOverviews(
  patientId: number,
  recordingId: number,
  codes: readonly string[],
  versions: readonly string[] | null,
  t0: number,
  t1: number,
  pixels: number,
  signal?: AbortSignal,
): Promise<DecodedView[]> {
  const query = { patient_id: patientId, recording_id: recordingId, code: [...codes], ...(versions ? { v: [...versions] } : {}), t0, t1, pixels };
  const response = await download('GET /analytics/patient/channel-overview', 'application/octet-stream', { query }, { signal });
  const views = decodeViews(new Uint8Array(await response.arrayBuffer()));
  if (views.length !== codes.length) throw new Error(`${views.length} overviews for ${codes.length} channels`);
  return views;
}
