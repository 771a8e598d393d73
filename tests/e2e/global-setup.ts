import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A directory for the whole e2e run (the seeded demo template, see harness.ts). */
    e2eScratch: string;
    /** A new PGlite cluster as a data directory, copied under each new DATA_DIR (tests/pglite-cluster.ts). */
    e2eClusterDir: string;
  }
}

let scratch = '';

export async function setup(project: TestProject): Promise<void> {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'nocturne-e2e-run-'));
  project.provide('e2eScratch', scratch);
  const clusterDir = path.join(scratch, 'cluster');
  await (await PGlite.create({ dataDir: clusterDir })).close();
  project.provide('e2eClusterDir', clusterDir);
}

export async function teardown(): Promise<void> {
  if (scratch) await rm(scratch, { recursive: true, force: true });
}
