// `npm run bench:load`: memory and responsiveness under load (issue 13 point 6), on PGlite and
// on PostgreSQL (BENCH_DATABASE_URL, default postgres://postgres@127.0.0.1:5432/test; skipped
// when unreachable). The server runs in a child process on loopback (bench/load-server.ts);
// its resident memory is read from /proc. Writes bench/results/load.json.
//  1. 16 parallel largest requests of each kind → peak RSS (goal ≤ 1 GB)
//  2. GET p99 while a 200 MB upload is parsed and stored (goal ≤ 100 ms)
//  3. patient list at 50 connections: req/s and p99 (goal on PostgreSQL ≥ 1,000 req/s, p99 ≤ 50 ms)
//  4. mixed (bench/load-mixed.ts): 20 summaries of unanalysed 8-h nights while 100 devices stream,
//     the engine in worker threads against ENGINE_POOL=0 (goals: loop delay p99 ≤ 20 ms, ack and viewer p99 ≤ 100 ms)
//  5. trail (bench/load-trail.ts, PGlite only): server CPU per request with the access trail
//     with and without it, switched on the same processes (goal: ≤ 5 % more)
import type { ChildProcess } from 'node:child_process';
import { createReadStream } from 'node:fs';
import { mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import http from 'node:http';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { writeEdfPlus } from '../server/recordings/edf';
import type { Night } from '../server/recordings/model';
import { postgresReachable } from './bench-db';
import { startLoadServer, stopLoadServer } from './load-child';
import { mixedPart } from './load-mixed';
import { trailPart } from './load-trail';
import { peakRss } from './rss';

const GB = 1024 ** 3;
const MB = 1024 ** 2;
const dir = fileURLToPath(new URL('./', import.meta.url));

interface Server {
  child: ChildProcess;
  port: number;
  token: string;
  patientId: number;
  recordingId: number;
  codes: string[];
  nightDate: string;
}

async function startServer(kind: 'pglite' | 'postgres'): Promise<Server> {
  const { child, info } = await startLoadServer<Omit<Server, 'child'>>(kind);
  return { child, ...info };
}

const stopServer = (server: Server) => stopLoadServer(server.child);

function get(server: Server, url: string): Promise<{ status: number; bytes: number }> {
  return new Promise((resolve, reject) => {
    const req = http.get({ host: '127.0.0.1', port: server.port, path: `/api/v1${url}`, headers: { authorization: `Bearer ${server.token}` } }, (res) => {
      let bytes = 0;
      res.on('data', (c: Buffer) => (bytes += c.byteLength));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }));
    });
    req.on('error', reject);
  });
}

/** Phase 1: 16 parallel requests of each of the largest kinds. */
async function largest(server: Server) {
  const q = `patient_id=${server.patientId}&recording_id=${server.recordingId}`;
  const kinds: Record<string, string> = {
    json_series_all_channels: `/analytics/patient/type=${server.codes.join(',')}?patient_id=${server.patientId}&recording_date=${server.nightDate}`,
    json_series_one_channel: `/analytics/patient/type=I?patient_id=${server.patientId}&recording_date=${server.nightDate}`,
    channel_binary: `/analytics/patient/channel-data?${q}&code=I`,
    data_points_csv: `/analytics/patient/data-points?${q}&code=I`,
    export_edf: `/analytics/patient/export-edf?${q}`,
  };
  const out: Record<string, { peak_rss_mb: number; statuses: number[]; bytes_each: number; ms: number }> = {};
  let overall = 0;
  for (const [name, url] of Object.entries(kinds)) {
    const t = performance.now();
    const { result, peak } = await peakRss(server.child.pid!, () => Promise.all(Array.from({ length: 16 }, () => get(server, url))));
    overall = Math.max(overall, peak);
    out[name] = { peak_rss_mb: Math.round(peak / MB), statuses: [...new Set(result.map((r) => r.status))], bytes_each: result[0].bytes, ms: Math.round(performance.now() - t) };
    console.log(`  16 × ${name}: peak RSS ${Math.round(peak / MB)} MB (goal ≤ 1024 MB), status ${out[name].statuses.join('/')}, ${(result[0].bytes / MB).toFixed(1)} MB each`);
  }
  return { peak_rss_mb: Math.round(overall / MB), goal_peak_rss_mb: GB / MB, kinds: out };
}

/** A ~200 MB EDF+ night: 14 channels at 200 Hz for 10 hours. */
async function bigEdf(file: string): Promise<number> {
  const start = Date.UTC(2026, 2, 10, 21, 0);
  const hours = 10;
  const night: Night = {
    startMs: start,
    stopMs: start + hours * 3_600_000,
    timezone: 'UTC',
    channels: Array.from({ length: 14 }, (_, k) => {
      const samples = new Int16Array(hours * 3600 * 200);
      for (let i = 0; i < samples.length; i++) samples[i] = ((i * (k + 3)) % 2000) - 1000;
      return { code: `CH${k}`, label: `Raw ${k}`, unit: 'uV', sampleRate: 200, t0: start, storage: 'int16' as const, scale: 1, offset: 0, samples };
    }),
    events: [],
    meta: {},
  };
  await writeFile(file, writeEdfPlus(night));
  return (await stat(file)).size;
}

