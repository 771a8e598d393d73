import { literal } from './inline-sql';
import type { ProcedureArgs, ProcedureName, ProcedureResult } from './procedures';

/** A row as the drivers return it. */
type Row = Record<string, unknown>;

/** What both database drivers offer inside and outside a transaction. */
export interface Queryable {
  /**
   * Runs one parameterised statement ($1, $2, …) and returns its rows. With a `name`, PostgreSQL
   * parses and plans the statement once per connection (for hot paths; the same name must
   * always come with the same fixed SQL text). PGlite ignores it.
   */
  query<T = Row>(sql: string, params?: unknown[], name?: string): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(sql: string): Promise<void>;
  /**
   * Inside Db.procedure only: runs the transaction's last statement and commits, on
   * PostgreSQL in one round trip with the COMMIT (its parameters written into the text:
   * inline-sql.ts); nothing may follow it. Elsewhere absent: use query, the commit follows.
   * A `name` prepares it once per connection, as `query`'s does.
   */
  commitWith?<T = Row>(sql: string, params?: unknown[], name?: string): Promise<T[]>;
}

/** The database the server talks to: embedded PGlite or a PostgreSQL server. */
export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /**
   * Runs fn in one transaction: committed when it resolves, rolled back when it throws.
   * `settings`: transaction-local settings (set_config(…, true)) made before fn runs; on
   * PostgreSQL they go with the BEGIN, in the same round trip (a hot path's saving).
   */
  transaction<T>(fn: (tx: Queryable) => Promise<T>, settings?: Readonly<Record<string, string>>): Promise<T>;
  /**
   * Runs a procedure (procedures.ts) in one transaction where the database runs (decision
   * 1009): PGlite, in its own thread, every statement without a trip to this thread; PostgreSQL,
   * here, its BEGIN (and `settings`) sent with its first statement and its COMMIT with the
   * statement given to `commitWith`, so a procedure of two statements is two round trips, not
   * four. `settings` as for `transaction`.
   */
  procedure<N extends ProcedureName>(name: N, args: ProcedureArgs<N>, settings?: Readonly<Record<string, string>>): Promise<ProcedureResult<N>>;
  /**
   * Sends a NOTIFY on a channel of this database (and schema: tests share one PostgreSQL).
   * Every process listening on it gets the payload (≤ 7,000 bytes): between server
   * processes on PostgreSQL, within the process on PGlite (whose listeners are all in the
   * process that opened it: delivered there, not through the database's thread). Send
   * notices with this, not with pg_notify in SQL, which PGlite's listeners do not hear.
   * Several payloads go in one statement (one round trip), delivered in their order.
   */
  notify(channel: string, payload: string | readonly string[]): Promise<void>;
  /**
   * A channel's stored bytes read whole and fast, off the event loop: 'samples', its chunks in
   * order joined (the first `byteLength`; fewer when fewer are stored); 'wire', its gzipped
   * binary form (null when it has none). PostgreSQL: a reader thread with connections of its
   * own decodes the hex text bytea arrives as; PGlite: a binary COPY in the database's thread,
   * ten times faster than bytea's hex text. Never inside a transaction: only the Db has it,
   * not a transaction's Queryable, whose own connection sees its own writes.
   */
  readChannelBytes(channelId: number, what: 'samples' | 'wire', byteLength?: number): Promise<Uint8Array | null>;
  /** Listens on a channel; resolves to a function that stops listening. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  /**
   * The same database for the live path (device frames, their fan-out): on PostgreSQL a few
   * connections of its own, so a frame never queues for a connection behind a burst of
   * requests' queries; PGlite has one connection, and gives itself. Closed with this Db; its
   * own close() does nothing.
   */
  live(): Db;
  close(): Promise<void>;
}

/** `select set_config(name, value, true), …` for a transaction's settings (names and values quoted as literals). */
export function localSettingsSql(settings: Readonly<Record<string, string>>): string {
  return `select ${Object.entries(settings)
    .map(([name, value]) => `set_config(${literal(name)}, ${literal(value)}, true)`)
    .join(', ')}`;
}

/** Takes a transaction-scoped advisory lock so concurrent starts serialise. */
export async function lockForSetup(tx: Queryable, key: number): Promise<void> {
  await tx.query('select pg_advisory_xact_lock($1)', [key]);
}
