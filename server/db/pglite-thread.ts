// The embedded database in a thread of its own (decision 1005): PGlite's WebAssembly, the
// protocol's parsing and bytea decoding run here, off the event loop that acknowledges device
// frames and answers viewers. Requests come over message ports (the main thread's, and any it
// attaches); transactions hold PGlite's own lock from begin to end, as they do in-process.
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { joinChunks, joinWire } from '../recordings/chunks';
import { localSettingsSql, type Queryable } from './adapter';
import { runProcedure } from './procedures';
import { errorData, READ_RANGE_BYTES, type DbReply, type DbRequest, type DbStarted, type DbThreadData } from './pglite-protocol';
import { ownsBuffer } from '../services/buffers';

const BYTEA = 17;

/**
 * bytea read through Node's native hex codec (PGlite's own converts byte by byte in JS, ten
 * times slower for the megabytes of a night's samples), and written as it is: a byte array
 * handed to PGlite's protocol goes as a binary parameter, with no hex text made and measured.
 */
const byteaOptions = {
  parsers: { [BYTEA]: (text: string) => Buffer.from(text.slice(2), 'hex') },
  serializers: { [BYTEA]: (x: Uint8Array) => x as unknown as string },
};

/** A transaction of one port: its handle, and how it is ended (commit or not, the reply's id). */
interface OpenTx {
  tx: Transaction;
  end(commit: boolean, replyId: number): void;
}

/** Ends a transaction the caller asked to roll back (thrown inside PGlite's transaction). */
const ROLLBACK = Symbol('rollback');

/**
 * Byte arrays of a reply that own their memory whole, moved to the other thread instead of
 * copied. A small one shares Node's pool with others and is copied.
 */
function movable(rows: unknown[], bytea: string[]): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  if (bytea.length === 0) return out;
  for (const row of rows as Record<string, unknown>[]) {
    for (const name of bytea) {
      const v = row[name];
      if (v instanceof Uint8Array && ownsBuffer(v) && !out.includes(v.buffer)) out.push(v.buffer);
    }
  }
  return out;
}

/** The rows of a binary COPY (PGCOPY: header, then each row's fields; -1 fields end it), a null field as null. */
function copiedRows(copy: Uint8Array): (Uint8Array | null)[][] {
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  // 11-byte signature, int32 flags, int32 extension length and the extension.
  let at = 19 + view.getInt32(15);
  const rows: (Uint8Array | null)[][] = [];
  for (;;) {
    const fields = view.getInt16(at);
    at += 2;
    if (fields === -1) return rows;
    const row: (Uint8Array | null)[] = [];
    for (let f = 0; f < fields; f++) {
      const length = view.getInt32(at);
      at += 4;
      if (length === -1) {
        row.push(null);
        continue;
      }
      row.push(copy.subarray(at, at + length));
      at += length;
    }
    rows.push(row);
  }
}

async function copyRows(pg: PGlite, select: string): Promise<(Uint8Array | null)[][]> {
  const res = await pg.query(`copy (${select}) to '/dev/blob' with (format binary)`);
  return copiedRows(new Uint8Array(await res.blob!.arrayBuffer()));
}

/**
 * Lets the messages that arrived while a statement ran queue their statements before the next
 * one: ports deliver in the event loop's poll phase, which one immediate alone may not pass
 * through (called from a poll callback, it runs right after); the second runs after one.
 */
const letOthersIn = () => new Promise<void>((resolve) => setImmediate(() => setImmediate(resolve)));

const latin1 = new TextDecoder('latin1');

/** Where a channel's stored bytes are: its chunks (samples) or its binary form's parts (wire). */
function storedIn(what: 'samples' | 'wire') {
  return what === 'wire' ? { table: 'recording_channel_wire', key: 'part', bytes: 'gzip' } : { table: 'recording_chunks', key: 'seq', bytes: 'data' };
}