/** POSTs a file as multipart/form-data, streamed from disk. */
function upload(server: Server, file: string, size: number): Promise<{ status: number; body: string }> {
  const boundary = `----bench${Date.now()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="patient_id"\r\n\r\n${server.patientId}\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="files"; filename="big.edf"\r\nContent-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port: server.port,
        method: 'POST',
        path: '/api/v1/patient/upload-recording',
        headers: { authorization: `Bearer ${server.token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'content-length': head.byteLength + size + tail.byteLength },
      },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.write(head);
    const stream = createReadStream(file);
    stream.on('end', () => req.end(tail));
    stream.pipe(req, { end: false });
  });
}

/** Phase 2: GET latency (4 connections, patient list) for as long as a 200 MB upload takes. */
async function duringUpload(server: Server, file: string, size: number) {
  const t = performance.now();
  const uploading = upload(server, file, size);
  let done: (r: autocannon.Result) => void = () => undefined;
  const finished = new Promise<autocannon.Result>((resolve) => (done = resolve));
  const cannon = autocannon({ url: `http://127.0.0.1:${server.port}/api/v1/physician/patients`, connections: 4, duration: 3600, headers: { authorization: `Bearer ${server.token}` } }, (_err, r) => done(r));
  const { result, peak } = await peakRss(server.child.pid!, async () => {
    const res = await uploading;
    return res;
  });
  const uploadMs = Math.round(performance.now() - t);
  cannon.stop();
  const stats = await finished;
  const p99 = stats.latency.p99;
  console.log(`  200 MB upload: ${result.status} in ${(uploadMs / 1000).toFixed(1)} s, peak RSS ${Math.round(peak / MB)} MB; meanwhile GET p99 ${p99} ms (goal ≤ 100 ms), max ${stats.latency.max} ms, ${stats.requests.total} requests, ${stats.non2xx} not 2xx, ${stats.timeouts} timed out (> 10 s, not in the latencies)`);
  if (result.status !== 201) console.log(`  upload answer: ${result.body.slice(0, 300)}`);
  return { upload_mb: Math.round(size / MB), upload_status: result.status, upload_s: uploadMs / 1000, peak_rss_mb: Math.round(peak / MB), get_p99_ms: p99, get_max_ms: stats.latency.max, get_requests: stats.requests.total, get_non_2xx: stats.non2xx, get_timeouts_10s: stats.timeouts, goal_get_p99_ms: 100 };
}

/** Phase 3: the patient list at 50 connections for 10 s. */
async function patientList(server: Server) {
  const stats = await autocannon({ url: `http://127.0.0.1:${server.port}/api/v1/physician/patients`, connections: 50, duration: 10, headers: { authorization: `Bearer ${server.token}` } });
  console.log(`  patient list, 50 connections: ${Math.round(stats.requests.average)} req/s (goal ≥ 1000 on PostgreSQL), p99 ${stats.latency.p99} ms (goal ≤ 50 ms), ${stats.non2xx} not 2xx`);
  return { req_per_s: Math.round(stats.requests.average), p50_ms: stats.latency.p50, p99_ms: stats.latency.p99, non_2xx: stats.non2xx, goal_req_per_s: 1000, goal_p99_ms: 50 };
}


async function main() {
  const tmp = await mkdtemp(path.join(tmpdir(), 'nocturne-load-'));
  const file = path.join(tmp, 'big.edf');
  const phases = (process.env.LOAD_PHASES ?? 'largest,upload,list,mixed,trail').split(',');
  const size = phases.includes('upload') ? await bigEdf(file) : 0;
  // The machine's load when the run began: figures from a busy machine compare only with a run next to them.
  const results: Record<string, unknown> = { date: new Date().toISOString(), load_average_1_5_15: loadavg().map((l) => Math.round(l * 100) / 100), cpus: cpus().length };
  try {
    // LOAD_DATABASES=pglite and LOAD_PHASES=upload (or mixed) run a part (paired comparisons); the committed results are full runs.
    const databases = (process.env.LOAD_DATABASES ?? 'pglite,postgres').split(',');
    for (const kind of (['pglite', 'postgres'] as const).filter((k) => databases.includes(k))) {
      if (kind === 'postgres' && !(await postgresReachable())) {
        console.log('PostgreSQL not reachable (BENCH_DATABASE_URL): skipped');
        results.postgres = 'skipped: PostgreSQL not reachable';
        continue;
      }
      console.log(`${kind}:`);
      if (['largest', 'upload', 'list'].some((p) => phases.includes(p))) {
        const server = await startServer(kind);
        try {
          // A pause between phases: a phase that sheds load (503) must not leak into the next one.
          const pause = () => new Promise((r) => setTimeout(r, 2000));
          const largest16 = phases.includes('largest') ? await largest(server) : 'not run';
          await pause();
          const upload200 = phases.includes('upload') ? await duringUpload(server, file, size) : 'not run';
          await pause();
          results[kind] = { largest_16_parallel: largest16, get_during_upload: upload200, patient_list_50: phases.includes('list') ? await patientList(server) : 'not run' };
        } finally {
          await stopServer(server);
        }
      }
      // Servers of its own (fresh nights, devices), the engine in the pool and then inline.
      if (phases.includes('mixed')) results[kind] = { ...(results[kind] as object), mixed: await mixedPart(kind) };
      // PGlite only: the database inside the server process, so its CPU time is a request's whole cost.
      if (phases.includes('trail') && kind === 'pglite') results[kind] = { ...(results[kind] as object), access_trail: await trailPart() };
    }
  } finally {
    await rm(tmp, { recursive: true, force: true });
  }
  const out = process.env.LOAD_RESULTS ?? path.join(dir, 'results', 'load.json');
  await writeFile(out, `${JSON.stringify(results, null, 2)}\n`);
  console.log(`wrote ${out}`);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
