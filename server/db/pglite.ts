import { Worker } from 'node:worker_threads';
import { asBuffer } from '../services/buffers';
import { workerExecArgv } from '../services/worker-argv';
import type { Db, Queryable } from './adapter';
import { errorFrom, type DbReply, type DbRequest, type DbStarted, type DbThreadData } from './pglite-protocol';

/** A reply that is not an error. */
type DbAnswer = Extract<DbReply, { error?: undefined }>;

/** A request as the caller gives it: the id is added on sending. */
type Ask = DbRequest extends infer R ? (R extends DbRequest ? Omit<R, 'id'> : never) : never;

/**
 * A parameter as it crosses to the database's thread: a byte array that is a window on a larger
 * buffer is copied alone (a thread message copies a view's whole buffer).
 */
function portable(p: unknown): unknown {
  if (ArrayBuffer.isView(p) && p.byteLength !== p.buffer.byteLength) {
    const Ctor = p.constructor as new (src: ArrayBufferView) => ArrayBufferView;
    return p instanceof Buffer ? new Uint8Array(p) : new Ctor(p);
  }
  return p;
}

/** bytea values as Buffers, as the PostgreSQL driver returns them (a thread message gives Uint8Arrays). */
function withBuffers(rows: Record<string, unknown>[], bytea: string[]): void {
  for (const row of rows) {
    for (const name of bytea) {
      const v = row[name];
      if (v instanceof Uint8Array && !Buffer.isBuffer(v)) row[name] = asBuffer(v);
    }
  }
}

/** PostgreSQL refuses a NOTIFY payload of this many bytes or more. */
const NOTIFY_PAYLOAD_LIMIT = 8000;


/** Starts the database's thread; resolves once PGlite is open in it, rejects with why it could not. */
async function startThread(data: DbThreadData): Promise<Worker> {
  const entry = new URL('./pglite-thread.cjs', import.meta.url);
  const worker = new Worker(entry, { workerData: data, transferList: data.from ? [data.from] : [], execArgv: workerExecArgv(entry) });
  // Its first message says whether it opened; a thread that fails before that says why by its error or exit.
  let started: (m: DbStarted) => void = () => undefined;
  let failed: (err: Error) => void = () => undefined;
  let exited: (code: number) => void = () => undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      started = (m) => (m.started ? resolve() : reject(errorFrom(m.error)));
      failed = reject;
      exited = (code) => reject(new Error(`the embedded database's thread exited (${code}) before it opened`));
      worker.once('message', started).once('error', failed).once('exit', exited);
    });
  } catch (err) {
    await worker.terminate();
    throw err;
  } finally {
    worker.off('message', started).off('error', failed).off('exit', exited);
  }
  return worker;
}

/**
 * Requests to the database's thread and their replies. Idle, the thread does not keep the
 * process alive; a statement under way does. Once the thread is gone (closed, or stopped by
 * a failure), every request still waiting and every later one fails with the reason.
 */
function threadClient(worker: Worker) {
  const pending = new Map<number, { resolve: (r: DbAnswer) => void; reject: (err: Error) => void }>();
  let nextId = 1;
  let stopped: Error | null = null;
  worker.unref();
  const settle = (id: number) => {
    const p = pending.get(id);
    pending.delete(id);
    if (pending.size === 0) worker.unref();
    return p;
  };
  const stop = (err: Error) => {
    stopped ??= err;
    for (const id of [...pending.keys()]) settle(id)!.reject(stopped);
  };
  worker.on('message', (m: DbReply) => {
    const p = settle(m.id);
    if (!p) return;
    if (m.error) p.reject(errorFrom(m.error));
    else p.resolve(m);
  });
  worker.on('error', (err) => stop(new Error(`The embedded database stopped: ${err.message}`)));
  worker.on('exit', (code) => stop(new Error(`The embedded database stopped (its thread exited with ${code}).`)));
  return {
    ask(req: Ask): Promise<DbAnswer> {
      if (stopped) return Promise.reject(stopped);
      const id = nextId++;
      if (pending.size === 0) worker.ref();
      return new Promise((resolve, reject) => {
        pending.set(id, { resolve, reject });
        worker.postMessage({ ...req, id });
      });
    },
    /** Why the thread is gone, or null while it runs. */
    stopped: () => stopped,
    stop,
  };
}

