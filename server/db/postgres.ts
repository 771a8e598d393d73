import pg from 'pg';
import { localSettingsSql, type Db, type Queryable } from './adapter';
import { isDatabaseOutage } from '../errors';
import { fallbackLogger, type Logger } from '../log';
import { closeSampleReader, readOffThread } from './sample-reader';
import { runProcedure } from './procedures';
import { inlineArgs, inlineParams } from './inline-sql';

export interface PostgresOptions {
  url: string;
  /** Schema to work in (tests isolate each run in its own schema). */
  schema?: string;
  /** Where connection trouble is reported (the server's logger; stdout when not given). */
  log?: Logger;
}

/** int8 as a JS number (ms timestamps and counts stay far below 2^53), as PGlite returns it. */
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === pg.types.builtins.INT8 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** The request path's connections per process. */
const POOL_MAX = 10;
/**
 * The live path's own connections per process (Db.live): the group commit's lanes (two), the
 * NOTIFYs of committed batches and the read of other processes' frames. Under a burst of
 * requests the main pool's queue holds their queries; a frame batch waiting there behind them
 * had its ack, and every viewer's frame, wait too (bench:scale).
 */
const LIVE_POOL_MAX = 4;

const newPool = (opts: PostgresOptions, max: number, log: Logger): pg.Pool => {
  const pool = new pg.Pool({
    connectionString: opts.url,
    max,
    types,
    connectionTimeoutMillis: 5_000,
    options: opts.schema ? `-c search_path=${opts.schema}` : undefined,
  });
  // A pool error on an idle client must not crash the server; the next query reconnects.
  // An idle connection dropped because the database went away is the outage the request path
  // reports once (OutageLog); anything else is logged here.
  pool.on('error', (err) => {
    if (!isDatabaseOutage(err)) log.error(`PostgreSQL connection error: ${err.message}`);
  });
  return pool;
};

/** Connects to a PostgreSQL server; fails fast when it cannot be reached. */
export async function openPostgres(opts: PostgresOptions): Promise<Db> {
  const log = opts.log ?? fallbackLogger();
  const pool = newPool(opts, POOL_MAX, log);
  const probe = await pool.connect().catch(async (err: Error) => {
    await pool.end().catch(() => undefined);
    throw err;
  });
  probe.release();

  // NOTIFY channels are per database; a schema of its own (tests) gets channels of its own.
  const schema = opts.schema ?? /search_path=(\w+)/.exec(decodeURIComponent(opts.url))?.[1];
  const shared: Shared = {
    scoped: (channel: string) => (schema ? `${channel}_${schema}` : channel).replace(/[^a-z0-9_]/gi, '_'),
    listeners: listenerHealth(log),
    /** Where the sample reader's own connections go: this database, this schema. */
    reader: { url: opts.url, schema: opts.schema ?? null },
    opts,
  };
  // Made at the first Db.live() call; its connections open at its first statement.
  let livePool: pg.Pool | null = null;
  let liveDb: Db | null = null;
  const main = onPool(pool, shared, () => {
    livePool ??= newPool(opts, LIVE_POOL_MAX, log);
    liveDb ??= onPool(livePool, shared, () => liveDb!, async () => undefined);
    return liveDb;
  }, async () => {
    await closeSampleReader(shared.reader);
    await livePool?.end();
    await pool.end();
  });
  return main;
}

interface Shared {
  scoped: (channel: string) => string;
  listeners: ReturnType<typeof listenerHealth>;
  reader: { url: string; schema: string | null };
  opts: PostgresOptions;
}

const on = (c: pg.Pool | pg.PoolClient): Queryable => ({
  async query<T>(sql: string, params: unknown[] = [], name?: string) {
    const res = await c.query(name ? { name, text: sql, values: params } : { text: sql, values: params });
    return res.rows as T[];
  },
  async exec(sql: string) {
    await c.query(sql);
  },
});

/** A Db whose statements and transactions take their connections from `pool`. */
function onPool(pool: pg.Pool, shared: Shared, live: () => Db, close: () => Promise<void>): Db {
  const transaction: Db['transaction'] = async (fn, settings) => {
    const client = await pool.connect();
    try {
      // Without parameters, several statements go in one round trip (the simple query protocol).
      await client.query(settings && Object.keys(settings).length ? `begin; ${localSettingsSql(settings)}` : 'begin');
      const out = await fn(on(client));
      await client.query('commit');
      return out;
    } catch (err) {
      await client.query('rollback').catch(() => undefined);
      throw err;
    } finally {
      client.release();
    }
  };

  return {
    kind: 'postgres',
    ...on(pool),
    transaction,
    procedure: (name, args, settings) => foldedTransaction(pool, (tx) => runProcedure(tx, name, args), settings),
    readChannelBytes: (channelId, what, byteLength) => readOffThread(shared.reader, channelId, what, byteLength),
    notify: async (channel, payload) => {
      if (typeof payload === 'string') await pool.query('select pg_notify($1, $2)', [shared.scoped(channel), payload]);
      // In array order (a function scan's rows, each projected in turn): listeners get them in this order.
      else if (payload.length > 0) await pool.query('select count(pg_notify($1, p)) from unnest($2::text[]) as p', [shared.scoped(channel), payload]);
    },
    listen: (channel, onPayload) => listenOn(shared.opts, shared.scoped(channel), onPayload, shared.listeners),
    live,
    close,
  };
}

