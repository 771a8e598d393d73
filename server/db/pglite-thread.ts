// The embedded database in a thread of its own (decision 1005): PGlite's WebAssembly, the
// protocol's parsing and bytea decoding run here, off the event loop that acknowledges device
// frames and answers viewers. Requests come over message ports (the main thread's, and any it
// attaches); transactions hold PGlite's own lock from begin to end, as they do in-process.
import { PGlite, type Transaction } from '@electric-sql/pglite';
import { parentPort, workerData, type MessagePort } from 'node:worker_threads';
import { joinChunks, joinWire } from '../recordings/chunks';
import { localSettingsSql } from './adapter';
import { errorData, type DbReply, type DbRequest, type DbStarted, type DbThreadData } from './pglite-protocol';
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

/** The bytea values of a binary COPY of one column (PGCOPY: header, then each row's fields; -1 fields end it), null ones left out. */
function copiedValues(copy: Uint8Array): Uint8Array[] {
  const view = new DataView(copy.buffer, copy.byteOffset, copy.byteLength);
  // 11-byte signature, int32 flags, int32 extension length and the extension.
  let at = 19 + view.getInt32(15);
  const out: Uint8Array[] = [];
  for (;;) {
    const fields = view.getInt16(at);
    at += 2;
    if (fields === -1) return out;
    for (let f = 0; f < fields; f++) {
      const length = view.getInt32(at);
      at += 4;
      if (length === -1) continue;
      out.push(copy.subarray(at, at + length));
      at += length;
    }
  }
}

/**
 * A channel's stored bytes (Db.readChannelBytes) as a binary COPY: PGlite hands bytea to
 * queries as hex text, which it takes ten times as long to make as the bytes themselves
 * (1.4 MB: 17–21 ms against 1.7–2.1). The channel id is a whole number written into the
 * statement (COPY takes no parameters).
 */
async function channelBytes(pg: PGlite, channelId: number, what: 'samples' | 'wire', byteLength: number | null): Promise<Uint8Array | null> {
  if (!Number.isSafeInteger(channelId)) throw new Error(`channel id ${channelId} is not a whole number`);
  const select = what === 'wire' ? `select gzip from recording_channel_wire where channel_id = ${channelId} order by part` : `select data from recording_chunks where channel_id = ${channelId} order by seq`;
  const res = await pg.query(`copy (${select}) to '/dev/blob' with (format binary)`);
  const values = copiedValues(new Uint8Array(await res.blob!.arrayBuffer()));
  if (what === 'wire') return joinWire(values);
  return joinChunks(values, byteLength);
}

function serve(pg: PGlite, port: MessagePort): void {
  const txs = new Map<number, OpenTx>();
  let nextTx = 1;
  const reply = (r: DbReply, transfer: ArrayBuffer[] = []) => port.postMessage(r, transfer);
  const fail = (id: number, err: unknown) => reply({ id, error: errorData(err) });
  const target = (tx: number | null) => {
    if (tx === null) return pg;
    const open = txs.get(tx);
    if (!open) throw new Error(`transaction ${tx} is not open`);
    return open.tx;
  };

  const begin = (id: number, settings: Readonly<Record<string, string>> | null) => {
    let endReply: number | null = null;
    pg.transaction(async (tx) => {
      if (settings && Object.keys(settings).length) await tx.query(localSettingsSql(settings));
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
        void (async () => {
          try {
            const res = await target(m.tx).query<Record<string, unknown>>(m.sql, m.params);
            const bytea = res.fields.filter((f) => f.dataTypeID === BYTEA).map((f) => f.name);
            reply({ id: m.id, rows: res.rows, bytea }, movable(res.rows, bytea));
          } catch (err) {
            fail(m.id, err);
          }
        })();
        return;
      case 'exec':
        target(m.tx).exec(m.sql).then(() => reply({ id: m.id }), (err: unknown) => fail(m.id, err));
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
        channelBytes(pg, m.channelId, m.what, m.byteLength).then(
          (bytes) => reply({ id: m.id, bytes }, bytes ? [bytes.buffer as ArrayBuffer] : []),
          (err: unknown) => fail(m.id, err),
        );
        return;
      case 'close':
        pg.close().then(() => reply({ id: m.id }), (err: unknown) => fail(m.id, err));
        return;
    }
  });
  // A thread that went away mid-transaction leaves nothing locked: what it had open rolls back.
  port.on('close', () => {
    for (const [txId, open] of txs) open.end(false, -txId);
  });
}

async function main(): Promise<void> {
  const port = parentPort!;
  const { dir, from } = workerData as DbThreadData;
  let pg: PGlite;
  try {
    pg = await PGlite.create({ ...(dir ? { dataDir: dir } : {}), ...(from ? { loadDataDir: new Blob([from]) } : {}), ...byteaOptions });
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
