// Procedures (decision 1009): work of several statements, one transaction, that runs where
// the database runs — in PGlite's own thread, so the lock PGlite holds for a transaction is
// held only while its statements run, not across a trip to the event loop and back for each;
// on PostgreSQL, in this process through Db.transaction. Arguments and results are plain
// data (they cross threads). The database's thread imports this module: keep its imports few.
import type { Queryable } from './adapter';
import { storeLiveBatch } from '../live/batch-store';

export const procedures = { storeLiveBatch } satisfies Record<string, (tx: Queryable, args: never) => Promise<unknown>>;

export type Procedures = typeof procedures;
export type ProcedureName = keyof Procedures;
export type ProcedureArgs<N extends ProcedureName> = Parameters<Procedures[N]>[1];
export type ProcedureResult<N extends ProcedureName> = Awaited<ReturnType<Procedures[N]>>;

/** Runs the named procedure in the transaction `tx`. */
export function runProcedure<N extends ProcedureName>(tx: Queryable, name: N, args: ProcedureArgs<N>): Promise<ProcedureResult<N>> {
  return (procedures[name] as (tx: Queryable, args: ProcedureArgs<N>) => Promise<ProcedureResult<N>>)(tx, args);
}