/** The rows of a simple query's last result, or of the one `back` before it (several statements answer with a result each). */
function rowsOf<T>(res: pg.QueryResult | pg.QueryResult[], back = 0): T[] {
  const all = Array.isArray(res) ? res : [res];
  return all[all.length - 1 - back]!.rows as T[];
}

/** The statements each connection has prepared (PREPARE … AS), by name: a folded transaction's named statements. */
const preparedOn = new WeakMap<pg.PoolClient, Set<string>>();
const STATEMENT_NAME = /^[a-z][a-z0-9_]*$/;

/**
 * A folded transaction's named statement as the text to send, `execute folded_<name>(…)`
 * with its arguments written in, prepared on this connection the first time (one round trip
 * of its own, once per connection; a prepared statement outlives a rolled-back transaction).
 * Its parse, analysis and plan are then done once, not on every call: a live batch's two
 * statements spent a third of the database's CPU there (perf, bench:scale, decision 1039).
 */
async function preparedText(client: pg.PoolClient, name: string, sql: string, params: readonly unknown[]): Promise<string> {
  if (!STATEMENT_NAME.test(name)) throw new Error(`statement name "${name}": lowercase letters, digits and _ only`);
  const prepared = `folded_${name}`;
  let names = preparedOn.get(client);
  if (!names) preparedOn.set(client, (names = new Set()));
  if (!names.has(prepared)) {
    await client.query(`prepare ${prepared} as ${sql}`);
    names.add(prepared);
  }
  return `execute ${prepared}${inlineArgs(params)}`;
}

/** A folded transaction's statement as the text to send: prepared and executed by name when named, its parameters written in otherwise. */
function statementText(client: pg.PoolClient, sql: string, params: readonly unknown[], name?: string): Promise<string> | string {
  return name ? preparedText(client, name, sql, params) : inlineParams(sql, params);
}

/**
 * A transaction whose BEGIN (and settings) go with its first statement and whose COMMIT goes
 * with the statement given to commitWith, each pair in one round trip (the simple query
 * protocol, the statement's parameters written into it: inline-sql.ts). On a busy machine
 * every round trip waits for the database's turn; Db.procedure's hot path (a live batch) had
 * five. A transaction without a statement sends nothing.
 */
async function foldedTransaction<T>(pool: pg.Pool, fn: (tx: Queryable) => Promise<T>, settings?: Readonly<Record<string, string>>): Promise<T> {
  const client = await pool.connect();
  let begin: string | null = settings && Object.keys(settings).length ? `begin; ${localSettingsSql(settings)}; ` : 'begin; ';
  let ended = false;
  const open = () => {
    if (ended) throw new Error('the transaction was committed: no statement may follow commitWith');
  };
  const plain = on(client);
  const tx: Queryable = {
    async query<R>(sql: string, params: unknown[] = [], name?: string) {
      open();
      if (begin === null) return plain.query<R>(sql, params, name);
      const text = begin + (await statementText(client, sql, params, name));
      begin = null;
      return rowsOf<R>(await client.query(text));
    },
    async exec(sql: string) {
      open();
      const text = (begin ?? '') + sql;
      begin = null;
      await client.query(text);
    },
    async commitWith<R>(sql: string, params: unknown[] = [], name?: string) {
      open();
      const text = `${begin ?? ''}${await statementText(client, sql, params, name)}; commit`;
      begin = null;
      ended = true;
      return rowsOf<R>(await client.query(text), 1);
    },
  };
  try {
    const out = await fn(tx);
    if (!ended && begin === null) await client.query('commit');
    return out;
  } catch (err) {
    // A failed statement leaves the transaction aborted (a COMMIT sent with it was not run); nothing was begun: nothing to roll back.
    if (begin === null) await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}

/**
 * The LISTEN connections of one database, said once per outage: a warning when the first is
 * lost (requests meanwhile log "Database unavailable" once, server/errors.ts), a line when the
 * last is back.
 */
function listenerHealth(log: Logger) {
  const lost = new Set<string>();
  return {
    lost(channel: string, err: Error) {
      if (lost.size === 0) log.warn(`PostgreSQL LISTEN connection lost (${err.message}); reconnecting.`);
      lost.add(channel);
    },
    restored(channel: string) {
      if (lost.delete(channel) && lost.size === 0) log.info('PostgreSQL LISTEN connections restored.');
    },
  };
}

/** LISTEN on a client of its own, reconnected (every second until it is back) after a lost connection; a NOTIFY sent meanwhile is missed. */
async function listenOn(opts: PostgresOptions, channel: string, onPayload: (payload: string) => void, health: ReturnType<typeof listenerHealth>): Promise<() => Promise<void>> {
  let client: pg.Client | null = null;
  let stopped = false;
  const connect = async (): Promise<void> => {
    const c = new pg.Client({ connectionString: opts.url });
    c.on('notification', (msg) => {
      if (msg.channel === channel && msg.payload !== undefined) onPayload(msg.payload);
    });
    c.on('error', (err) => {
      health.lost(channel, err);
      client = null;
      c.end().catch(() => undefined);
      retry();
    });
    try {
      await c.connect();
      await c.query(`listen "${channel}"`);
    } catch (err) {
      c.removeAllListeners('error');
      await c.end().catch(() => undefined);
      throw err;
    }
    client = c;
  };
  const retry = () => {
    if (stopped) return;
    setTimeout(() => {
      if (stopped) return;
      // Said once when the connection was lost; the retries stay quiet until one succeeds.
      connect().then(() => health.restored(channel), retry);
    }, 1_000);
  };
  await connect();
  return async () => {
    stopped = true;
    await client?.end();
  };
}
