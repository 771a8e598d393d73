import { PGlite } from '@electric-sql/pglite';
import type { Db, Queryable } from './adapter';

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

/** Opens embedded PostgreSQL: in a directory, or in memory when dir is null. */
export async function openPglite(dir: string | null): Promise<Db> {
  const pg = dir ? await PGlite.create(dir) : await PGlite.create();
  const base = wrap(pg);
  return {
    kind: 'pglite',
    ...base,
    transaction: (fn) => pg.transaction((tx) => fn(wrap(tx))),
    close: () => pg.close(),
  };
}