/**
 * A channel's stored bytes (Db.readChannelBytes) as binary COPYs: PGlite hands bytea to
 * queries as hex text, which it takes ten times as long to make as the bytes themselves
 * (1.4 MB: 17–21 ms against 1.7–2.1). The channel id is a whole number written into the
 * statement (COPY takes no parameters).
 *
 * More than READ_RANGE_BYTES are read in ranges of rows, other statements going between
 * them. The ranges are one state: a first statement lists the rows (key, size and the
 * transaction that wrote each version, `xmin`), and every range must return exactly those
 * versions; a row rewritten in between (a live night's compaction, a growing last chunk, a
 * deletion) fails the check and the channel is read again in one statement.
 */
async function channelBytes(pg: PGlite, channelId: number, what: 'samples' | 'wire', byteLength: number | null): Promise<Uint8Array | null> {
  if (!Number.isSafeInteger(channelId)) throw new Error(`channel id ${channelId} is not a whole number`);
  const { table, key, bytes } = storedIn(what);
  const join = (values: Uint8Array[]) => (what === 'wire' ? joinWire(values) : joinChunks(values, byteLength));
  const whole = async () => join((await copyRows(pg, `select ${bytes} from ${table} where channel_id = ${channelId} order by ${key}`)).map((r) => r[0]).filter((v): v is Uint8Array => v !== null));

  // A read known to be small goes in one statement, without the list.
  if (byteLength !== null && byteLength <= READ_RANGE_BYTES) return whole();
  const listed = await pg.query<{ k: number; n: number; x: string }>(
    `select ${key} as k, octet_length(${bytes}) as n, xmin::text as x from ${table} where channel_id = $1 order by ${key}`,
    [channelId],
  );
  // The rows the read needs: a live channel's later chunks are not part of the row it was asked for.
  const rows: { k: number; n: number; x: string }[] = [];
  let total = 0;
  for (const row of listed.rows) {
    if (byteLength !== null && total >= byteLength) break;
    rows.push(row);
    total += row.n;
  }
  if (total <= READ_RANGE_BYTES) return whole();

  const values: Uint8Array[] = [];
  for (let from = 0; from < rows.length; ) {
    let to = from;
    let size = rows[from].n;
    while (to + 1 < rows.length && size + rows[to + 1].n <= READ_RANGE_BYTES) size += rows[++to].n;
    if (from > 0) await letOthersIn();
    const got = await copyRows(pg, `select ${key}::text as k, xmin::text as x, ${bytes} from ${table} where channel_id = ${channelId} and ${key} between ${rows[from].k} and ${rows[to].k} order by ${key}`);
    if (got.length !== to - from + 1) return whole();
    for (let i = 0; i < got.length; i++) {
      const [k, x, data] = got[i];
      const want = rows[from + i];
      if (!k || !x || !data || latin1.decode(k) !== String(want.k) || latin1.decode(x) !== want.x) return whole();
      values.push(data);
    }
    from = to + 1;
  }
  return join(values);
}

/** A transaction of this thread as a procedure's Queryable: rows as the other threads get them (bytea as Buffers). */
function inThread(tx: Transaction): Queryable {
  return {
    query: async <T>(sql: string, params: unknown[] = []) => (await tx.query<T>(sql, params)).rows,
    exec: async (sql: string) => {
      await tx.exec(sql);
    },
  };
}

/** A transaction's local settings (Db.transaction's `settings`), made before its first statement. */
async function useSettings(tx: Transaction, settings: Readonly<Record<string, string>> | null): Promise<void> {
  if (settings && Object.keys(settings).length) await tx.query(localSettingsSql(settings));
}

/** A procedure (procedures.ts) in a transaction of its own, every statement in this thread. */
function procedure(pg: PGlite, m: Extract<DbRequest, { op: 'procedure' }>): Promise<unknown> {
  return pg.transaction(async (tx) => {
    await useSettings(tx, m.settings);
    return runProcedure(inThread(tx), m.name, m.args as never);
  });
}

