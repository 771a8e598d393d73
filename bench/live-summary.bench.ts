// bench:live-summary — what reading a live night's summary every 5 s costs the server (issue 34
// point 2: "a live night's summary read every 5 s for 10 minutes costs ≤ 5 % of one core").
// Two servers (bench/load-server.ts on PGlite, each in its own process) run side by side in the
// same run: one keeping a live night's figures (LIVE_ANALYSIS_SECONDS=30, the default) and one
// computing them on every read (LIVE_ANALYSIS_SECONDS=0, the behaviour before decision 0980).
// Each gets one device streaming a simulated night at BENCH_SPEED× real time (default 10: an
// hour of night every 6 minutes, so the night grows during the run). First BENCH_QUIET_S
// seconds with no reads (the device's own cost), then BENCH_SECONDS with a summary read every
// 5 s. Reported per server: CPU % of one core (utime + stime of the process, worker threads
// included) in both phases, the reads' cost (the difference) and the read latencies. The 10
// minutes of the goal are BENCH_SECONDS=600; a shorter run gives the same rate per read.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { DeviceClient, liveSource } from '../server/live/device-client';
import { nightKey } from '../server/recordings/night-key';
import { simulateNight } from '../server/simulator';
import { cpuGroups } from './proc-cpu';
import { percentile } from './timing';

const SPEED = Number(process.env.BENCH_SPEED ?? 10);
const QUIET_S = Number(process.env.BENCH_QUIET_S ?? 30);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 120);
const READ_EVERY_MS = 5_000;
const ZONE = 'Europe/Zurich';

interface Server {
  name: string;
  child: ChildProcess;
  port: number;
  token: string;
  device: { deviceId: string; key: string; patientId: number };
}

async function startServer(name: string, liveSeconds: string): Promise<Server> {
  const dir = path.dirname(fileURLToPath(import.meta.url));
  const env = { ...process.env, LIVE_ANALYSIS_SECONDS: liveSeconds, REPORT_WORKER: '0', ACCESS_TRAIL: 'off', LOAD_MIXED: '1', LOAD_MIXED_NIGHTS: '0', LOAD_MIXED_DEVICES: '1' };
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(dir, 'load-server.ts'), 'pglite'], { stdio: ['pipe', 'pipe', 'inherit'], env });
  let out = '';
  const info = await new Promise<{ port: number; token: string; mixed: { devices: Server['device'][] } }>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const line = out.split('\n').find((l) => l.startsWith('{') && l.includes('"token"') && l.endsWith('}'));
      if (line) resolve(JSON.parse(line));
    });
    child.on('exit', (code) => reject(new Error(`bench server ${name} exited with ${code}`)));
  });
  return { name, child, port: info.port, token: info.token, device: info.mixed.devices[0]! };
}

async function stop(server: Server): Promise<void> {
  const exited = new Promise((resolve) => server.child.on('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** The server's device streaming a 10-h simulated night from now; resolves with its night key once it streams. */
function stream(server: Server): { client: DeviceClient; night: number } {
  const startMs = Math.floor(Date.now() / 1000) * 1000;
  const source = liveSource(simulateNight({ seed: 'bench-live-summary', startMs, durationMs: 10 * 3_600_000, profile: 'moderate_osa', timezone: ZONE }).channels);
  const client = new DeviceClient({ server: `http://127.0.0.1:${server.port}`, deviceId: server.device.deviceId, key: server.device.key, source, speed: SPEED });
  client.start();
  return { client, night: nightKey(startMs, ZONE) };
}

/** One read of the live night's summary; its time in ms (throws on a non-2xx answer). */
async function readSummary(server: Server, night: number): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/analytics/patient/all-kpi-summary`, {
    method: 'POST',
    headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ patient_id: server.device.patientId, night }),
  });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`${server.name}: summary answered ${res.status}`);
  return performance.now() - t0;
}

/** Reads each server's summary every READ_EVERY_MS for `seconds`; the read times per server. */
async function readEvery(sides: Array<{ server: Server; night: number }>, seconds: number): Promise<number[][]> {
  const times = sides.map(() => [] as number[]);
  const end = Date.now() + seconds * 1000;
  while (Date.now() < end) {
    const tick = Date.now();
    await Promise.all(sides.map(async (s, i) => times[i]!.push(await readSummary(s.server, s.night))));
    await new Promise((r) => setTimeout(r, Math.max(0, READ_EVERY_MS - (Date.now() - tick))));
  }
  return times;
}

async function main() {
  const servers = [await startServer('cached (30 s)', '30'), await startServer('uncached', '0')];
  const streams = servers.map(stream);
  try {
    const sides = servers.map((server, i) => ({ server, night: streams[i]!.night }));
    // The devices connected and a first minute of night stored before any measurement.
    await new Promise((r) => setTimeout(r, 5_000));
    const groups = Object.fromEntries(servers.map((s) => [s.name, () => [s.child.pid!]]));
    const quiet = await cpuGroups(groups);
    await new Promise((r) => setTimeout(r, QUIET_S * 1000));
    const quietCpu = await quiet.stop();
    const reading = await cpuGroups(groups);
    const times = await readEvery(sides, SECONDS);
    const readingCpu = await reading.stop();
    const rows = Object.fromEntries(
      servers.map((s, i) => {
        const t = times[i]!;
        const reads = readingCpu[s.name]!.pctOfOneCore - quietCpu[s.name]!.pctOfOneCore;
        return [s.name, { cpu_pct_streaming_only: quietCpu[s.name]!.pctOfOneCore, cpu_pct_with_reads: readingCpu[s.name]!.pctOfOneCore, reads_cost_pct: Math.round(reads * 10) / 10, reads: t.length, read_p50_ms: Math.round(percentile(t, 0.5)), read_max_ms: Math.round(Math.max(...t)) }];
      }),
    );
    console.log(`bench:live-summary — one device at ${SPEED}× real time per server, ${QUIET_S} s streaming only, then ${SECONDS} s with a summary read every ${READ_EVERY_MS / 1000} s; CPU as % of one core (goal: the reads ≤ 5 %)`);
    console.table(rows);
  } finally {
    for (const s of streams) s.client.stop();
    for (const s of servers) await stop(s);
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
