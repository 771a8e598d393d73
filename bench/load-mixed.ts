// The mixed part of `npm run bench:load` (issue 34): PHYSICIANS physicians each open a
// different, not yet analysed 8-h night (its summary) while DEVICES devices stream at 1× and
// the physicians' viewers watch them. Measured: the server's event-loop delay during the
// summaries, device ack and device-to-viewer latency, and the summaries' answers. Run twice
// in the same run: the engine in worker threads (this build) and ENGINE_POOL=0, the engine on
// the event loop (the build before). Goals: loop p99 ≤ 20 ms, ack p99 ≤ 100 ms, viewer p99 ≤ 100 ms, all answered.
import type { ChildProcess } from 'node:child_process';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import WebSocket from 'ws';
import { DeviceClient, liveSource } from '../server/live/device-client';
import { simulateNight } from '../server/simulator';
import { startLoadServer, stopLoadServer } from './load-child';
import { percentile, round } from './timing';

const PHYSICIANS = Number(process.env.LOAD_MIXED_NIGHTS ?? 20);
const DEVICES = Number(process.env.LOAD_MIXED_DEVICES ?? 100);
/** Longest the devices get to connect (ms). */
const CONNECT_MS = 60_000;
/** Streaming before the summaries are asked, so the acks measured are steady ones (ms). */
const SETTLE_MS = 3000;
const GOALS = { loopP99Ms: 20, ackP99Ms: 100, viewerP99Ms: 100 };

interface MixedServer {
  child: ChildProcess;
  port: number;
  token: string;
  lines: string[];
  mixed: { patientId: number; nightKeys: number[]; devices: { deviceId: string; key: string }[] };
}

async function startMixedServer(kind: 'pglite' | 'postgres', enginePool: boolean): Promise<MixedServer> {
  const env = { LOAD_MIXED: '1', LOAD_MIXED_NIGHTS: String(PHYSICIANS), LOAD_MIXED_DEVICES: String(DEVICES), ENGINE_POOL: enginePool ? '1' : '0' };
  const { child, lines, info } = await startLoadServer<Omit<MixedServer, 'child' | 'lines'>>(kind, env);
  return { child, lines, ...info };
}

/** The server's event-loop delay since the last reset (load-server.ts answerCommands). */
async function serverLoop(server: MixedServer): Promise<{ p50: number; p99: number; max: number }> {
  const seen = server.lines.length;
  server.child.stdin!.write('loop report\n');
  for (;;) {
    const line = server.lines.slice(seen).find((l) => l.startsWith('{"loop"'));
    if (line) return (JSON.parse(line) as { loop: { p50: number; p99: number; max: number } }).loop;
    await new Promise((r) => setTimeout(r, 20));
  }
}

function summary(server: MixedServer, night: number): Promise<{ status: number; ms: number }> {
  const body = JSON.stringify({ patient_id: server.mixed.patientId, night });
  const t = performance.now();
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: server.port, method: 'POST', path: '/api/v1/analytics/patient/all-kpi-summary', headers: { authorization: `Bearer ${server.token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - t }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A frame's header (the JSON before the samples). */
function frameHeader(data: Buffer): { sentMs: number } {
  const h = data.readUInt32LE(0);
  return JSON.parse(data.subarray(4, 4 + h).toString()) as { sentMs: number };
}

/** One viewer per physician, each watching its share of the devices; latencies while `measuring()`. */
async function openViewers(server: MixedServer, measuring: () => boolean): Promise<{ latencies: number[]; close(): void }> {
  const latencies: number[] = [];
  const ids = server.mixed.devices.map((d) => d.deviceId);
  const sockets = await Promise.all(
    Array.from({ length: PHYSICIANS }, (_, v) => new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`ws://127.0.0.1:${server.port}/api/v1/stream`);
      const mine = ids.filter((_, i) => i % PHYSICIANS === v);
      let subscribed = 0;
      ws.on('error', reject);
      ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token: server.token })));
      ws.on('message', (data: Buffer, isBinary) => {
        if (isBinary) {
          if (measuring()) latencies.push(Date.now() - frameHeader(data).sentMs);
          return;
        }
        const msg = JSON.parse(data.toString()) as { type: string };
        if (msg.type === 'ready') for (const id of mine) ws.send(JSON.stringify({ type: 'subscribe', deviceId: id }));
        if (msg.type === 'ready' && mine.length === 0) resolve(ws);
        if (msg.type === 'subscribed' && ++subscribed === mine.length) resolve(ws);
      });
    })),
  );
  return { latencies, close: () => sockets.forEach((ws) => ws.terminate()) };
}

