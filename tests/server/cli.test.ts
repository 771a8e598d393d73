import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withNewCluster } from '../pglite-cluster';
import { nodeEntry } from '../server-bundle';

/**
 * The command-line tools (`npm run simulate`, `import`, `reports`): a bad command line is
 * told with the usage and exit status 2 before any database is opened, so a typo creates no
 * data directory. Each runs on its own embedded database whatever NOCTURNE_TEST_DB says, so
 * this file runs once (scripts/test.mjs DB_KIND_FREE).
 */
let tmp = '';
beforeAll(async () => {
  tmp = await mkdtemp(path.join(os.tmpdir(), 'nocturne-cli-'));
});
afterAll(() => rm(tmp, { recursive: true, force: true }));

function cli(script: 'simulate' | 'import' | 'reports' | 'device', args: string[], env: Record<string, string>): Promise<{ status: number | null; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeEntry(`cli/${script}`), ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (status) => resolve({ status, stderr }));
  });
}

describe('npm run simulate', () => {
  it('explains a bad command line with the usage and exit status 2, and makes no database', async () => {
    const dataDir = path.join(tmp, 'simulate');
    const res = await cli('simulate', ['--nights', 'many'], { DATA_DIR: dataDir });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('--patient is required');
    expect(res.stderr).toContain('usage: npm run simulate');
    const nights = await cli('simulate', ['--patient', 'NCT1001', '--nights', 'many'], { DATA_DIR: dataDir });
    expect(nights.status).toBe(2);
    expect(nights.stderr).toContain('--nights must be a whole number from 1 to 60, got "many"');
    expect(existsSync(dataDir)).toBe(false);
  });
});

describe('npm run import', () => {
  it('needs a patient and a file before it opens the database', async () => {
    const dataDir = path.join(tmp, 'import-usage');
    const res = await cli('import', ['--patient', 'NCT1001'], { DATA_DIR: dataDir });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('name at least one file');
    expect(res.stderr).toContain('usage: npm run import');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('says when the patient is unknown and imports nothing', async () => {
    // A new embedded database (a copy of the run's new cluster): migrated, no patients.
    const dataDir = path.join(tmp, 'import');
    await withNewCluster(inject('pgliteClusterDir'), dataDir);
    const res = await cli('import', ['--patient', 'NCT1001', '/etc/hostname'], { DATA_DIR: dataDir });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('no patient with code "NCT1001"');
  });
});

describe('npm run reports', () => {
  it('refuses to start on the embedded database, and makes none', async () => {
    const dataDir = path.join(tmp, 'reports');
    const res = await cli('reports', [], { DATA_DIR: dataDir });
    expect(res.status).toBe(2);
    expect(res.stderr).toContain('A second report worker needs PostgreSQL');
    expect(existsSync(dataDir)).toBe(false);
  });
});
