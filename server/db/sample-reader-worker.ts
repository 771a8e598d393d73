// Worker thread (piscina) of the sample reader (sample-reader.ts, decision 1005): a channel's
// stored bytes read from PostgreSQL on connections of its own, decoded (bytea comes as hex
// text) and joined here, off the event loop; the bytes are moved back, not copied.
import pg from 'pg';
import { Piscina } from 'piscina';
import { joinChunks, joinWire } from '../recordings/chunks';
import { lowerThreadPriority } from '../services/thread-priority';
import { ownBytes } from '../services/buffers';

// Reading waits for the event loop, never the other way round (decision 1004).
lowerThreadPriority();

/** Where to read: a database and the schema to work in. */
export interface ReaderTarget {
  url: string;
  schema: string | null;
}

export type ReaderTask = { target: ReaderTarget; channelId: number; what: 'samples' | 'wire'; byteLength: number | null } | { target: ReaderTarget; close: true };

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

/** A channel's stored bytes (Db.readChannelBytes), or null after a close or for a missing binary form. */
export default async function readChannel(task: ReaderTask): Promise<Uint8Array | null> {
  if ('close' in task) {
    const pool = pools.get(keyOf(task.target));
    pools.delete(keyOf(task.target));
    await pool?.end();
    return null;
  }
  if (task.what === 'wire') {
    const { rows } = await poolOf(task.target).query<{ gzip: Buffer }>('select gzip from recording_channel_wire where channel_id = $1 order by part', [task.channelId]);
    const joined = joinWire(rows.map((r) => r.gzip));
    return joined ? moved(joined) : null;
  }
  const { rows } = await poolOf(task.target).query<{ data: Buffer }>('select data from recording_chunks where channel_id = $1 order by seq', [task.channelId]);
  return moved(joinChunks(rows.map((r) => r.data), task.byteLength));
}

/** Bytes moved to the main thread: a copy of their own first when they share a buffer. */
function moved(bytes: Uint8Array): Uint8Array {
  return Piscina.move(ownBytes(bytes) as never) as unknown as Uint8Array;
}
