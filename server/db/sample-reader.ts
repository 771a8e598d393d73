// A night's samples read off the event loop on PostgreSQL (decision 1005): node-postgres gives
// bytea as hex text, and turning megabytes of it into bytes held the event loop for tens of
// milliseconds a night (a summary reads a few channels of 8 h). A worker thread with
// connections of its own reads, decodes and joins a channel's chunks and moves the bytes back.
// Only reads outside a transaction come here (a transaction's own connection sees its writes).
import { Piscina } from 'piscina';
import { asBuffer } from '../services/buffers';
import { workerExecArgv } from '../services/worker-argv';
import type { ReaderTarget, ReaderTask } from './sample-reader-worker';

/** The worker's entry (a compiled module's address in the test runs' compiled server). */
const WORKER = new URL('./sample-reader-worker.ts', import.meta.url).href;
let pool: Piscina<ReaderTask, Uint8Array | null> | null = null;

function readerPool(): Piscina<ReaderTask, Uint8Array | null> {
  if (pool) return pool;
  pool = new Piscina<ReaderTask, Uint8Array | null>({
    filename: WORKER,
    // One thread: reading waits on the database more than on the core.
    maxThreads: 1,
    minThreads: 0,
    idleTimeout: 30_000,
    execArgv: workerExecArgv(WORKER),
  });
  return pool;
}

/** A channel's stored bytes (Db.readChannelBytes): its chunks joined, or its gzipped binary form. */
export async function readOffThread(target: ReaderTarget, channelId: number, what: 'samples' | 'wire', byteLength?: number): Promise<Uint8Array | null> {
  const bytes = await readerPool().run({ target, channelId, what, byteLength: byteLength ?? null });
  // A Buffer, as the driver gives bytea (a thread's message gives a Uint8Array).
  return asBuffer(bytes);
}

/** Closes the reader's connections to a database (its Db is closing); the thread stops once idle. */
export async function closeSampleReader(target: ReaderTarget): Promise<void> {
  if (pool) await pool.run({ target, close: true });
}
