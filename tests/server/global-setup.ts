import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A new, empty PGlite cluster dumped once for the run (tests/server/helpers.ts freshDb). */
    pgliteTemplate: string;
  }
}

let scratch = '';

export async function setup(project: TestProject): Promise<void> {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'nocturne-server-run-'));
  const cluster = await PGlite.create();
  const dump = await cluster.dumpDataDir('none');
  await cluster.close();
  const file = path.join(scratch, 'pglite-template.tar');
  await writeFile(file, new Uint8Array(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
}

export async function teardown(): Promise<void> {
  if (scratch) await rm(scratch, { recursive: true, force: true });
}