/**
 * NOTIFY and LISTEN of an embedded database. Every listener of one is in the process that
 * opened it (it has no other): a NOTIFY goes to them here, in the order sent, without a round
 * trip through the database's thread.
 */
function localNotices(stopped: () => Error | null): Pick<Db, 'notify' | 'listen'> {
  const listeners = new Map<string, Set<(payload: string) => void>>();
  return {
    async notify(channel, payload) {
      const gone = stopped();
      if (gone) throw gone;
      const payloads = typeof payload === 'string' ? [payload] : payload;
      // PostgreSQL's own limit, kept so code that works here works there.
      if (payloads.some((p) => Buffer.byteLength(p) >= NOTIFY_PAYLOAD_LIMIT)) throw new Error(`payload string too long (NOTIFY payloads must be shorter than ${NOTIFY_PAYLOAD_LIMIT} bytes)`);
      for (const p of payloads) for (const onPayload of listeners.get(channel) ?? []) queueMicrotask(() => onPayload(p));
    },
    async listen(channel, onPayload) {
      const gone = stopped();
      if (gone) throw gone;
      const own = (p: string) => onPayload(p);
      let set = listeners.get(channel);
      if (!set) listeners.set(channel, (set = new Set()));
      set.add(own);
      return async () => {
        listeners.get(channel)?.delete(own);
      };
    },
  };
}

/**
 * Opens embedded PostgreSQL in a thread of its own (decision 1005): in a directory, or in
 * memory when dir is null; `from`, the bytes of a data directory dumped by PGlite's dumpDataDir
 * (copied, never changed), starts it as that copy instead of a new cluster. The event loop only sends statements and receives
 * rows; PGlite runs, parses and decodes in the database's thread.
 */
export async function openPglite(dir: string | null, from?: Uint8Array): Promise<Db> {
  // A copy of its own goes to the thread (moved there, not copied again; a Buffer's slice() would be a view).
  const data: DbThreadData = { dir, from: from ? (new Uint8Array(from).buffer as ArrayBuffer) : null };
  const worker = await startThread(data);
  const client = threadClient(worker);
  const { ask } = client;
  const on = (tx: number | null): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const r = await ask({ op: 'query', sql, params: params.map(portable), tx });
      const rows = (r.rows ?? []) as Record<string, unknown>[];
      if (r.bytea?.length) withBuffers(rows, r.bytea);
      return rows as T[];
    },
    async exec(sql: string) {
      await ask({ op: 'exec', sql, tx });
    },
  });

  const db: Db = {
    kind: 'pglite',
    ...on(null),
    async transaction(fn, settings) {
      const { tx } = await ask({ op: 'begin', settings: settings ?? null });
      let out;
      try {
        out = await fn(on(tx!));
      } catch (err) {
        // The statement's own error is the answer; a rollback that fails too (the thread gone) says nothing more.
        await ask({ op: 'end', tx: tx!, commit: false }).catch(() => undefined);
        throw err;
      }
      await ask({ op: 'end', tx: tx!, commit: true });
      return out;
    },
    async procedure(name, args, settings) {
      const { result } = await ask({ op: 'procedure', name, args, settings: settings ?? null });
      return result as never;
    },
    async readChannelBytes(channelId, what, byteLength) {
      const { bytes } = await ask({ op: 'channelBytes', channelId, what, byteLength: byteLength ?? null });
      return asBuffer(bytes);
    },
    ...localNotices(client.stopped),
    async close() {
      if (client.stopped()) return;
      await ask({ op: 'close' });
      client.stop(new Error('The embedded database is closed.'));
      await worker.terminate();
    },
    // One connection (the database's thread) serves every path: nothing to reserve.
    live: () => db,
  };
  return db;
}
