import { ConfigError, readConfig, type Config } from '../config';
import type { Db } from '../db/adapter';
import { migrate } from '../db/migrate';
import { openDatabase, StartupError } from '../start';
import { UsageError } from './args';

/** Runs a command against the configured database (DATA_DIR or DATABASE_URL), migrated. */
export async function runCommand(usage: string, body: (db: Db, config: Config) => Promise<void>): Promise<void> {
  let exitCode = 0;
  try {
    const config = readConfig();
    const { db, release } = await openDatabase(config);
    try {
      await migrate(db);
      await body(db, config);
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
