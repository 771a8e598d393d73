// The access trail's cost (issue 33 point 8: ≤ 5 % of throughput), a part of `npm run bench:load`
// and the whole of `npm run bench:trail`. Two bench servers on PGlite (load-server.ts, each in
// its own process with its database inside it, so the process's CPU time is all the work of a
// request): one records every signed-in request in the trail, one runs with ACCESS_TRAIL=off.
// Each side runs as two processes, started in the order on, off, off, on (a process started
// first, on a machine still busy with the other's start, must not make one side look slower:
// an A/A run, BENCH_TRAIL_AA=1 with the trail off on both sides, showed such a gap with one
// process a side). autocannon drives all four with the same reads (the patient list, a night
// list, a 1 Hz channel), in rounds whose order alternates (on₁ off₁ off₂ on₂, then reversed),
// so drift and warm-up fall on both sides alike.
//
// Two figures per side: requests per second, and the server's CPU milliseconds per request
// (/proc utime + stime over each round). On this 2-core machine the load generator shares the
// cores with the server, so requests per second move by ±10 % between runs whatever the
// trail does; CPU per request is what the trail adds to each request and does not depend on
// who else is running. The cost stated is the CPU-per-request ratio (throughput of a
// CPU-bound server is its inverse); the req/s ratio is printed beside it.
import { readFileSync } from 'node:fs';
import autocannon from 'autocannon';
import { startLoadServer, stopLoadServer, type LoadChild } from './load-child';
import { percentile } from './timing';

const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
/** Each server's warm-up before the rounds (JIT, PGlite's caches): short ones left the first rounds dearer. */
const WARM_S = 10;
const CONNECTIONS = 10;
const GOAL_COST_PCT = 5;

interface Info {
  port: number;
  token: string;
  patientId: number;
  recordingId: number;
}

/** utime + stime of a process in ms (/proc, clock ticks of 10 ms). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

const urls = (s: Info) => [
  '/physician/patients',
  `/patient/available-nights?patient_id=${s.patientId}`,
  `/analytics/patient/channel-data?patient_id=${s.patientId}&recording_id=${s.recordingId}&code=HR`,
];

async function drive(s: LoadChild<Info>, seconds: number, times: number[] | null) {
  const requests = urls(s.info).map((u) => ({ method: 'GET' as const, path: `/api/v1${u}` }));
  const cpu0 = cpuMs(s.child.pid!);
  const result = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url: `http://127.0.0.1:${s.info.port}`, connections: CONNECTIONS, duration: seconds, headers: { authorization: `Bearer ${s.info.token}`, 'accept-encoding': 'gzip' }, requests }, (err, r) => (err ? reject(err) : resolve(r)));
    if (times) instance.on('response', (_c, _s, _b, ms) => times.push(ms));
  });
  return { requests: result.requests.total, non2xx: result.non2xx, cpuMs: cpuMs(s.child.pid!) - cpu0 };
}

interface Side {
  servers: LoadChild<Info>[];
  times: number[];
  requests: number;
  non2xx: number;
  cpuMs: number;
  /** CPU ms per request of each round, to show the spread. */
  perRound: number[];
}

function row(s: Side) {
  return {
    req_per_s: Math.round(s.requests / (ROUNDS * SECONDS * s.servers.length)),
    cpu_ms_per_req: Math.round((s.cpuMs / s.requests) * 1000) / 1000,
    cpu_ms_per_req_median: Math.round(percentile(s.perRound, 0.5) * 1000) / 1000,
    cpu_ms_per_req_rounds_min_max: [Math.min(...s.perRound), Math.max(...s.perRound)].map((v) => Math.round(v * 1000) / 1000),
    p50_ms: percentile(s.times, 0.5),
    p99_ms: percentile(s.times, 0.99),
    requests: s.requests,
    non_2xx: s.non2xx,
  };
}

/** Runs the comparison; returns both sides' figures and the cost. */
export async function trailPart() {
  const onEnv = { ACCESS_TRAIL: process.env.BENCH_TRAIL_AA ? 'off' : 'on', REPORT_WORKER: '0' };
  const offEnv = { ACCESS_TRAIL: 'off', REPORT_WORKER: '0' };
  const started: LoadChild<Info>[] = [];
  const start = async (env: NodeJS.ProcessEnv) => {
    const s = await startLoadServer<Info>('pglite', env);
    started.push(s);
    return s;
  };
  const side = (servers: LoadChild<Info>[]): Side => ({ servers, times: [], requests: 0, non2xx: 0, cpuMs: 0, perRound: [] });
  try {
    const on1 = await start(onEnv);
    const off1 = await start(offEnv);
    const off2 = await start(offEnv);
    const on2 = await start(onEnv);
    const on = side([on1, on2]);
    const off = side([off1, off2]);
    const order: [Side, LoadChild<Info>][] = [[on, on1], [off, off1], [off, off2], [on, on2]];
    for (const [, server] of order) await drive(server, WARM_S, null);
    for (let r = 0; r < ROUNDS; r++) {
      for (const [s, server] of r % 2 === 0 ? order : [...order].reverse()) {
        const got = await drive(server, SECONDS, s.times);
        s.requests += got.requests;
        s.non2xx += got.non2xx;
        s.cpuMs += got.cpuMs;
        s.perRound.push(got.cpuMs / got.requests);
      }
    }
    return report(on, off);
  } finally {
    for (const s of started) await stopLoadServer(s.child);
  }
}

function report(on: Side, off: Side) {
  const rows = { 'trail on': row(on), 'trail off': row(off) };
  // The median round of each side: a round that met a garbage collection or a checkpoint moves the total, not the median.
  const costPct = Math.round((rows['trail on'].cpu_ms_per_req_median / rows['trail off'].cpu_ms_per_req_median - 1) * 1000) / 10;
  const costTotalPct = Math.round((rows['trail on'].cpu_ms_per_req / rows['trail off'].cpu_ms_per_req - 1) * 1000) / 10;
  const throughputPct = Math.round((rows['trail on'].req_per_s / rows['trail off'].req_per_s) * 1000) / 10;
  console.log(`  access trail${process.env.BENCH_TRAIL_AA ? ' (A/A: the trail off on both sides)' : ''}: ${ROUNDS} rounds × 2 processes × ${SECONDS} s per side, ${CONNECTIONS} connections, PGlite, reads: ${urls(on.servers[0]!.info).map((u) => u.split('?')[0]).join(', ')}`);
  console.table(rows);
  console.log(`  server CPU per request with the trail (median rounds): ${costPct >= 0 ? "+" : ""}${costPct} %, over all requests ${costTotalPct >= 0 ? "+" : ""}${costTotalPct} % (goal ≤ ${GOAL_COST_PCT} %: ${costPct <= GOAL_COST_PCT ? 'met' : 'missed'}); requests/s with it: ${throughputPct} % of without (load generator on the same 2 cores)`);
  return { aa_check: Boolean(process.env.BENCH_TRAIL_AA), rounds: ROUNDS, processes_per_side: 2, seconds_per_round: SECONDS, connections: CONNECTIONS, ...rows, cpu_per_request_cost_pct: costPct, cpu_per_request_cost_all_requests_pct: costTotalPct, throughput_with_trail_pct: throughputPct, goal_cost_pct: GOAL_COST_PCT };
}
