// Worker thread (piscina) of the sample reader (sample-reader.ts, decision 1005): a channel's
// stored bytes read from PostgreSQL on connections of its own, decoded (bytea comes as hex
// text) and joined here, off the event loop; the bytes are moved back, not copied.
import pg from 'pg';
import { Piscina } from 'piscina';
import { lowerThreadPriority } from '../services/thread-priority';

// Reading waits for the event loop, never the other way round (decision 1004).
lowerThreadPriority();

/** Where to read: a database and the schema to work in. */
export interface ReaderTarget {
  url: string;
  schema: string | null;
}

export type ReaderTask = { target: ReaderTarget; channelId: number; byteLength: number } | { target: ReaderTarget; close: true };

const pools = new Map<string, pg.Pool>();
const keyOf = (t: ReaderTarget) => `${t.schema ?? ''}\n${t.url}`;

function poolOf(t: ReaderTarget): pg.Pool {
  let pool = pools.get(keyOf(t));
  if (!pool) {
    // Two connections: a night's channels are read one after another, and an overview beside them.
    pool = new pg.Pool({ connectionString: t.url, max: 2, idleTimeoutMillis: 10_000, options: t.schema ? `-c search_path=${t.schema}` : undefined });
    // An idle connection that drops is reconnected by the next read; its error is that read's.
    pool.on('error', () => undefined);
    pools.set(keyOf(t), pool);
  }
  return pool;
}

/** The first `byteLength` bytes of a channel's chunks in order (fewer when fewer are stored), or null after a close. */
export default async function readSamples(task: ReaderTask): Promise<Uint8Array | null> {
  if ('close' in task) {
    const pool = pools.get(keyOf(task.target));
    pools.delete(keyOf(task.target));
    await pool?.end();
    return null;
  }
  const { rows } = await poolOf(task.target).query<{ data: Buffer }>('select data from recording_chunks where channel_id = $1 order by seq', [task.channelId]);
  const out = new Uint8Array(task.byteLength);
  let at = 0;
  for (const { data } of rows) {
    if (at === out.byteLength) break;
    const part = data.subarray(0, out.byteLength - at);
    out.set(part, at);
    at += part.byteLength;
  }
  const bytes = at === out.byteLength ? out : out.slice(0, at);
  return Piscina.move(bytes as never) as unknown as Uint8Array;
}
