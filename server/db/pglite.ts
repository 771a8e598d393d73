import { PGlite } from '@electric-sql/pglite';
import { localSettingsSql, type Db, type Queryable } from './adapter';

function wrap(q: Pick<PGlite, 'query' | 'exec'>): Queryable {
  return {
    async query<T>(sql: string, params: unknown[] = []) {
      const res = await q.query<T>(sql, params);
      return res.rows;
    },
    async exec(sql: string) {
      await q.exec(sql);
    },
  };
}

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

/**
 * Opens embedded PostgreSQL: in a directory, or in memory when dir is null; `from`, a data
 * directory dumped by PGlite's dumpDataDir, starts it as that copy instead of a new cluster.
 */
export async function openPglite(dir: string | null, from?: Blob): Promise<Db> {
  const pg = await PGlite.create({ ...(dir ? { dataDir: dir } : {}), ...(from ? { loadDataDir: from } : {}), ...byteaOptions });
  const base = wrap(pg);
  return {
    kind: 'pglite',
    ...base,
    transaction: (fn, settings) =>
      pg.transaction(async (tx) => {
        if (settings && Object.keys(settings).length) await tx.query(localSettingsSql(settings));
        return fn(wrap(tx));
      }),
    async notify(channel, payload) {
      await pg.query('select pg_notify($1, $2)', [channel, payload]);
    },
    async listen(channel, onPayload) {
      const stop = await pg.listen(channel, onPayload);
      // A database already closed (shutdown order, a lost database) has no listener left to drop.
      return async () => {
        if (!pg.closed) await stop();
      };
    },
    close: () => pg.close(),
  };
}
