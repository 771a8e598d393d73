// `npm run bench:scale`: two API processes on one database, measured (issue 34 point 6). ONE and
// then TWO server processes (server/main.ts) on one PostgreSQL (BENCH_DATABASE_URL, default
// postgres://postgres@127.0.0.1:5432/test, a schema of its own, dropped after), behind a
// round-robin TCP proxy on loopback (bench/scale-proxy.ts), each driven with the same mix for the
// same warm-up and round: BENCH_CONNECTIONS physicians in a closed loop (patient list, a night's
// channel as the browser loads it (binary, gzip), a night's summary, the 14-night trend, an
// annotation written), while BENCH_DEVICES simulated devices stream at 1× (DeviceClient, spread
// over the processes) and BENCH_VIEWERS viewers watch them over /api/v1/stream, half of them on
// the other process than the devices they watch (the frame crosses processes by LISTEN/NOTIFY).
// Reports per setup: requests/s, p50/p99 per request kind, device ack p99, device-to-viewer
// p99 (same process and cross-process), lost frames (must be 0), the machine's CPUs, and each
// process's CPU time over the round; then the ratio two/one. Writes bench/results/scale.json.
import { spawn, type ChildProcess } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import WebSocket from 'ws';
import type { Db } from '../server/db/adapter';
import { openPostgres } from '../server/db/postgres';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../server/seed';
import { DeviceClient, liveSource } from '../server/live/device-client';
import { FRAME_INTERVAL_MS } from '../contract/live-protocol';
import { saveNight } from '../server/recordings/store';
import { simulateNight } from '../server/simulator';
import { addDemoBeds } from '../server/live/demo-beds';
import { createSchema, dropSchema } from '../tests/server/helpers';
import { freePort, signInHttp, startServerProcess, stopGracefully, type ServerProcess } from '../tests/server/live-processes';
import { BENCH_DATABASE_URL, postgresReachable } from './bench-db';
import { machineCpu, type MachineCpu } from './machine';
import { cpuGroups, pidsNamed } from './proc-cpu';
import { percentile, round } from './timing';

const env = process.env;
/** Measured round per setup (ms), after BENCH_WARM_MS of the same load unmeasured. */
const ROUND_MS = Number(env.BENCH_ROUND_MS ?? 20_000);
const WARM_MS = Number(env.BENCH_WARM_MS ?? 5_000);
/** Rounds per setup, the setups alternating (1, 2, 2, 1, …); percentiles over every round's samples. */
const ROUNDS = Math.max(1, Number(env.BENCH_ROUNDS ?? 2));
const DEVICES = Number(env.BENCH_DEVICES ?? 200);
const VIEWERS = Number(env.BENCH_VIEWERS ?? 20);
/** Physicians in the closed loop: each one request at a time on its own keep-alive connection. */
const CONNECTIONS = Number(env.BENCH_CONNECTIONS ?? 16);
/**
 * BENCH_RATE (requests/s for all physicians together): paced instead of a closed loop, each
 * physician's requests due at fixed times and timed from when they were due (a late answer delays
 * the next, and that wait counts); the latencies at a load the machine can carry. Unset: the
 * closed loop, as fast as answers come (the throughput ceiling).
 */
const RATE = env.BENCH_RATE ? Number(env.BENCH_RATE) : null;
if (RATE !== null && !(RATE > 0)) throw new Error('BENCH_RATE: requests per second, above 0');
const NIGHTS = Number(env.BENCH_NIGHTS ?? 14);
const SETUPS = (env.BENCH_SETUPS ?? '1,2').split(',').map(Number);
/** The read-heavy mix: weights of the request kinds (BENCH_MIX=patients:3,channel:2,…). */
const MIX = Object.fromEntries((env.BENCH_MIX ?? 'patients:3,channel:2,summary:2,trend:2,annotate:1').split(',').map((p) => p.split(':')).map(([k, w]) => [k!, Number(w)]));
const KINDS = ['patients', 'channel', 'summary', 'trend', 'annotate'] as const;
type Kind = (typeof KINDS)[number];
const CONNECT_MS = 60_000;
const DRAIN_MS = 60_000;
const VIEWER_P99_GOAL_MS = 100;
const RATIO_GOAL = 1.6;
const FIRST_EVENING = Date.UTC(2026, 0, 5, 22, 0);
const DAY = 86_400_000;
const TREND_CODES = 'SPO2,HR,BR,AHI,ODI,RII,SE,SQ';
const CHANNEL_CODES = ['Y_DIST', 'I', 'SPO2', 'HR'];
const dir = fileURLToPath(new URL('./', import.meta.url));
/** CPU breakdown lines that are not one of our processes: every PostgreSQL process (others' too), and the rest of the machine's busy time. */
const EVERY_POSTGRES = "PostgreSQL, every process on the machine (others' too)";
const OTHERS = "everything else on the machine: all cores' busy time less our processes above (not counting the every-PostgreSQL line)";

