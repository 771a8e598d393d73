// The server under test of bench/load.bench.ts, in a process of its own so its memory is
// measured alone: a fresh database (PGlite in a temp dir, or a schema of its own on
// PostgreSQL at BENCH_DATABASE_URL), the demo clinic, one big night, listening on loopback.
// Prints one JSON line {port, token, patientId, recordingId, codes} when ready.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { readConfig } from '../server/config';
import { openPglite } from '../server/db/pglite';
import { openPostgres } from '../server/db/postgres';
import { prepare } from '../server/start';
import { saveNight } from '../server/recordings/store';
import type { Night } from '../server/recordings/model';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../server/db/seed';
import { benchSchema, signedInToken, stopOnSigterm } from './bench-db';

const HOURS = 10;
const START = Date.UTC(2026, 2, 9, 21, 0);
/** The big night: four 25 Hz radar channels (0.9 M samples each) and two 1 Hz vitals. */
const CHANNELS = [
  { code: 'I', hz: 25 },
  { code: 'Q', hz: 25 },
  { code: 'Y_DIST', hz: 25 },
  { code: 'X_DIST', hz: 25 },
  { code: 'HR', hz: 1 },
  { code: 'BR', hz: 1 },
];

function bigNight(): Night {
  return {
    startMs: START,
    stopMs: START + HOURS * 3_600_000,
    timezone: 'Europe/Zurich',
    channels: CHANNELS.map(({ code, hz }, k) => {
      const samples = new Int16Array(HOURS * 3600 * hz);
      for (let i = 0; i < samples.length; i++) samples[i] = Math.round(800 * Math.sin((2 * Math.PI * 0.25 * i) / hz + k) + ((i * 7919) % 200) - 100);
      return { code, label: code, unit: 'mm', sampleRate: hz, t0: START, storage: 'int16' as const, scale: 0.01, offset: 0, samples };
    }),
    events: [],
    meta: { bench: 'load' },
  };
}

async function main() {
  const kind = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
  let db;
  let dropSchema = async (): Promise<void> => undefined;
  const env: Record<string, string> = { SEED_NIGHTS: '0', HOST: '127.0.0.1', PORT: '0', ...(process.env.ACCESS_TRAIL ? { ACCESS_TRAIL: process.env.ACCESS_TRAIL } : {}) };
  if (kind === 'postgres') {
    const bench = await benchSchema();
    db = await openPostgres({ url: bench.url, schema: bench.schema });
    env.DATABASE_URL = bench.url;
    dropSchema = bench.drop;
  } else {
    db = await openPglite(path.join(await mkdtemp(path.join(tmpdir(), 'nocturne-bench-')), 'pglite'));
  }
  const config = { ...readConfig(env), webRoot: null };
  const running = await prepare(config, db);
  const { app } = running;
  stopOnSigterm(running, dropSchema);
  const token = await signedInToken(app, DEMO_ACCOUNTS.physician, DEMO_PASSWORD);
  const [patient] = await db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1001'`);
  const recordingId = await saveNight(db, { patientId: patient.id, deviceId: 'NCT0001', source: 'simulated', createdBy: null, night: bigNight() });
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  console.log(JSON.stringify({ port, token, patientId: patient.id, recordingId, codes: CHANNELS.map((c) => c.code), nightDate: '2026-03-09' }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
