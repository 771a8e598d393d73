// The server under test of the trend/dashboard part of bench/api.bench.ts (issue 18 point 4), in
// a process of its own: PostgreSQL (a schema of its own at BENCH_DATABASE_URL) or PGlite, the
// demo clinic, one patient with NIGHTS nights of SpO2, HR and BR (1 Hz, 8 h), listening on
// loopback. argv: kind (postgres|pglite) and the code tree to run (this checkout, or the peer's:
// the code before per-night statistics rows, extracted by the bench). The nights' analyses and
// statistics are stored by one warm-up trend call before the port is printed, so both code
// paths answer from what they keep. Prints one JSON line {port, token, patientId, from, to, codes}.
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Night } from '../server/recordings/model';
import { benchSchema, signedInToken, stopOnSigterm } from './bench-db';

const NIGHTS = 90;
const HOURS = 8;
const FIRST_EVENING = Date.UTC(2026, 0, 1, 22, 0);
const DAY = 86_400_000;
export const TREND_CODES = ['SPO2', 'HR', 'BR', 'AHI', 'ODI', 'RII', 'SE', 'SQ'];

function nightOf(k: number): Night {
  const start = FIRST_EVENING + k * DAY;
  const n = HOURS * 3600;
  const spo2 = new Int16Array(n);
  const hr = new Int16Array(n);
  const br = new Int16Array(n);
  for (let i = 0; i < n; i++) {
    // A 4-point desaturation of 40 s every (4 + k % 5) minutes; HR and BR with slow waves.
    spo2[i] = (i % ((4 + (k % 5)) * 60) < 40 ? 920 : 960) + (i % 3);
    hr[i] = Math.round(600 + 80 * Math.sin((2 * Math.PI * i) / 900 + k));
    br[i] = Math.round(150 + 30 * Math.sin((2 * Math.PI * i) / 600 + k));
  }
  const ch = (code: string, samples: Int16Array, unit: string) => ({ code, label: code, unit, sampleRate: 1, t0: start, storage: 'int16' as const, scale: 0.1, offset: 0, samples });
  return { startMs: start, stopMs: start + HOURS * 3_600_000, timezone: 'UTC', channels: [ch('SPO2', spo2, '%'), ch('HR', hr, 'bpm'), ch('BR', br, 'rpm')], events: [], meta: { bench: 'stats' } };
}

async function main() {
  const kind = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
  const root = path.resolve(process.argv[3] ?? path.join(import.meta.dirname, '..'));
  const load = <T>(rel: string): Promise<T> => import(pathToFileURL(path.join(root, rel)).href) as Promise<T>;
  const { readConfig } = await load<typeof import('../server/config')>('server/config.ts');
  const { openPglite } = await load<typeof import('../server/db/pglite')>('server/db/pglite.ts');
  const { openPostgres } = await load<typeof import('../server/db/postgres')>('server/db/postgres.ts');
  const { prepare } = await load<typeof import('../server/start')>('server/start.ts');
  const { saveNight } = await load<typeof import('../server/recordings/store')>('server/recordings/store.ts');
  // The demo seed moved from server/db/ to server/ after the default peer's commit.
  const { DEMO_ACCOUNTS, DEMO_PASSWORD } = await load<typeof import('../server/seed')>('server/seed.ts').catch(() => load<typeof import('../server/seed')>('server/db/seed.ts'));
  let db;
  let dropSchema = async (): Promise<void> => undefined;
  const env: Record<string, string> = { SEED_NIGHTS: '0', HOST: '127.0.0.1', PORT: '0', REPORT_WORKER: '0' };
  if (kind === 'postgres') {
    const bench = await benchSchema();
    db = await openPostgres({ url: bench.url, schema: bench.schema });
    env.DATABASE_URL = bench.url;
    dropSchema = bench.drop;
  } else {
    db = await openPglite(path.join(await mkdtemp(path.join(tmpdir(), 'nocturne-bench-')), 'pglite'));
  }
  const running = await prepare({ ...readConfig(env), webRoot: null }, db);
  const { app } = running;
  stopOnSigterm(running, dropSchema);
  const token = await signedInToken(app, DEMO_ACCOUNTS.physician, DEMO_PASSWORD);
  const [patient] = await db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1001'`);
  for (let k = 0; k < NIGHTS; k++) await saveNight(db, { patientId: patient.id, deviceId: 'NCT0001', source: 'simulated', createdBy: null, night: nightOf(k) });
  const from = (FIRST_EVENING - 13 * 3_600_000) / 1000;
  const to = (FIRST_EVENING + (NIGHTS - 1) * DAY + 11 * 3_600_000) / 1000;
  const warm = await app.inject({
    method: 'GET',
    url: `/api/v1/analytics/patient-trendview/type=${TREND_CODES.join(',')}?patient_id=${patient.id}&device_start_time=${from}&device_stop_time=${to}`,
    headers: { authorization: `Bearer ${token}` },
  });
  const points = (warm.json() as { data: Record<string, unknown[]> }).data;
  if (warm.statusCode !== 200 || points.SPO2?.length !== NIGHTS) throw new Error(`warm-up trend: ${warm.statusCode} ${warm.body.slice(0, 200)}`);
  // BENCH_PORT: a fixed port (an engineer's assigned range); any free one without it.
  await app.listen({ host: '127.0.0.1', port: Number(process.env.BENCH_PORT ?? 0) });
  const port = (app.server.address() as { port: number }).port;
  console.log(JSON.stringify({ port, token, patientId: patient.id, from, to, codes: TREND_CODES, nights: NIGHTS }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
