// One side of bench:api's import part, in a process of its own: the server code under ROOT
// (ours, or a peer commit's tree) opens embedded PostgreSQL in a new data directory, as
// `npm start` does, and imports the real ResMed night WARM + RUNS times, each for a new
// patient. Then, where the tree has the parse worker, RUNS parses alone (read, hash and decode
// in the worker, what an import does before the database): where the time goes. Prints one
// JSON line: { cold_ms, times_ms, parse_ms }.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';

const [root, runsArg] = process.argv.slice(2);
const RUNS = Number(runsArg);
const FILES = ['snore_resmed_20250808_010210_BRP.edf', 'snore_resmed_20250808_010203_EVE.edf'];

const { readConfig } = await import(path.join(root, 'server/config.ts'));
const { openPglite } = await import(path.join(root, 'server/db/pglite.ts'));
const { prepare } = await import(path.join(root, 'server/start.ts'));
const { importFiles } = await import(path.join(root, 'server/recordings/import.ts'));

const dataDir = await mkdtemp(path.join(tmpdir(), 'nocturne-import-bench-'));
const db = await openPglite(dataDir);
const running = await prepare({ ...readConfig({ ...process.env, PORT: "0" }), webRoot: null }, db);
const paths = FILES.map((f) => new URL(`../tests/fixtures/real/${f}`, import.meta.url).pathname);

async function once(i: number): Promise<number> {
  const [patient] = await db.query(
    `insert into patients (patient_code, physician_id, created_by, gender, country)
     select $1, id, id, 'F', 'Switzerland' from users where role = 'physician' order by id limit 1 returning id`,
    [`IMPORTBENCH${i}`],
  );
  const t = performance.now();
  await importFiles(db, { patientId: patient.id, deviceId: null, createdBy: null, paths, timezone: 'UTC' });
  return performance.now() - t;
}

try {
  const cold = await once(0); // the first import also starts the parse worker: printed, not counted
  const times: number[] = [];
  for (let i = 1; i <= RUNS; i++) times.push(await once(i));
  const parse: number[] = [];
  const pool = await import(path.join(root, 'server/recordings/parse-pool.ts')).catch(() => null);
  if (pool?.parseFilesInWorker) {
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await pool.parseFilesInWorker(paths, { timezone: 'UTC' });
      parse.push(performance.now() - t);
    }
  }
  console.log(JSON.stringify({ cold_ms: cold, times_ms: times, parse_ms: parse }));
} finally {
  await running.close();
  await rm(dataDir, { recursive: true, force: true });
}
