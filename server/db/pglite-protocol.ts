// The messages between the server's threads and the embedded database's own thread
// (pglite-thread.ts, decision 1005). Every request carries an id its reply repeats.
import type { ProcedureName } from './procedures';

/**
 * How many bytes of a channel one statement of the database's thread reads at most (decision
 * 1009): a summary reads whole 8–14 MB channels, and one COPY of them held the database
 * 70–100 ms while devices' acknowledgements waited behind it.
 */
export const READ_RANGE_BYTES = 1 << 20;

/** What a thread asks of the database. `tx`: the transaction it runs in (null: none). */
export type DbRequest =
  | { id: number; op: 'query'; sql: string; params: unknown[]; tx: number | null }
  | { id: number; op: 'exec'; sql: string; tx: number | null }
  | { id: number; op: 'begin'; settings: Readonly<Record<string, string>> | null }
  | { id: number; op: 'end'; tx: number; commit: boolean }
  | { id: number; op: 'channelBytes'; channelId: number; what: 'samples' | 'wire'; byteLength: number | null }
  | { id: number; op: 'procedure'; name: ProcedureName; args: unknown; settings: Readonly<Record<string, string>> | null }
  | { id: number; op: 'close' };

/** A database error as it crosses threads: its message and its fields (code, detail, constraint…). */
export interface DbErrorData {
  name: string;
  message: string;
  fields: Record<string, string | number | boolean | null>;
}

/** A reply: rows (a query; `bytea`: the names of its bytea columns), a transaction's id (begin), a channel's bytes, a procedure's result, or an error. */
export type DbReply =
  | { id: number; rows?: unknown[]; bytea?: string[]; tx?: number; bytes?: Uint8Array | null; result?: unknown; error?: undefined }
  | { id: number; error: DbErrorData };

/** The database thread's first message: ready, or why it could not open. */
export type DbStarted = { started: true } | { started: false; error: DbErrorData };

/** What the thread is given when it starts. */
export interface DbThreadData {
  dir: string | null;
  /** A data directory dumped by PGlite's dumpDataDir (tar), to start from. */
  from: ArrayBuffer | null;
}

/** An error's message and plain fields, to cross a thread. */
export function errorData(err: unknown): DbErrorData {
  const e = (err instanceof Error ? err : new Error(String(err))) as Error & Record<string, unknown>;
  const fields: DbErrorData['fields'] = {};
  for (const [k, v] of Object.entries(e)) {
    if (v === null || typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') fields[k] = v;
  }
  return { name: e.name, message: e.message, fields };
}

/** The error again on this side of the thread: an Error with the same message and fields. */
export function errorFrom(data: DbErrorData): Error {
  const err = Object.assign(new Error(data.message), data.fields);
  err.name = data.name;
  return err;
}
