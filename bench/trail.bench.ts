// bench:trail — what the access trail costs a request (issue 33 point 8: ≤ 5 % of throughput).
// Two servers (bench/load-server.ts: the demo clinic and a 10-h night on PGlite, each in its own
// process), one recording every signed-in request in the trail and one with ACCESS_TRAIL=off,
// are driven with the same reads — the patient list, a night list and a 1 Hz channel — by
// autocannon (10 connections), in alternating rounds (on, off, off, on, …) so drift and warm-up
// fall on both sides alike. Reported: requests per second over all rounds of each side, p50/p99
// over all their answers, and the ratio.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import autocannon from 'autocannon';
import { percentile } from './timing';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const WARM_S = 2;
const CONNECTIONS = 10;

interface Server {
  child: ChildProcess;
  port: number;
  token: string;
  patientId: number;
  recordingId: number;
}

async function startServer(trail: 'on' | 'off'): Promise<Server> {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(dir, 'load-server.ts'), 'pglite'], { stdio: ['ignore', 'pipe', 'inherit'], env: { ...process.env, ACCESS_TRAIL: trail, REPORT_WORKER: '0' } });
  let out = '';
  const info = await new Promise<Omit<Server, 'child'>>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{') && l.includes('"token"') && l.endsWith('}'));
      if (line) resolve(JSON.parse(line));
    });
    child.on('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { child, ...info };
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.on('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

const urls = (s: Server) => [
  '/physician/patients',
  `/patient/available-nights?patient_id=${s.patientId}`,
  `/analytics/patient/channel-data?patient_id=${s.patientId}&recording_id=${s.recordingId}&code=HR`,
];

async function round(s: Server, seconds: number, times: number[] | null): Promise<{ requests: number; non2xx: number }> {
  const requests = urls(s).map((u) => ({ method: 'GET' as const, path: `/api/v1${u}` }));
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: `http://127.0.0.1:${s.port}`, connections: CONNECTIONS, duration: seconds, headers: { authorization: `Bearer ${s.token}`, 'accept-encoding': 'gzip' }, requests }, (err, r) => (err ? reject(err) : resolve(r)));
    if (times) instance.on('response', (_c, _s, _b, ms) => times.push(ms));
  });
  return { requests: result.requests.total, non2xx: result.non2xx };
}

async function main() {
  const on = await startServer('on');
  const off = await startServer('off');
  try {
    const sides = { on: { server: on, times: [] as number[], requests: 0, non2xx: 0 }, off: { server: off, times: [] as number[], requests: 0, non2xx: 0 } };
    await round(on, WARM_S, null);
    await round(off, WARM_S, null);
    for (let r = 0; r < ROUNDS; r++) {
      // Alternating order: on/off, off/on, …
      for (const side of r % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
        const s = sides[side];
        const got = await round(s.server, SECONDS, s.times);
        s.requests += got.requests;
        s.non2xx += got.non2xx;
      }
    }
    const rows = Object.fromEntries(
      Object.entries(sides).map(([k, s]) => [`trail ${k}`, { req_per_s: Math.round(s.requests / (ROUNDS * SECONDS)), p50_ms: percentile(s.times, 0.5), p99_ms: percentile(s.times, 0.99), requests: s.requests, non_2xx: s.non2xx }]),
    );
    console.log(`bench:trail — ${ROUNDS} rounds × ${SECONDS} s per side, ${CONNECTIONS} connections, reads: ${urls(on).map((u) => u.split('?')[0]).join(', ')}`);
    console.table(rows);
    const ratio = rows['trail on']!.req_per_s / rows['trail off']!.req_per_s;
    console.log(`Throughput with the trail: ${(ratio * 100).toFixed(1)} % of without (cost ${((1 - ratio) * 100).toFixed(1)} %; goal ≤ 5 %).`);
  } finally {
    await stop(on);
    await stop(off);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
