// `npm run reports`: a report worker as a second process. It claims queued report jobs with
// FOR UPDATE SKIP LOCKED beside the server's own worker, woken by NOTIFY and polling every
// 2 s, until SIGINT/SIGTERM. Needs PostgreSQL (DATABASE_URL): PGlite is one process's.
// It prints for a person at a terminal with console; its worker's failures go to the pino log (server/log.ts) like the server's.
import { runCommand } from './run';
import { ReportWorker } from '../reports/worker';
import { UsageError } from './args';
import type { Config } from '../config';

/** No options; a second worker needs PostgreSQL, checked before any database is opened. */
function needsPostgres(_argv: string[], config: Config): void {
  if (!config.databaseUrl) throw new UsageError('A second report worker needs PostgreSQL: set DATABASE_URL (the embedded PGlite belongs to the server process).');
}

void runCommand('Usage: DATABASE_URL=postgres://… npm run reports', needsPostgres, async (db) => {
  const worker = new ReportWorker(db, { pollMs: 2_000 });
  worker.onJobEnd = (id, status) => console.log(`report ${id}: ${status}`);
  await worker.start();
  console.log(`Report worker ${worker.name} is waiting for jobs (Ctrl-C stops it).`);
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await worker.stop();
});
