import { spawn } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { withNewCluster } from '../pglite-cluster';
import { appleDouble } from '../apple-double';
import { nodeEntry } from '../server-bundle';
import { readConfig } from '../../server/config';
import { openDatabase, prepare } from '../../server/start';
import { checkDeviceKey } from '../../server/live/keys';

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

function cli(script: 'simulate' | 'import' | 'reports' | 'device' | 'beds', args: string[], env: Record<string, string>): Promise<{ status: number | null; stderr: string; stdout: string }> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [...nodeEntry(`cli/${script}`), ...args], { env: { PATH: process.env.PATH ?? '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    let stdout = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    child.on('exit', (status) => resolve({ status, stderr, stdout }));
  });
}

/** An embedded database in `tmp/name` holding the demo clinic as a development server's first start leaves it (no nights). */
async function demoClinic(name: string) {
  const dataDir = path.join(tmp, name);
  await withNewCluster(inject('pgliteClusterDir'), dataDir);
  const config = { ...readConfig({ DATA_DIR: dataDir, SEED_NIGHTS: '0' }), webRoot: null };
  const opened = await openDatabase(config);
  await (await prepare(config, opened.db, opened.release)).close();
  return { dataDir, config };
}

/** A refused command: its exit status and each text of its message on stderr. */
function expectRefused(res: { status: number | null; stderr: string }, status: number, ...texts: string[]): void {
  expect(res.status).toBe(status);
  for (const t of texts) expect(res.stderr).toContain(t);
}