for (const k of Object.keys(MIX)) if (!(KINDS as readonly string[]).includes(k) || !(MIX[k]! >= 0)) throw new Error(`BENCH_MIX: unknown kind or weight "${k}" (kinds: ${KINDS.join(', ')})`);

interface Fixture {
  patientId: number;
  nights: { recordingId: number; night: number; startMs: number }[];
  devices: { deviceId: string; key: string }[];
  token: string;
}

/** The night reviewed: NIGHTS simulated 8-h nights of the demo patient NCT1001, stored as an import would. */
async function storeNights(db: Db, patientId: number): Promise<Fixture['nights']> {
  const out: Fixture['nights'] = [];
  for (let k = 0; k < NIGHTS; k++) {
    const startMs = FIRST_EVENING + k * DAY;
    const night = simulateNight({ seed: `bench-scale-${k}`, startMs, durationMs: 8 * 3_600_000 });
    const recordingId = await saveNight(db, { patientId, deviceId: 'NCT0001', source: 'simulated', createdBy: null, night });
    const [row] = await db.query<{ night_key: number }>('select night_key from recordings where id = $1', [recordingId]);
    out.push({ recordingId, night: Number(row!.night_key), startMs });
  }
  return out;
}

/** DEVICES bench devices of the demo physician, each deployed to a patient of its own and with a key. */
const provisionDevices = (db: Db): Promise<Fixture['devices']> => addDemoBeds(db, DEVICES, 'SCL', 0);

// ── the request mix ────────────────────────────────────────────────────────────────────

interface Call {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  headers?: Record<string, string>;
}

/** The i-th request of the mix: kinds in proportion to their weights, interleaved; nights and channels rotate. */
function mixSequence(): Kind[] {
  const seq: Kind[] = [];
  const left = { ...MIX } as Record<Kind, number>;
  while (KINDS.some((k) => (left[k] ?? 0) > 0)) {
    for (const k of KINDS) {
      if ((left[k] ?? 0) > 0) {
        seq.push(k);
        left[k]!--;
      }
    }
  }
  return seq;
}

function callOf(kind: Kind, i: number, f: Fixture): Call {
  const n = f.nights[i % f.nights.length]!;
  const api = '/api/v1';
  switch (kind) {
    case 'patients':
      return { method: 'GET', path: `${api}/physician/patients` };
    case 'channel':
      return {
        method: 'GET',
        path: `${api}/analytics/patient/channel-data?patient_id=${f.patientId}&recording_id=${n.recordingId}&code=${CHANNEL_CODES[Math.floor(i / f.nights.length) % CHANNEL_CODES.length]}`,
        headers: { 'accept-encoding': 'gzip' },
      };
    case 'summary':
      return { method: 'POST', path: `${api}/analytics/patient/all-kpi-summary`, body: JSON.stringify({ patient_id: f.patientId, night: n.night }) };
    case 'trend': {
      const from = (FIRST_EVENING - 13 * 3_600_000) / 1000;
      const to = (FIRST_EVENING + (f.nights.length - 1) * DAY + 11 * 3_600_000) / 1000;
      return { method: 'GET', path: `${api}/analytics/patient-trendview/type=${TREND_CODES}?patient_id=${f.patientId}&device_start_time=${from}&device_stop_time=${to}` };
    }
    case 'annotate':
      return {
        method: 'POST',
        path: `${api}/analytics/patient/new-annotations`,
        body: JSON.stringify({ patient_id: f.patientId, night: n.night, kpi: 'SPO2', start_time: n.startMs + 3_600_000 + (i % 20_000) * 1000, duration: '20', label: 1 }),
      };
  }
}

