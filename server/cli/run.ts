// The CLIs print for a person at a terminal with console; only the running server logs through pino (server/log.ts).
import { ConfigError, readConfig, type Config } from '../config';
import type { Db } from '../db/adapter';
import { migrate } from '../db/migrate';
import { openDatabase, StartupError } from '../start';
import { UsageError } from './args';

/**
 * Runs a command against the configured database (DATA_DIR or DATABASE_URL), migrated.
 * `parse` reads the command line (and may check the configuration) before any database is
 * opened: a mistyped option is told at once, and creates or migrates no data directory.
 */
export async function runCommand<A>(usage: string, parse: (argv: string[], config: Config) => A, body: (db: Db, args: A, config: Config) => Promise<void>): Promise<void> {
  let exitCode = 0;
  try {
    const config = readConfig();
    const args = parse(process.argv.slice(2), config);
    const { db, release } = await openDatabase(config);
    try {
      await migrate(db);
      await body(db, args, config);
    } finally {
      await db.close();
      await release();
    }
  } catch (err) {
    if (err instanceof UsageError) {
      console.error(`${err.message}\n${usage}`);
      exitCode = 2;
    } else if (err instanceof StartupError || err instanceof ConfigError) {
      console.error(err.message);
      exitCode = 1;
    } else {
      console.error((err as Error).message);
      exitCode = 1;
    }
  }
  process.exit(exitCode);
}
