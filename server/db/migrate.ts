import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { lockForSetup, type Db } from './adapter';

export const MIGRATIONS_DIR = fileURLToPath(new URL('./migrations', import.meta.url));
const MIGRATION_LOCK = 7_270_001;

/** A migration that could not be applied; the database is left as it was before it. */
class MigrationError extends Error {
  constructor(
    readonly file: string,
    cause: Error,
  ) {
    super(`migration ${file} failed: ${cause.message}`);
  }
}

/**
 * Applies every *.sql file in dir not applied yet, in name order, each in its own
 * transaction together with its row in schema_migrations. Returns the files applied.
 */
export async function migrate(db: Db, dir = MIGRATIONS_DIR): Promise<string[]> {
  await db.exec(`create table if not exists schema_migrations (
    version text primary key,
    checksum text not null,
    applied_at timestamptz not null default now()
  )`);
  const files = (await readdir(dir)).filter((f) => f.endsWith('.sql')).sort();
  const applied: string[] = [];
  for (const file of files) {
    const sql = await readFile(path.join(dir, file), 'utf8');
    const checksum = createHash('sha256').update(sql).digest('hex');
    const done = await db
      .transaction(async (tx) => {
        await lockForSetup(tx, MIGRATION_LOCK);
        const [row] = await tx.query<{ checksum: string }>(
          'select checksum from schema_migrations where version = $1',
          [file],
        );
        if (row) {
          if (row.checksum !== checksum) {
            throw new Error(`it was changed after it had been applied; add a new migration instead`);
          }
          return false;
        }
        await tx.exec(sql);
        await tx.query('insert into schema_migrations (version, checksum) values ($1, $2)', [file, checksum]);
        return true;
      })
      .catch((err: Error) => {
        throw new MigrationError(file, err);
      });
    if (done) applied.push(file);
  }
  return applied;
}