function request(agent: http.Agent, port: number, token: string, call: Call): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        host: '127.0.0.1',
        port,
        agent,
        method: call.method,
        path: call.path,
        headers: { authorization: `Bearer ${token}`, ...(call.body ? { 'content-type': 'application/json' } : {}), ...call.headers },
      },
      (res) => {
        const chunks: Buffer[] = [];
        let bytes = 0;
        res.on('data', (c: Buffer) => {
          // Only an error's body is kept (to say what went wrong); a channel's megabytes are counted, not held.
          if ((res.statusCode ?? 0) >= 300 && bytes < 2000) chunks.push(c);
          bytes += c.byteLength;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString().slice(0, 300) }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(call.body);
  });
}

interface MixRun {
  /** Call once the warm-up is over: requests started from then on are measured. */
  measure(): void;
  /** Stops starting requests; resolves once the ones in flight are answered. */
  stop(): Promise<void>;
  times: Record<Kind, number[]>;
  errors: Record<Kind, number>;
  firstError: string | null;
}

/** CONNECTIONS physicians, each one request at a time on its own keep-alive connection through the proxy's round robin. */
function runMix(port: number, f: Fixture): MixRun {
  const seq = mixSequence();
  const times = Object.fromEntries(KINDS.map((k) => [k, [] as number[]])) as Record<Kind, number[]>;
  const errors = Object.fromEntries(KINDS.map((k) => [k, 0])) as Record<Kind, number>;
  const run: MixRun = { measure: () => (measuring = true), stop: async () => undefined, times, errors, firstError: null };
  let measuring = false;
  let running = true;
  let next = 0;
  const agents: http.Agent[] = [];
  const loops = Array.from({ length: CONNECTIONS }, async (_, c) => {
    // One socket per physician: the proxy places each on a process once, as a browser's connection.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    agents.push(agent);
    // Paced: this physician's n-th request is due at start + (n + c / CONNECTIONS) × interval.
    const interval = RATE === null ? 0 : (CONNECTIONS * 1000) / RATE;
    const start = performance.now();
    for (let n = 0; running; n++) {
      const due = start + (n + c / CONNECTIONS) * interval;
      if (RATE !== null && due > performance.now()) await new Promise((r) => setTimeout(r, due - performance.now()));
      if (!running) break;
      const i = next++;
      const kind = seq[i % seq.length]!;
      const counted = measuring;
      const t = RATE === null ? performance.now() : due;
      const res = await request(agent, port, f.token, callOf(kind, i, f)).catch((err: Error) => ({ status: 0, body: err.message }));
      const ms = performance.now() - t;
      if (!counted) continue;
      if (res.status >= 200 && res.status < 300) times[kind].push(ms);
      else {
        errors[kind]++;
        run.firstError ??= `${kind}: ${res.status} ${res.body}`;
      }
    }
  });
  run.stop = async () => {
    running = false;
    await Promise.all(loops);
    for (const a of agents) a.destroy();
  };
  return run;
}

// ── viewers ────────────────────────────────────────────────────────────────────────────

interface Viewers {
  measure(): void;
  /** Device-to-viewer latency (ms): receipt here minus the device's send time (one clock, one machine). */
  sameMs: number[];
  crossMs: number[];
  framesReceived: number;
  skippedNotices: number;
  /** Frames between the first and last received of a (viewer, device) pair that never arrived. */
  gaps(): number;
  close(): void;
}

/** The process a viewer connects to: viewers 0, 3, 4, 7, … watch devices of their own process, 1, 2, 5, 6, … of the other. */
const viewerProcess = (v: number, k: number) => Math.floor(v / 2) % k;
const deviceProcess = (i: number, k: number) => i % k;

/** A frame's header (the JSON before the samples). */
function frameHeader(data: Buffer): { deviceId: string; seq: number; sentMs: number } {
  const h = data.readUInt32LE(0);
  return JSON.parse(data.subarray(4, 4 + h).toString()) as { deviceId: string; seq: number; sentMs: number };
}

