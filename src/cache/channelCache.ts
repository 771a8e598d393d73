// Local cache of channel data (spec 2 §9): an IndexedDB database with two stores,
// channel data and access time. Entries not read for 7 days are deleted a few seconds
// after it opens (the sweep's read-write transaction would otherwise hold up the first
// screen's reads); logout clears it. Without IndexedDB every call quietly does nothing.
import { openDB, type DBSchema, type IDBPDatabase } from 'idb';

const CACHE_DB = 'nocturne-cache';
const CACHE_MAX_AGE_MS = 604_800_000;
const STORE_DATA = 'channel-data';
const STORE_ACCESS = 'access-time';
/** Delay of the expiry sweep after the cache opens, ms. */
const SWEEP_DELAY_MS = 5_000;

interface CacheSchema extends DBSchema {
  'channel-data': { key: string; value: ArrayBuffer };
  'access-time': { key: string; value: number };
}

let opening: Promise<IDBPDatabase<CacheSchema> | null> | null = null;

/** Keys whose access time is older than maxAge at `now` (pure; the open-time sweep uses it). */
export function expiredKeys(entries: readonly (readonly [string, number])[], now: number, maxAge = CACHE_MAX_AGE_MS): string[] {
  return entries.filter(([, at]) => now - at > maxAge).map(([key]) => key);
}

async function open(): Promise<IDBPDatabase<CacheSchema> | null> {
  if (typeof indexedDB === 'undefined') return null;
  try {
    const db = await openDB<CacheSchema>(CACHE_DB, 1, {
      upgrade(d) {
        d.createObjectStore(STORE_DATA);
        d.createObjectStore(STORE_ACCESS);
      },
    });
    setTimeout(() => void sweep(db), SWEEP_DELAY_MS);
    return db;
  } catch (error) {
    console.warn('Channel cache unavailable', error);
    return null;
  }
}

/** Deletes the entries not read for CACHE_MAX_AGE_MS. */
async function sweep(db: IDBPDatabase<CacheSchema>): Promise<void> {
  try {
    const tx = db.transaction([STORE_DATA, STORE_ACCESS], 'readwrite');
    const access = tx.objectStore(STORE_ACCESS);
    const keys = await access.getAllKeys();
    const times = await access.getAll();
    const expired = expiredKeys(keys.map((k, i) => [k, times[i]!] as const), Date.now());
    await Promise.all([...expired.flatMap((key) => [tx.objectStore(STORE_DATA).delete(key), access.delete(key)]), tx.done]);
  } catch (error) {
    console.warn('Channel cache sweep failed', error);
  }
}

function db(): Promise<IDBPDatabase<CacheSchema> | null> {
  opening ??= open();
  return opening;
}

/**
 * Cached bytes of a channel, or null; a hit refreshes its access time. With `before`, a
 * cached channel is read only once that resolves (the bytes are copied on the main thread;
 * a miss answers at once, so the network is not held back).
 */
export async function readChannel(key: string, before?: () => Promise<void>): Promise<ArrayBuffer | null> {
  const d = await db();
  if (!d) return null;
  try {
    if (before) {
      if ((await d.getKey(STORE_DATA, key)) === undefined) return null;
      await before();
    }
    const bytes = await d.get(STORE_DATA, key);
    if (!bytes) return null;
    d.put(STORE_ACCESS, Date.now(), key).catch((error: unknown) => console.warn('Channel cache access time not saved', key, error));
    return bytes;
  } catch (error) {
    console.warn('Channel cache read failed', key, error);
    return null;
  }
}

/** Stores a channel's bytes with the current access time. */
export async function writeChannel(key: string, bytes: ArrayBuffer): Promise<void> {
  const d = await db();
  if (!d) return;
  try {
    const tx = d.transaction([STORE_DATA, STORE_ACCESS], 'readwrite');
    await Promise.all([tx.objectStore(STORE_DATA).put(bytes, key), tx.objectStore(STORE_ACCESS).put(Date.now(), key), tx.done]);
  } catch (error) {
    console.warn('Channel cache write failed', key, error);
  }
}

/** Empties both stores (logout). */
export async function clearChannelCache(): Promise<void> {
  const d = await db();
  if (!d) return;
  try {
    const tx = d.transaction([STORE_DATA, STORE_ACCESS], 'readwrite');
    await Promise.all([tx.objectStore(STORE_DATA).clear(), tx.objectStore(STORE_ACCESS).clear(), tx.done]);
  } catch (error) {
    console.warn('Channel cache could not be cleared', error);
  }
}