async function measure(kind: 'pglite' | 'postgres', enginePool: boolean) {
  const server = await startMixedServer(kind, enginePool);
  const source = liveSource(simulateNight({ seed: 'bench-load-mixed-live', startMs: Math.floor(Date.now() / 1000) * 1000, durationMs: 30 * 60_000 }).channels);
  const clients = server.mixed.devices.map((d, i) => new DeviceClient({ server: `http://127.0.0.1:${server.port}`, deviceId: d.deviceId, key: d.key, source, speed: 1, phaseMs: (i * 37) % 1000 }));
  let measuring = false;
  try {
    for (const c of clients) c.start();
    const connectBy = Date.now() + CONNECT_MS;
    while (clients.some((c) => c.welcomedAtMs === null) && Date.now() < connectBy) await new Promise((r) => setTimeout(r, 100));
    const viewers = await openViewers(server, () => measuring);
    await new Promise((r) => setTimeout(r, SETTLE_MS));
    server.child.stdin!.write('loop reset\n');
    const from = Date.now();
    measuring = true;
    const answers = await Promise.all(server.mixed.nightKeys.map((night) => summary(server, night)));
    measuring = false;
    const to = Date.now();
    const loop = await serverLoop(server);
    viewers.close();
    const acks = clients.flatMap((c) => c.ackMs.filter((_, i) => c.ackAtMs[i]! >= from && c.ackAtMs[i]! <= to));
    const times = answers.map((a) => a.ms);
    const r = {
      engine: enginePool ? 'worker threads' : 'event loop (ENGINE_POOL=0)',
      seconds: round((to - from) / 1000),
      devices_welcomed: clients.filter((c) => c.welcomedAtMs !== null).length,
      summaries_200: answers.filter((a) => a.status === 200).length,
      summaries_statuses: [...new Set(answers.map((a) => a.status))],
      summary_p50_ms: round(percentile(times, 0.5)),
      summary_max_ms: round(Math.max(...times)),
      loop_delay_p99_ms: loop.p99,
      loop_delay_max_ms: loop.max,
      ack_p99_ms: acks.length ? round(percentile(acks, 0.99)) : null,
      acks: acks.length,
      viewer_p99_ms: viewers.latencies.length ? round(percentile(viewers.latencies, 0.99)) : null,
      viewer_frames: viewers.latencies.length,
    };
    console.log(
      `  ${r.engine}: ${r.summaries_200}/${PHYSICIANS} summaries 200 (p50 ${r.summary_p50_ms} ms, last ${r.summary_max_ms} ms); event-loop delay p99 ${r.loop_delay_p99_ms} ms (goal ≤ ${GOALS.loopP99Ms}), max ${r.loop_delay_max_ms} ms; ` +
        `ack p99 ${r.ack_p99_ms} ms (goal ≤ ${GOALS.ackP99Ms}, ${r.acks} acks, ${r.devices_welcomed}/${DEVICES} devices); viewer p99 ${r.viewer_p99_ms} ms (goal ≤ ${GOALS.viewerP99Ms}, ${r.viewer_frames} frames)`,
    );
    return r;
  } finally {
    for (const c of clients) c.stop();
    await stopLoadServer(server.child);
  }
}

/** Both engines on one database kind, the pool first. */
export async function mixedPart(kind: 'pglite' | 'postgres') {
  console.log(`  mixed: ${PHYSICIANS} summaries of unanalysed 8-h nights while ${DEVICES} devices stream`);
  const pool = await measure(kind, true);
  const inline = await measure(kind, false);
  return { physicians: PHYSICIANS, devices: DEVICES, goals: GOALS, worker_threads: pool, event_loop: inline };
}