async function openViewers(pinned: number[], token: string, deviceIds: string[]): Promise<Viewers> {
  const k = pinned.length;
  const out: Viewers = { measure: () => (measuring = true), sameMs: [], crossMs: [], framesReceived: 0, skippedNotices: 0, gaps: () => 0, close: () => undefined };
  let measuring = false;
  const seqs = new Map<string, { min: number; max: number; n: number }>();
  const sockets = await Promise.all(
    Array.from({ length: VIEWERS }, (_, v) => new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${pinned[viewerProcess(v, k)]}/api/v1/stream`);
      const mine = deviceIds.map((id, i) => ({ id, i })).filter(({ i }) => i % VIEWERS === v);
      const cross = new Map(mine.map(({ id, i }) => [id, deviceProcess(i, k) !== viewerProcess(v, k)]));
      let subscribed = 0;
      ws.on('error', reject);
      ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token })));
      ws.on('message', (data: Buffer, isBinary) => {
        if (isBinary) {
          const at = Date.now();
          const h = frameHeader(data);
          if (!measuring) return;
          out.framesReceived++;
          (cross.get(h.deviceId) ? out.crossMs : out.sameMs).push(at - h.sentMs);
          const key = `${v}:${h.deviceId}`;
          const s = seqs.get(key);
          if (!s) seqs.set(key, { min: h.seq, max: h.seq, n: 1 });
          else {
            s.min = Math.min(s.min, h.seq);
            s.max = Math.max(s.max, h.seq);
            s.n++;
          }
          return;
        }
        const msg = JSON.parse(data.toString()) as { type: string; message?: string };
        if (msg.type === 'skipped' && measuring) out.skippedNotices++;
        if (msg.type === 'error') reject(new Error(`viewer ${v}: ${msg.message}`));
        if (msg.type === 'ready') {
          for (const { id } of mine) ws.send(JSON.stringify({ type: 'subscribe', deviceId: id }));
          if (mine.length === 0) resolve(ws);
        }
        if (msg.type === 'subscribed' && ++subscribed === mine.length) resolve(ws);
      });
    })),
  );
  out.gaps = () => [...seqs.values()].reduce((s, r) => s + (r.max - r.min + 1 - r.n), 0);
  out.close = () => {
    for (const ws of sockets) ws.terminate();
  };
  return out;
}

// ── one setup ──────────────────────────────────────────────────────────────────────────

interface KindFigures {
  requests: number;
  reqPerS: number;
  p50Ms: number | null;
  p99Ms: number | null;
  errors: number;
}

interface SetupRound {
  mix: MixRun;
  seconds: number;
  ackMs: number[];
  viewers: Viewers;
  framesMade: number;
  framesStored: number;
  devicesWelcomed: number;
  reconnects: number;
  refused: number;
  machine: MachineCpu;
  cpu: Record<string, { cpuSeconds: number; pctOfOneCore: number }>;
  clientLoopDelayP99Ms: number;
}

async function startProxy(ports: number[]): Promise<{ child: ChildProcess; rr: number; pinned: number[] }> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(dir, 'scale-proxy.ts'), ...ports.map(String)], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  const info = await new Promise<{ rr: number; pinned: number[] }>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{"rr"'));
      if (line) resolve(JSON.parse(line) as { rr: number; pinned: number[] });
    });
    child.once('exit', (code) => reject(new Error(`proxy exited with ${code}`)));
  });
  child.removeAllListeners('exit');
  return { child, ...info };
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await exited;
}

/** Frames stored of the bench devices so far (live_frames plus the totals of compacted nights). */
async function framesStored(db: Db): Promise<number> {
  const [r] = await db.query<{ n: number }>(
    `select ((select count(*) from live_frames f join devices d using (device_master_id) where d.device_id like 'SCL%')
      + (select coalesce(sum(t.frames), 0) from live_frame_totals t join devices d using (device_master_id) where d.device_id like 'SCL%'))::int as n`,
  );
  return r!.n;
}

/** PostgreSQL backends of our servers (application_name) now. */
async function ourBackends(admin: pg.Client, appName: string): Promise<number[]> {
  const rows = await admin.query<{ pid: number }>('select pid from pg_stat_activity where application_name = $1', [appName]);
  return rows.rows.map((r) => r.pid);
}

async function runSetup(k: number, serverEnv: Record<string, string>, appName: string, db: Db, f: Fixture): Promise<SetupRound> {
  const servers: ServerProcess[] = [];
  // One after the other: each runs the migrations check and the demo seed's lock on start.
  for (let p = 0; p < k; p++) servers.push(await startServerProcess(serverEnv, await freePort()));
  const proxy = await startProxy(servers.map((s) => Number(new URL(s.url).port)));
  const admin = new pg.Client({ connectionString: BENCH_DATABASE_URL, application_name: 'nocturne_scale_bench' });
  await admin.connect();
  const storedBefore = await framesStored(db);
  try {
    const source = liveSource(simulateNight({ seed: 'bench-scale', startMs: Math.floor(Date.now() / 1000) * 1000, durationMs: 30 * 60_000 }).channels);
    // Device i on process i % k, its 200-ms ticks spread over the interval (bedsides tick on their own clocks).
    const clients = f.devices.map((d, i) => new DeviceClient({ server: `http://127.0.0.1:${proxy.pinned[deviceProcess(i, k)]}`, deviceId: d.deviceId, key: d.key, source, speed: 1, phaseMs: (i * FRAME_INTERVAL_MS) / f.devices.length }));
    for (const c of clients) c.start();
    const connectBy = Date.now() + CONNECT_MS;
    while (clients.some((c) => c.welcomedAtMs === null) && Date.now() < connectBy) await new Promise((r) => setTimeout(r, 100));
    const viewers = await openViewers(proxy.pinned, f.token, f.devices.map((d) => d.deviceId));
    const mix = runMix(proxy.rr, f);
    await new Promise((r) => setTimeout(r, WARM_MS));

    const loop = monitorEventLoopDelay({ resolution: 10 });
    const cpu = await cpuGroups({
      'bench client (devices, viewers, physicians)': () => [process.pid],
      proxy: () => [proxy.child.pid!],
      ...Object.fromEntries(servers.map((s, p) => [`API process ${String.fromCharCode(65 + p)}`, () => [s.child.pid!]])),
      'PostgreSQL backends of the API processes': () => ourBackends(admin, appName),
      [EVERY_POSTGRES]: () => pidsNamed('postgres'),
    });
    const machine = machineCpu();
    const from = Date.now();
    loop.enable();
    mix.measure();
    viewers.measure();
    await new Promise((r) => setTimeout(r, ROUND_MS));
    const to = Date.now();
    loop.disable();
    const cpuFigures = await cpu.stop();
    const machineFigures = machine.stop();
    // What the machine's CPUs did besides our processes (other engineers' work on a shared machine): busy time of all cores less ours.
    const ours = Object.entries(cpuFigures).filter(([name]) => name !== EVERY_POSTGRES).reduce((s, [, v]) => s + v.pctOfOneCore, 0);
    const others = Math.max(0, machineFigures.busyPct * cpus().length - ours);
    cpuFigures[OTHERS] = { cpuSeconds: round(((others / 100) * (to - from)) / 1000, 3), pctOfOneCore: round(others, 3) };
    await mix.stop();
    viewers.close();
    for (const c of clients) c.finish();
    await Promise.race([Promise.allSettled(clients.map((c) => c.done)), new Promise((r) => setTimeout(r, DRAIN_MS))]);
    const refused = clients.reduce((s, c) => s + c.errors.length, 0);
    for (const c of clients) c.stop();
    const framesMade = clients.reduce((s, c) => s + c.framesMade, 0);
    // Acks received within the measured round.
    const ackMs = clients.flatMap((c) => c.ackMs.filter((_, i) => c.ackAtMs[i]! >= from && c.ackAtMs[i]! <= to));
    return {
      mix,
      seconds: (to - from) / 1000,
      ackMs,
      viewers,
      framesMade,
      framesStored: (await framesStored(db)) - storedBefore,
      devicesWelcomed: clients.filter((c) => c.connects > 0).length,
      reconnects: clients.reduce((s, c) => s + Math.max(0, c.connects - 1), 0),
      refused,
      machine: machineFigures,
      cpu: cpuFigures,
      clientLoopDelayP99Ms: round(loop.percentile(99) / 1e6),
    };
  } finally {
    await admin.end();
    for (const s of servers) await stopGracefully(s);
    await stopChild(proxy.child);
    // The same data for every setup: the annotations this one wrote are removed (their history goes with them).
    await db.query("delete from annotations where patient_id = $1 and type = 'custom'", [f.patientId]);
  }
}

const pct = (xs: number[], p: number) => (xs.length === 0 ? null : round(percentile(xs, p)));

/** One setup's rounds together: percentiles over every sample of every round, rates over all their seconds. */
function summarise(k: number, rounds: SetupRound[]) {
  const seconds = rounds.reduce((s, r) => s + r.seconds, 0);
  const kinds = {} as Record<Kind, KindFigures>;
  for (const kind of KINDS) {
    const t = rounds.flatMap((r) => r.mix.times[kind]);
    kinds[kind] = { requests: t.length, reqPerS: round(t.length / seconds), p50Ms: pct(t, 0.5), p99Ms: pct(t, 0.99), errors: rounds.reduce((s, r) => s + r.mix.errors[kind], 0) };
  }
  const all = rounds.flatMap((r) => KINDS.flatMap((kind) => r.mix.times[kind]));
  const same = rounds.flatMap((r) => r.viewers.sameMs);
  const cross = rounds.flatMap((r) => r.viewers.crossMs);
  const framesMade = rounds.reduce((s, r) => s + r.framesMade, 0);
  const framesStored = rounds.reduce((s, r) => s + r.framesStored, 0);
  const viewerGaps = rounds.reduce((s, r) => s + r.viewers.gaps(), 0);
  const skipped = rounds.reduce((s, r) => s + r.viewers.skippedNotices, 0);
  const out = {
    processes: k,
    rounds: rounds.length,
    seconds: round(seconds),
    reqPerS: round(all.length / seconds),
    p50Ms: pct(all, 0.5),
    p99Ms: pct(all, 0.99),
    errors: KINDS.reduce((s, kind) => s + kinds[kind].errors, 0),
    firstError: rounds.find((r) => r.mix.firstError)?.mix.firstError ?? null,
    kinds,
    devices: { count: DEVICES, welcomed: Math.min(...rounds.map((r) => r.devicesWelcomed)), reconnects: rounds.reduce((s, r) => s + r.reconnects, 0), refused: rounds.reduce((s, r) => s + r.refused, 0), ackP50Ms: pct(rounds.flatMap((r) => r.ackMs), 0.5), ackP99Ms: pct(rounds.flatMap((r) => r.ackMs), 0.99) },
    viewers: {
      count: VIEWERS,
      framesReceived: rounds.reduce((s, r) => s + r.viewers.framesReceived, 0),
      sameProcessP50Ms: pct(same, 0.5),
      sameProcessP99Ms: pct(same, 0.99),
      crossProcessP50Ms: pct(cross, 0.5),
      crossProcessP99Ms: pct(cross, 0.99),
      crossProcessFrames: cross.length,
      skippedNotices: skipped,
    },
    lostFrames: { notStored: framesMade - framesStored, missedByViewers: viewerGaps, framesMade, framesStored },
    clientLoopDelayP99Ms: Math.max(...rounds.map((r) => r.clientLoopDelayP99Ms)),
    machine: { busyPct: round(rounds.reduce((s, r) => s + r.machine.busyPct, 0) / rounds.length, 3), stealPct: round(rounds.reduce((s, r) => s + r.machine.stealPct, 0) / rounds.length, 3) },
    /** Our processes' CPU together (bench client, proxy, API processes, their PostgreSQL backends), % of one core, and per request answered (ms, the devices' and viewers' share included). */
    oursPctOfOneCore: 0,
    cpuMsPerRequest: 0 as number | null,
    cpuPctOfOneCore: Object.fromEntries(Object.keys(rounds[0]!.cpu).map((name) => [name, round(rounds.reduce((s, r) => s + r.cpu[name]!.pctOfOneCore, 0) / rounds.length, 3)])),
  };
  out.oursPctOfOneCore = round(Object.entries(out.cpuPctOfOneCore).filter(([name]) => name !== EVERY_POSTGRES && name !== OTHERS).reduce((sum, [, v]) => sum + v, 0), 3);
  out.cpuMsPerRequest = all.length === 0 ? null : round(((out.oursPctOfOneCore / 100) * seconds * 1000) / all.length, 3);
  return out;
}

type Summary = ReturnType<typeof summarise>;

function print(s: Summary): void {
  console.log(`\n${s.processes} API process${s.processes > 1 ? 'es' : ''}: ${s.reqPerS} req/s over ${s.seconds} s (${CONNECTIONS} physicians${RATE === null ? '' : `, paced at ${RATE} req/s`}), p50 ${s.p50Ms} ms p99 ${s.p99Ms} ms, ${s.errors} errors${s.firstError ? ` (first: ${s.firstError})` : ''}`);
  console.table(s.kinds);
  console.log(
    `  devices: ${s.devices.welcomed}/${s.devices.count} welcomed, ack p50 ${s.devices.ackP50Ms} ms p99 ${s.devices.ackP99Ms} ms, ${s.devices.reconnects} reconnects, ${s.devices.refused} refused; ` +
      `viewers: ${s.viewers.framesReceived} frames, device-to-viewer p50/p99 same process ${s.viewers.sameProcessP50Ms}/${s.viewers.sameProcessP99Ms} ms, cross-process ${s.viewers.crossProcessP50Ms}/${s.viewers.crossProcessP99Ms} ms (${s.viewers.crossProcessFrames} frames; goal ≤ ${VIEWER_P99_GOAL_MS}); ` +
      `lost frames: ${s.lostFrames.notStored} not stored, ${s.lostFrames.missedByViewers} missed by viewers (${s.viewers.skippedNotices} skipped notices); bench client loop delay p99 ${s.clientLoopDelayP99Ms} ms; machine busy ${s.machine.busyPct} % steal ${s.machine.stealPct} %`,
  );
  console.log('  CPU over the round, % of one core:');
  for (const [name, v] of Object.entries(s.cpuPctOfOneCore)) console.log(`    ${name}: ${v} %`);
  console.log(`  our processes together: ${s.oursPctOfOneCore} % of one core, ${s.cpuMsPerRequest ?? '–'} ms of CPU per request answered (the devices' and viewers' share included)`);
}

async function main(): Promise<void> {
  if (!(await postgresReachable())) {
    // As the other benchmarks' PostgreSQL parts: skipped and said (npm run bench goes on); the committed figures are kept.
    console.log(`bench:scale: PostgreSQL not reachable at BENCH_DATABASE_URL (${BENCH_DATABASE_URL}): skipped, bench/results/scale.json kept`);
    return;
  }
  const loadBefore = loadavg();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'nocturne-scale-'));
  const schema = await createSchema(BENCH_DATABASE_URL, 'bench');
  // The API processes' connections carry an application_name, so their PostgreSQL backends can be told from others'.
  const appName = `nocturne_scale_${schema}`.slice(0, 60);
  const serverEnv = {
    DATABASE_URL: `${BENCH_DATABASE_URL}${BENCH_DATABASE_URL.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}&application_name=${appName}`,
    DATA_DIR: dataDir,
  };
  const db = await openPostgres({ url: BENCH_DATABASE_URL, schema });
  const results: Record<number, SetupRound[]> = Object.fromEntries(SETUPS.map((k) => [k, []]));
  try {
    // The schema made and the demo clinic seeded by a first server; the data stored; every night's analysis and the trend computed once (stored), as after an import.
    const first = await startServerProcess(serverEnv, await freePort());
    let fixture: Fixture;
    try {
      console.log(`storing ${NIGHTS} simulated 8-h nights and ${DEVICES} devices …`);
      const [patient] = await db.query<{ id: number }>("select id from patients where patient_code = 'NCT1001'");
      const nights = await storeNights(db, patient!.id);
      const devices = await provisionDevices(db);
      const token = await signInHttp(first.url, DEMO_ACCOUNTS.physician, DEMO_PASSWORD);
      fixture = { patientId: patient!.id, nights, devices, token };
      const port = Number(new URL(first.url).port);
      const agent = new http.Agent({ keepAlive: true });
      for (let i = 0; i < nights.length; i++) {
        const r = await request(agent, port, token, callOf('summary', i, fixture));
        if (r.status !== 200) throw new Error(`warm-up summary: ${r.status} ${r.body}`);
      }
      const t = await request(agent, port, token, callOf('trend', 0, fixture));
      if (t.status !== 200) throw new Error(`warm-up trend: ${t.status} ${t.body}`);
      agent.destroy();
    } finally {
      await stopGracefully(first);
    }
    // Setups alternate round by round (1, 2, 2, 1, …): a load that comes and goes on a shared machine falls on both.
    for (let r = 0; r < ROUNDS; r++) {
      for (const k of r % 2 === 0 ? SETUPS : [...SETUPS].reverse()) {
        console.log(`round ${r + 1}/${ROUNDS}: ${k} API process${k > 1 ? 'es' : ''} …`);
        results[k]!.push(await runSetup(k, serverEnv, appName, db, fixture));
      }
    }
  } finally {
    await db.close();
    await dropSchema(BENCH_DATABASE_URL, schema);
    await rm(dataDir, { recursive: true, force: true });
  }

  const setups = SETUPS.map((k) => summarise(k, results[k]!));
  for (const s of setups) print(s);
  const one = setups.find((s) => s.processes === 1);
  const two = setups.find((s) => s.processes === 2);
  const ratio = one && two && one.reqPerS > 0 ? round(two.reqPerS / one.reqPerS, 3) : null;
  const lost = setups.reduce((s, x) => s + x.lostFrames.notStored + x.lostFrames.missedByViewers, 0);
  const crossOk = two ? two.viewers.crossProcessFrames > 0 && two.viewers.crossProcessP99Ms !== null && two.viewers.crossProcessP99Ms <= VIEWER_P99_GOAL_MS : null;
  if (ratio !== null && RATE !== null) console.log(`\npaced at ${RATE} req/s: the ratio of rates says nothing here (both carry the offered load); compare the latencies`);
  else if (ratio !== null) console.log(`\nread-heavy mix, two processes / one: ${ratio}× requests per second (goal ≥ ${RATIO_GOAL}: ${ratio >= RATIO_GOAL ? 'met' : 'missed; see the CPU breakdown above for what bounds it'})`);
  console.log(`lost frames: ${lost} (goal 0); cross-process viewer p99 ${two?.viewers.crossProcessP99Ms ?? '–'} ms (goal ≤ ${VIEWER_P99_GOAL_MS}: ${crossOk ? 'met' : 'missed'})`);
  const out = {
    measuredAt: new Date().toISOString(),
    machine: `${cpus().length}-core machine; load average ${loadBefore.map((l) => l.toFixed(1)).join(', ')} before, ${loadavg().map((l) => l.toFixed(1)).join(', ')} after`,
    database: 'PostgreSQL (BENCH_DATABASE_URL), a schema of its own',
    roundMs: ROUND_MS,
    warmUpMs: WARM_MS,
    rounds: ROUNDS,
    connections: CONNECTIONS,
    pacedRequestsPerS: RATE,
    mix: MIX,
    nights: NIGHTS,
    setups,
    ratioTwoOverOne: ratio,
    goals: { ratio: RATIO_GOAL, lostFrames: 0, crossProcessViewerP99Ms: VIEWER_P99_GOAL_MS },
    lostFrames: lost,
    notes:
      'The same mix, data (annotations written by a setup are removed after it), warm-up and round for each setup. Physicians: a closed loop, each one request at a time on its own keep-alive connection through the round-robin TCP proxy (bench/scale-proxy.ts, a process of its own; per connection, so the physicians split evenly over the processes). Devices and viewers go through the same proxy to a chosen process (its pinned ports): device i on process i % k; half the viewers watch devices of the other process (crossProcess*). Latencies: device ack = first send to ack; device-to-viewer = receipt by the viewer minus the frame\'s send time on the device (one machine, one clock). lostFrames: frames made but not stored after the drain, and frames missing between the first and last a viewer received of a device. cpuPctOfOneCore: each process\'s CPU time over the measured round (/proc/<pid>/stat), 100 = one core busy; machine: the whole machine\'s CPUs (bench/machine.ts). With pacedRequestsPerS set (BENCH_RATE), the physicians\' requests are due at fixed times instead (that many per second for all together) and each is timed from when it was due.',
  };
  const file = RATE === null ? 'scale.json' : 'scale-paced.json';
  await writeFile(path.join(dir, 'results', file), `${JSON.stringify(out, null, 2)}\n`);
  console.log(`→ bench/results/${file}`);
}

main().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
