import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { chromium, type BrowserServer } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { chromiumOptions } from './chromium';
import { buildServerBundle, type ServerBundle } from '../server-bundle';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A directory for the whole e2e run (the seeded demo template, see harness.ts). */
    e2eScratch: string;
    /** A new PGlite cluster as a data directory, copied under each new DATA_DIR (tests/pglite-cluster.ts). */
    e2eClusterDir: string;
    /** The run's one Chromium, which every file connects to (harness.ts launchChromium). */
    e2eBrowserWs: string;
  }
}

let scratch = '';
let browser: BrowserServer | null = null;
let bundle: ServerBundle | null = null;

export async function setup(project: TestProject): Promise<void> {
  scratch = await mkdtemp(path.join(os.tmpdir(), 'nocturne-e2e-run-'));
  project.provide('e2eScratch', scratch);
  const clusterDir = path.join(scratch, 'cluster');
  await (await PGlite.create({ dataDir: clusterDir })).close();
  project.provide('e2eClusterDir', clusterDir);
  browser = await chromium.launchServer(chromiumOptions('software'));
  project.provide('e2eBrowserWs', browser.wsEndpoint());
  bundle = await buildServerBundle();
  project.provide('serverEntries', bundle.entries);
}

export async function teardown(): Promise<void> {
  await browser?.close();
  await bundle?.dispose();
  if (scratch) await rm(scratch, { recursive: true, force: true });
}
