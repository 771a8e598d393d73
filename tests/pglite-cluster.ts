// A new PGlite cluster for a server that starts on a new DATA_DIR in a test. Creating one
// (initdb, in WebAssembly) took 9 s of CPU a start on the loaded 2-core machine, opening a copy
// 0.5 s; every server and e2e suite that started servers on new directories paid it each time.
// Each run's global setup makes one cluster; a test copies it to where the server would make its
// own (DATA_DIR/pglite). Migrations and seeding still run as on a first start. One test
// (startup.test.ts "seeds once…") still starts on an empty directory: a new user's first start.
import { existsSync } from 'node:fs';
import { cp, mkdir } from 'node:fs/promises';
import path from 'node:path';

/** Puts a copy of the run's new cluster (`clusterDir`) in dataDir/pglite, unless one is there already. */
export async function withNewCluster(clusterDir: string, dataDir: string): Promise<string> {
  const target = path.join(dataDir, 'pglite');
  if (!existsSync(target)) {
    await mkdir(dataDir, { recursive: true });
    await cp(clusterDir, target, { recursive: true });
  }
  return dataDir;
}