function serve(pg: PGlite, port: MessagePort): void {
  const txs = new Map<number, OpenTx>();
  let nextTx = 1;
  const reply = (r: DbReply, transfer: ArrayBuffer[] = []) => port.postMessage(r, transfer);
  const fail = (id: number, err: unknown) => reply({ id, error: errorData(err) });
  /** Replies to `id` with what `work` gives (made into a reply by `answer`), or with its error. */
  const settle = <T>(id: number, work: Promise<T>, answer: (v: T) => [DbReply, ArrayBuffer[]?]): void => {
    work.then((v) => reply(...answer(v)), (err: unknown) => fail(id, err));
  };
  const target = (tx: number | null) => {
    if (tx === null) return pg;
    const open = txs.get(tx);
    if (!open) throw new Error(`transaction ${tx} is not open`);
    return open.tx;
  };

  const begin = (id: number, settings: Readonly<Record<string, string>> | null) => {
    let endReply: number | null = null;
    pg.transaction(async (tx) => {
      await useSettings(tx, settings);
      const txId = nextTx++;
      const ended = new Promise<boolean>((resolve) => {
        txs.set(txId, {
          tx,
          end: (commit, replyId) => {
            endReply = replyId;
            resolve(commit);
          },
        });
      });
      reply({ id, tx: txId });
      const commit = await ended;
      txs.delete(txId);
      if (!commit) throw ROLLBACK;
    }).then(
      () => reply({ id: endReply! }),
      (err: unknown) => {
        if (endReply === null) fail(id, err);
        else if (err === ROLLBACK) reply({ id: endReply });
        else fail(endReply, err);
      },
    );
  };

  port.on('message', (m: DbRequest) => {
    switch (m.op) {
      case 'query':
        settle(m.id, (async () => target(m.tx).query<Record<string, unknown>>(m.sql, m.params))(), (res) => {
          const bytea = res.fields.filter((f) => f.dataTypeID === BYTEA).map((f) => f.name);
          return [{ id: m.id, rows: res.rows, bytea }, movable(res.rows, bytea)];
        });
        return;
      case 'exec':
        settle(m.id, (async () => target(m.tx).exec(m.sql))(), () => [{ id: m.id }]);
        return;
      case 'begin':
        begin(m.id, m.settings);
        return;
      case 'end': {
        const open = txs.get(m.tx);
        if (open) open.end(m.commit, m.id);
        else fail(m.id, new Error(`transaction ${m.tx} is not open`));
        return;
      }
      case 'channelBytes':
        settle(m.id, channelBytes(pg, m.channelId, m.what, m.byteLength), (bytes) => [{ id: m.id, bytes }, bytes ? [bytes.buffer as ArrayBuffer] : []]);
        return;
      case 'procedure':
        settle(m.id, procedure(pg, m), (result) => [{ id: m.id, result }]);
        return;
      case 'close':
        settle(m.id, pg.close(), () => [{ id: m.id }]);
        return;
    }
  });
  // A thread that went away mid-transaction leaves nothing locked: what it had open rolls back.
  port.on('close', () => {
    for (const [txId, open] of txs) open.end(false, -txId);
  });
}

/**
 * A dump (dumpDataDir's tar) as PGlite's loadDataDir reads it: PGlite asks it only for its
 * bytes (arrayBuffer()) and its type (a gzip type would be unzipped). Not a Node Blob: Node 20's
 * Blob.arrayBuffer() copies a 30-MB dump in 64-kB reads, 0.2–0.5 CPU-s a start (decision 1012).
 */
function dumpOf(bytes: ArrayBuffer): Blob {
  return { type: '', size: bytes.byteLength, arrayBuffer: async () => bytes } as unknown as Blob;
}

async function main(): Promise<void> {
  const port = parentPort!;
  const { dir, from } = workerData as DbThreadData;
  let pg: PGlite;
  try {
    pg = await PGlite.create({ ...(dir ? { dataDir: dir } : {}), ...(from ? { loadDataDir: dumpOf(from) } : {}), ...byteaOptions });
  } catch (err) {
    port.postMessage({ started: false, error: errorData(err) } satisfies DbStarted);
    return;
  }
  serve(pg, port);
  // Further ports (another thread's own connection) arrive as { attach: port }.
  port.on('message', (m: { attach?: MessagePort }) => {
    if (m.attach) serve(pg, m.attach);
  });
  port.postMessage({ started: true } satisfies DbStarted);
}

void main();