describe('npm run simulate', () => {
  it('explains a bad command line with the usage and exit status 2, and makes no database', async () => {
    const dataDir = path.join(tmp, 'simulate');
    const res = await cli('simulate', ['--nights', 'many'], { DATA_DIR: dataDir });
    expectRefused(res, 2, '--patient is required', 'usage: npm run simulate');
    const nights = await cli('simulate', ['--patient', 'NCT1001', '--nights', 'many'], { DATA_DIR: dataDir });
    expectRefused(nights, 2, '--nights must be a whole number from 1 to 60, got "many"');
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

  it("imports a ResMed card's STR.edf and a night folder together, by names relative to where npm was run, leaving a session with no data out", async () => {
    const { dataDir } = await demoClinic('import-card');
    // npm starts the command in the project's folder and says where it was run from in INIT_CWD.
    // The night's folder as a Mac leaves it on the card: a "._" companion beside each file.
    const card = path.join(tmp, 'card');
    const fixtures = fileURLToPath(new URL('../fixtures/real/', import.meta.url));
    await cp(path.join(fixtures, 'cpaplib_as10_20230822'), path.join(card, 'DATALOG', '20230822'), { recursive: true });
    await cp(path.join(fixtures, 'cpaplib_as10_STR.edf'), path.join(card, 'STR.edf'));
    for (const f of readdirSync(path.join(card, 'DATALOG', '20230822'))) await writeFile(path.join(card, 'DATALOG', '20230822', `._${f}`), appleDouble());
    const real = card;
    const res = await cli('import', ['--patient', 'NCT1005', '--timezone', 'Europe/Zurich', 'STR.edf', 'DATALOG/20230822'], { DATA_DIR: dataDir, INIT_CWD: real });
    expect(res.stderr).toBe('');
    expect(res.status).toBe(0);
    expect(res.stdout).toContain("Read 18 days of the device's summary (STR.edf) for NCT1005; 17 with therapy stored, 2023-08-21 to 2023-09-06.");
    expect(res.stdout).toMatch(/Imported recording \d+ for NCT1005: 2023-08-22T20:49:18\.000Z, 6\.57 h, .* 4 device-scored\./);
    for (const kind of ['BRP', 'PLD', 'SAD']) expect(res.stdout).toContain(`left out 20230822_224924_${kind}.edf: no data records (number of data records: is -1`);
    // A name that is not there is said as such, before anything is read.
    const missing = await cli('import', ['--patient', 'NCT1005', 'no-such-night.edf'], { DATA_DIR: dataDir, INIT_CWD: real });
    expectRefused(missing, 2, `no such file: ${path.join(real, 'no-such-night.edf')}`);
    // A folder with nothing the import reads is said as such (not Node's EISDIR).
    await mkdir(path.join(card, 'empty'));
    await writeFile(path.join(card, 'empty', 'Identification.tgt'), '#SRN 123\n');
    expectRefused(await cli('import', ['--patient', 'NCT1005', 'empty'], { DATA_DIR: dataDir, INIT_CWD: real }), 2, `no EDF, BDF or CSV file in the folder ${path.join(real, 'empty')}`);
    // A "._" file named on its own beside a recording: left out, said what it is.
    const named = await cli('import', ['--patient', 'NCT1005', '--timezone', 'Europe/Zurich', path.join(fixtures, 'snore_resmed_20251025_005814_BRP.edf'), 'DATALOG/20230822/._20230822_224924_BRP.edf'], { DATA_DIR: dataDir, INIT_CWD: real });
    expect(named.stderr).toBe('');
    expect(named.stdout).toContain('left out ._20230822_224924_BRP.edf: macOS metadata (a "._" companion file), not a recording');
  }, 120_000);
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

describe('npm run beds', () => {
  it('checks its command line and refuses production before it opens a database', async () => {
    const dataDir = path.join(tmp, 'beds-usage');
    const count = await cli('beds', ['--count', '0'], { DATA_DIR: dataDir });
    expectRefused(count, 2, '--count must be a whole number from 1 to 200, got "0"', 'usage: npm run beds');
    const production = await cli('beds', [], { DATA_DIR: dataDir, NODE_ENV: 'production' });
    expectRefused(production, 2, 'it does not run in production');
    expect(existsSync(dataDir)).toBe(false);
  });

  it('says a database without the demo clinic has no demo physician, and adds nothing', async () => {
    const dataDir = path.join(tmp, 'beds-empty');
    await withNewCluster(inject('pgliteClusterDir'), dataDir);
    const res = await cli('beds', ['--count', '2'], { DATA_DIR: dataDir });
    expect(res.status).toBe(1);
    expect(res.stderr).toContain('There is no demo physician');
  });

  it('adds beds deployed to patients of their own, numbered on from the last, with working keys in DATA_DIR', async () => {
    const { dataDir, config } = await demoClinic('beds');

    const first = await cli('beds', ['--count', '3'], { DATA_DIR: dataDir });
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    expect(first.stdout).toContain('Added 3 live beds for the demo physician: devices BED0001–BED0003, each deployed to a patient of its own (BED1001–BED1003)');
    expect(first.stdout).toContain('npm run device -- --device BED0001 --devices 3 --speed 1');
    const again = await cli('beds', ['--count', '2'], { DATA_DIR: dataDir });
    expect(again.status).toBe(0);
    expect(again.stdout).toContain('devices BED0004–BED0005, each deployed to a patient of its own (BED1004–BED1005)');

    const keys = JSON.parse(await readFile(path.join(dataDir, 'device-keys.json'), 'utf8')) as Record<string, string>;
    const db = await openDatabase({ ...config });
    try {
      const beds = await db.db.query<{ device_id: string; patient_code: string; deployed: boolean }>(
        `select d.device_id, p.patient_code, a.allocation_ms <= $1 and a.deallocation_ms > $1 as deployed
           from devices d join device_allocations a using (device_master_id) join patients p on p.id = a.patient_id
          where d.device_id like 'BED%' order by d.device_id`,
        [Date.now()],
      );
      expect(beds).toEqual([1, 2, 3, 4, 5].map((n) => ({ device_id: `BED000${n}`, patient_code: `BED100${n}`, deployed: true })));
      // The key the device CLI will read works for its device, and only for it.
      expect((await checkDeviceKey(db.db, 'BED0004', keys.BED0004!)).ok).toBe(true);
      expect((await checkDeviceKey(db.db, 'BED0001', keys.BED0004!)).ok).toBe(false);
    } finally {
      await db.db.close();
      await db.release();
    }
  }, 120_000);
});
