// `npm run bench:api`: how fast the server answers the engine's binary channel endpoint
// for a 10-hour 25 Hz channel on PGlite, against the spec's JSON series of the same data
// measured in the same run; and how fast a real ResMed night imports.
//
// Like with like: both endpoints are asked RUNS times after one warm-up, both without
// compression for the headline ratio (the binary is stored ready to send, the JSON is built
// per request: that difference is the design being measured); the gzip figure is context.
// Other benchmarks keep their own keys in api.json (bench:report adds `report`).
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { performance } from 'node:perf_hooks';
import { readConfig } from '../server/config';
import { openPglite } from '../server/db/pglite';
import { prepare } from '../server/start';
import { saveNight } from '../server/recordings/store';
import type { Night } from '../server/recordings/model';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../server/db/seed';
import { importFiles } from '../server/recordings/import';
import { percentile } from './timing';

const HOURS = 10;
const HZ = 25;
const START = Date.UTC(2026, 2, 9, 21, 0);
/** Requests timed per endpoint, after one warm-up each. */
const RUNS = 10;

const pct = (xs: readonly number[], p: number) => percentile(xs, p / 100);

async function timeRequests(run: () => Promise<unknown>, n: number): Promise<number[]> {
  await run(); // warm-up
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const t = performance.now();
    await run();
    times.push(performance.now() - t);
  }
  return times;
}

function tenHourChannel(): Night {
  const count = HOURS * 3600 * HZ;
  const samples = new Int16Array(count);
  let noise = 12345;
  for (let i = 0; i < count; i++) {
    noise = (noise * 1103515245 + 12345) & 0x7fffffff;
    samples[i] = Math.round(800 * Math.sin((2 * Math.PI * 0.25 * i) / HZ) + ((noise % 200) - 100));
  }
  return {
    startMs: START,
    stopMs: START + HOURS * 3_600_000,
    timezone: 'Europe/Zurich',
    channels: [{ code: 'Y_DIST', label: 'Y_DIST', unit: 'mm', sampleRate: HZ, t0: START, storage: 'int16', scale: 0.01, offset: 0, samples }],
    events: [],
    meta: { bench: true },
  };
}

export async function main(): Promise<Record<string, number>> {
  const db = await openPglite(null);
  const running = await prepare({ ...readConfig({}), webRoot: null }, db);
  const { app } = running;
  const call = (url: string, headers: Record<string, string> = {}) => app.inject({ method: 'GET', url: `/api/v1${url}`, headers });

  await app.inject({ method: 'POST', url: '/api/v1/login', payload: { email: DEMO_ACCOUNTS.physician, password: DEMO_PASSWORD } });
  const outbox = await call(`/dev/outbox?email=${DEMO_ACCOUNTS.physician}`);
  const otp = outbox.json().data.messages[0].code;
  const token = (await app.inject({ method: 'POST', url: '/api/v1/verify-otp', payload: { email: DEMO_ACCOUNTS.physician, otp } })).json().data.token;
  const auth = { authorization: `Bearer ${token}` };

  const [patient] = await db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1001'`);
  const saveStart = performance.now();
  const recordingId = await saveNight(db, { patientId: patient.id, deviceId: 'NCT0001', source: 'simulated', createdBy: null, night: tenHourChannel() });
  const saveMs = performance.now() - saveStart;

  const binaryUrl = `/analytics/patient/channel-data?patient_id=${patient.id}&recording_id=${recordingId}&code=Y_DIST`;
  const gz = await timeRequests(() => call(binaryUrl, { ...auth, 'accept-encoding': 'gzip' }), RUNS);
  const plain = await timeRequests(() => call(binaryUrl, auth), RUNS);
  const gzBytes = (await call(binaryUrl, { ...auth, 'accept-encoding': 'gzip' })).rawPayload.byteLength;
  // The JSON series answers at most 200,000 samples a call (issue 13): two hours of the channel.
  const jsonUrl = `/analytics/patient/type=Y_DIST?patient_id=${patient.id}&recording_date=2026-03-09&device_start_time=${START / 1000}&device_stop_time=${START / 1000 + 7200}`;
  const json = await timeRequests(() => call(jsonUrl, auth), RUNS);
  const jsonBytes = (await call(jsonUrl, auth)).rawPayload.byteLength;

  const results: Record<string, number> = {
    serve_10h_25hz_ms: pct(gz, 50),
    serve_10h_25hz_ms_p95: pct(gz, 95),
    serve_10h_25hz_uncompressed_ms: pct(plain, 50),
    serve_10h_25hz_uncompressed_ms_p95: pct(plain, 95),
    serve_10h_25hz_bytes: gzBytes,
    json_2h_25hz_ms: pct(json, 50),
    json_2h_25hz_ms_p95: pct(json, 95),
    json_2h_25hz_bytes: jsonBytes,
    runs_each: RUNS,
    // Per sample, both uncompressed: the JSON call serves 2 of the binary call's 10 hours.
    json_over_binary: (pct(json, 50) * (HOURS / 2)) / pct(plain, 50),
    // Context: the binary as the browser gets it (gzip) against the uncompressed JSON.
    context_json_over_binary_gzip: (pct(json, 50) * (HOURS / 2)) / pct(gz, 50),
    store_10h_25hz_ms: saveMs,
  };

  const imported = await importResmed(db, patient.id).catch((err: Error) => {
    console.log(`import_resmed_ms: not measured (${err.message})`);
    return null;
  });
  if (imported !== null) results.import_resmed_ms = imported;

  await running.close();
  console.log('\nAPI benchmark (PGlite, in-process HTTP through Fastify inject)');
  console.table(Object.fromEntries(Object.entries(results).map(([k, v]) => [k, Math.round(v * 100) / 100])));
  console.log(`serve_10h_25hz_ms goal ≤ 50: ${results.serve_10h_25hz_ms <= 50 ? 'met' : 'missed'}; the spec's JSON series of the same channel is ${results.json_over_binary.toFixed(1)}× slower per sample (both uncompressed, ${RUNS} runs each).`);
  await mkdir(new URL('./results/', import.meta.url), { recursive: true });
  const file = new URL('./results/api.json', import.meta.url);
  const kept = await readFile(file, 'utf8').then((text) => JSON.parse(text) as Record<string, unknown>, () => ({}));
  const others = Object.fromEntries(Object.entries(kept).filter(([, v]) => typeof v === 'object' && v !== null));
  await writeFile(file, JSON.stringify({ ...results, ...others }, null, 2) + '\n');
  return results;
}

/** Imports the ResMed BRP+EVE pair of tests/fixtures/real; returns ms. */
async function importResmed(db: Awaited<ReturnType<typeof openPglite>>, patientId: number): Promise<number> {
  const dir = new URL('../tests/fixtures/real/', import.meta.url);
  const files = ['snore_resmed_20250808_010210_BRP.edf', 'snore_resmed_20250808_010203_EVE.edf'].map((f) => new URL(f, dir).pathname);
  const t = performance.now();
  await importFiles(db, { patientId, deviceId: null, createdBy: null, paths: files, timezone: 'UTC' });
  return performance.now() - t;
}

if (import.meta.url === `file://${process.argv[1]}`) await main();
