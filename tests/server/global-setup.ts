import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';
import { readConfig } from '../../server/config';
import { openPglite } from '../../server/db/pglite';
import { prepare } from '../../server/start';
import { adminQuery } from './pg-admin';
import { buildServerBundle, type ServerBundle } from '../server-bundle';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A new, empty PGlite cluster dumped once for the run (tests/server/helpers.ts freshDb). */
    pgliteTemplate: string;
    /** The same new cluster as a data directory, copied under a test's DATA_DIR (tests/pglite-cluster.ts). */
    pgliteClusterDir: string;
    /** The same cluster migrated, with the demo clinic seeded (no nights): startTestServer's start. */
    pgliteClinicTemplate: string;
  }
}

let scratch = '';
let bundle: ServerBundle | null = null;

export async function setup(project: TestProject): Promise<void> {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'nocturne-server-run-'));
  bundle = await buildServerBundle();
  project.provide('serverEntries', bundle.entries);
  const clusterDir = path.join(scratch, 'cluster');
  const cluster = await PGlite.create({ dataDir: clusterDir });
  const dump = await cluster.dumpDataDir('none');
  await cluster.close();
  project.provide('pgliteClusterDir', clusterDir);
  const file = path.join(scratch, 'pglite-template.tar');
  await writeFile(file, new Uint8Array(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  // Migrating and seeding costs PGlite about a second a server; most server suites start from
  // this one copy instead (startTestServer with an environment that does not change the seed).
  if (process.env.NOCTURNE_TEST_DB === 'postgres') {
    project.provide('pgliteClinicTemplate', '');
    await vacuumTestDatabase();
    return;
  }
  const clinicDir = path.join(scratch, 'clinic');
  const running = await prepare({ ...readConfig({ SEED_NIGHTS: '0' }), webRoot: null }, await openPglite(clinicDir));
  await running.close();
  const migrated = await PGlite.create({ dataDir: clinicDir });
  const clinic = await migrated.dumpDataDir('none');
  await migrated.close();
  const clinicFile = path.join(scratch, 'pglite-clinic.tar');
  await writeFile(clinicFile, new Uint8Array(await clinic.arrayBuffer()));
  project.provide('pgliteClinicTemplate', clinicFile);
}

/**
 * Every server test makes a schema and drops it: dozens of tables, indexes, triggers and
 * functions each, so the catalogs fill with dead rows. A PostgreSQL without autovacuum (this
 * machine's is off) keeps them, and every catalog lookup (each migration, each query plan)
 * steps over them: after a session's runs pg_attribute held 390,000 dead rows (81 MB), and
 * a VACUUM of the database took 2 s. So each run starts with one.
 */
async function vacuumTestDatabase(): Promise<void> {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('NOCTURNE_TEST_DB=postgres needs TEST_DATABASE_URL');
  await adminQuery(url, 'vacuum');
}

export async function teardown(): Promise<void> {
  await bundle?.dispose();
  if (scratch) await rm(scratch, { recursive: true, force: true });
}
