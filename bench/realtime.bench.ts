// `npm run bench:realtime`: ingest capacity of live devices (issue 15). N simulated devices
// (one process, as `npm run device -- --devices N`) stream at 1× to a server in a child
// process (server/main.ts) for ROUND_MS; then every frame must be acknowledged and stored
// (0 lost) and the ack latency p99 must be ≤ 500 ms. On PostgreSQL (BENCH_DATABASE_URL,
// default postgres://postgres@127.0.0.1:5432/test, a schema of its own) with PGlite as the
// peer measured in the same run, like for like. Writes bench/results/realtime.json.
// The screen half (device-to-painted latency, 32-tile frame time, ours vs uPlot) is
// bench/realtime-screen.ts, measured in the same run and written under "screen".
// BENCH_PARTS=ingest or =screen runs one half and keeps the other's figures in the file.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { cpus, loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Db } from '../server/db/adapter';
import WebSocket from 'ws';
import { freePort, sharedDb, signInHttp, startServerProcess, stopGracefully, type SharedDb } from '../tests/server/live-processes';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../server/seed';
import { DeviceClient, liveSource } from '../server/live/device-client';
import { issueDeviceKey } from '../server/live/keys';
import { MAX_VIEWER_SOCKETS_PER_USER } from '../server/live/viewer-socket';
import { simulateNight } from '../server/simulator';
import { percentile, round } from './timing';
import { sampleRss } from './rss';
import { machineCpu, type MachineCpu } from './machine';
import { measureScreen, readScreen, writeScreen } from './realtime-screen';

const LEVELS = (process.env.BENCH_LEVELS ?? '10,100,1000').split(',').map(Number);
const KINDS = (process.env.BENCH_KINDS ?? 'postgres,pglite').split(',') as ('postgres' | 'pglite')[];
const ROUND_MS = Number(process.env.BENCH_ROUND_MS ?? 20_000);
const DRAIN_MS = 60_000;
/**
 * The memory level (issue 15: server memory with 1,000 devices and 50 viewers ≤ 1 GB): on
 * PostgreSQL, MEMORY_DEVICES devices stream while MEMORY_VIEWERS viewers of the physician
 * watch them, each device by one viewer, every other viewer never reading its socket (a
 * slow viewer). BENCH_MEMORY=0 skips it.
 */
const MEMORY_DEVICES = Number(process.env.BENCH_MEMORY_DEVICES ?? 1000);
const MEMORY_VIEWERS = Number(process.env.BENCH_VIEWERS ?? 50);
const MEMORY_GOAL_MB = 1024;
/** Longest the devices get to connect before the round starts (ms). */
const CONNECT_MS = 120_000;
const ACK_P99_GOAL_MS = 500;
const dir = fileURLToPath(new URL('./', import.meta.url));

interface Target extends SharedDb {
  kind: 'pglite' | 'postgres';
}

async function target(kind: 'pglite' | 'postgres'): Promise<Target> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'nocturne-rt-'));
  const db = await sharedDb(kind, dataDir, process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test');
  return {
    ...db,
    kind,
    async drop() {
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** N bench devices of the demo physician, each deployed to a bench patient of its own, each with a key. */
async function provision(db: Db, n: number, prefix: string): Promise<{ deviceId: string; key: string }[]> {
  const [phys] = await db.query<{ id: number }>('select id from users where email = $1', [DEMO_ACCOUNTS.physician]);
  const now = Date.now();
  const out: { deviceId: string; key: string }[] = [];
  for (let i = 0; i < n; i++) {
    const deviceId = `${prefix}${String(i).padStart(4, '0')}`;
    const [d] = await db.query<{ device_master_id: number }>('insert into devices (device_id, physician_id) values ($1, $2) returning device_master_id', [deviceId, phys.id]);
    // A patient of its own per device: a patient holds one device at a time.
    const [own] = await db.query<{ id: number }>(`insert into patients (patient_code, physician_id, created_by, gender, country) values ($1, $2, $2, 'F', 'Switzerland') returning id`, [`B${deviceId}`, phys.id]);
    await db.query(
      `insert into device_allocations (device_master_id, patient_id, physician_id, allocation_ms, deallocation_ms, timezone, created_by) values ($1, $2, $3, $4, $5, 'Europe/Zurich', $3)`,
      [d.device_master_id, own.id, phys.id, now - 3_600_000, now + 86_400_000],
    );
    out.push({ deviceId, key: (await issueDeviceKey(db, d.device_master_id, null)).key });
  }
  return out;
}

interface LevelResult {
  devices: number;
  /** Devices the server welcomed (the others never got in within the round). */
  devicesWelcomed: number;
  reconnects: number;
  seconds: number;
  framesSent: number;
  framesStored: number;
  /** Made but not stored when the drain window closed (never acked: a device keeps them). */
  framesNotStored: number;
  samplesSent: number;
  samplesStored: number;
  samplesNotStored: number;
  ackP50Ms: number;
  ackP99Ms: number;
  framesPerSecond: number;
  refused: number;
  /** Devices whose night was ended (compacted) within the drain window. */
  sessionsEnded: number;
  /** The device process's event-loop delay p99 during the round (ms): how much of the ack time the client itself adds. */
  clientLoopDelayP99Ms: number;
  /** When the devices were welcomed, from the start of the round (ms): all connect at once. */
  welcomeP50Ms: number;
  welcomeMaxMs: number;
  /** Ack p99 of the frames acked once every device was in (the connect storm over). */
  ackP99AfterAllWelcomedMs: number;
  /** The server process's peak resident memory from the first connect to the end of the drain (MB, sampled every 250 ms). */
  serverPeakRssMb: number;
  /** The machine's CPUs over the level (bench/machine.ts). */
  machine: MachineCpu;
  /** Viewers watching (the memory level), slow ones among them, and the frames the others received. */
  viewers?: { count: number; slow: number; framesReceived: number; skippedNotices: number };
  meetsGoal: boolean;
}

/**
 * `count` viewers signed in as the demo physician (one session, as tabs of one browser), each
 * subscribed to every count-th device; the odd ones stop reading their socket at once (TCP
 * back-pressure reaches the server, which must drop for them, not queue).
 */
/**
 * The practice's physicians enough for `count` viewer screens: the server keeps at most
 * MAX_VIEWER_SOCKETS_PER_USER live connections a user (since d541579), so 50 viewers are three
 * users' screens; the demo's two physicians, then secondary users added like the demo's.
 */
async function viewerAccounts(db: Db, count: number): Promise<string[]> {
  const emails: string[] = [DEMO_ACCOUNTS.physician, DEMO_ACCOUNTS.secondary];
  for (let k = 1; emails.length < Math.ceil(count / MAX_VIEWER_SOCKETS_PER_USER); k++) {
    const email = `viewer${k}@bench.nocturne.test`;
    await db.query(
      `insert into users (email, password_hash, organisation_id, country, first_name, last_name, role, is_secondary_user, physician_id)
       select $1, password_hash, organisation_id, country, 'Bench', 'Viewer', role, true, physician_id from users where email = $2
       on conflict do nothing`,
      [email, DEMO_ACCOUNTS.secondary],
    );
    emails.push(email);
  }
  return emails.slice(0, Math.max(1, Math.ceil(count / MAX_VIEWER_SOCKETS_PER_USER)));
}

async function openViewers(base: string, deviceIds: string[], count: number, accounts: readonly string[]): Promise<{ close(): { framesReceived: number; skippedNotices: number } }> {
  const tokens: string[] = [];
  for (const email of accounts) tokens.push(await signInHttp(base, email, DEMO_PASSWORD));
  let framesReceived = 0;
  let skippedNotices = 0;
  const sockets = await Promise.all(
    Array.from({ length: count }, (_, v) => new Promise<WebSocket>((resolve, reject) => {
      const ws = new WebSocket(`${base.replace('http', 'ws')}/api/v1/stream`);
      const slow = v % 2 === 1;
      let ready = false;
      ws.on('error', reject);
      // Refused before it was ready (a limit, a token): said, never waited for.
      ws.on('close', (code, reason) => {
        if (!ready) reject(new Error(`viewer ${v} closed before it was ready: ${code} ${reason.toString()}`));
      });
      ws.on('open', () => ws.send(JSON.stringify({ type: 'auth', token: tokens[Math.floor(v / MAX_VIEWER_SOCKETS_PER_USER)] })));
      ws.on('message', (data, isBinary) => {
        if (isBinary) return void framesReceived++;
        const msg = JSON.parse(data.toString()) as { type: string; message?: string };
        if (msg.type === 'skipped') skippedNotices++;
        if (msg.type === 'error' && !ready) reject(new Error(`viewer ${v} refused: ${msg.message ?? ''}`));
        if (msg.type !== 'ready') return;
        ready = true;
        for (let i = v; i < deviceIds.length; i += count) ws.send(JSON.stringify({ type: 'subscribe', deviceId: deviceIds[i] }));
        // The TCP socket under it: paused, nothing more is read, the server's send buffer fills.
        if (slow) (ws as unknown as { _socket: { pause(): void } })._socket.pause();
        resolve(ws);
      });
    })),
  );
  return {
    close() {
      for (const ws of sockets) ws.terminate();
      return { framesReceived, skippedNotices };
    },
  };
}

async function runLevel(t: Target, n: number, viewerCount = 0): Promise<LevelResult> {
  const prefix = `B${n}X`;
  // Provision with the database to ourselves (PGlite allows one process), then start the server.
  const port = process.env.BENCH_PORT ? Number(process.env.BENCH_PORT) : await freePort();
  let server = await startServerProcess(t.env, port);
  await stopGracefully(server);
  const setup = await t.open();
  const devices = await provision(setup, n, prefix);
  const accounts = viewerCount > 0 ? await viewerAccounts(setup, viewerCount) : [];
  await setup.close();
  server = await startServerProcess(t.env, port);
  const source = liveSource(simulateNight({ seed: 'bench-realtime', startMs: Math.floor(Date.now() / 1000) * 1000, durationMs: 30 * 60_000 }).channels);
  const samplesPerSecond = source.reduce((s, c) => s + c.sampleRate, 0);
  const clients = devices.map((d) => new DeviceClient({ server: `http://127.0.0.1:${port}`, deviceId: d.deviceId, key: d.key, source, speed: 1 }));
  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const rss = sampleRss(server.child.pid!, 250);
  const cpu = machineCpu();
  const started = Date.now();
  for (const c of clients) c.start();
  // All connect at once (a server restart's reconnect storm); the round of ROUND_MS starts once
  // every device is in, so each streams for all of it (frames made meanwhile count too).
  const connectBy = started + CONNECT_MS;
  while (clients.some((c) => c.welcomedAtMs === null) && Date.now() < connectBy) await new Promise((r) => setTimeout(r, 100));
  const viewers = viewerCount > 0 ? await openViewers(`http://127.0.0.1:${port}`, devices.map((d) => d.deviceId), viewerCount, accounts) : null;
  await new Promise((r) => setTimeout(r, ROUND_MS));
  const watched = viewers?.close();
  loop.disable();
  for (const c of clients) c.finish();
  // Each device's end of night: "ended" (its recording compacted) or refused; one still
  // ending when the drain window closes is neither (whether its frames were all stored is
  // counted from the database below).
  const outcome = new Map<DeviceClient, 'ended' | 'refused'>();
  for (const c of clients) c.done.then(() => outcome.set(c, 'ended'), () => outcome.set(c, 'refused'));
  await Promise.race([Promise.allSettled(clients.map((c) => c.done)), new Promise((r) => setTimeout(r, DRAIN_MS))]);
  const seconds = (Date.now() - started) / 1000;
  const serverPeakRssMb = Math.round((await rss.stop()) / 1048576);
  const machine = cpu.stop();
  for (const c of clients) c.stop();
  await stopGracefully(server);
  if (process.env.BENCH_VERBOSE) console.log(server.output.join('').split('\n').slice(-60).join('\n'));
  if (process.env.BENCH_SERVER_LOG) await writeFile(process.env.BENCH_SERVER_LOG, server.output.join(''));

  const check = await t.open();
  // Frames still in live_frames plus those pruned into their recording's totals (compacted nights).
  const [frames] = await check.query<{ n: number }>(
    `select ((select count(*) from live_frames f join devices d using (device_master_id) where d.device_id like $1)
      + (select coalesce(sum(t.frames), 0) from live_frame_totals t join devices d using (device_master_id) where d.device_id like $1))::int as n`,
    [`${prefix}%`],
  );
  const [samples] = await check.query<{ n: number }>(
    "select coalesce(sum(c.sample_count), 0)::int as n from recording_channels c join recordings r on r.id = c.recording_id where r.device_id like $1",
    [`${prefix}%`],
  );
  await check.close();
  const framesSent = clients.reduce((s, c) => s + c.framesMade, 0);
  // Samples the devices made: every channel up to the data time of its last frame (the client's own bookkeeping).
  const samplesSent = clients.reduce((s, c) => s + c.samplesMade, 0);
  const acks = clients.flatMap((c) => c.ackMs);
  const welcomes = clients.filter((c) => c.welcomedAtMs !== null).map((c) => c.welcomedAtMs! - started);
  const allIn = started + Math.max(0, ...welcomes);
  const afterAll = clients.flatMap((c) => c.ackMs.filter((_, i) => c.ackAtMs[i]! - c.ackMs[i]! > allIn));
  const refused = clients.reduce((s, c) => s + c.errors.length, 0) + [...outcome.values()].filter((o) => o === 'refused').length;
  const ended = [...outcome.values()].filter((o) => o === 'ended').length;
  const r: LevelResult = {
    devices: n,
    devicesWelcomed: clients.filter((c) => c.connects > 0).length,
    reconnects: clients.reduce((s, c) => s + Math.max(0, c.connects - 1), 0),
    seconds: round(seconds),
    framesSent,
    framesStored: frames.n,
    framesNotStored: framesSent - frames.n,
    samplesSent,
    samplesStored: samples.n,
    samplesNotStored: samplesSent - samples.n,
    ackP50Ms: acks.length ? round(percentile(acks, 0.5)) : -1,
    ackP99Ms: acks.length ? round(percentile(acks, 0.99)) : -1,
    framesPerSecond: round(frames.n / seconds),
    refused,
    sessionsEnded: ended,
    clientLoopDelayP99Ms: round(loop.percentile(99) / 1e6),
    welcomeP50Ms: welcomes.length ? round(percentile(welcomes, 0.5)) : -1,
    welcomeMaxMs: welcomes.length ? Math.max(...welcomes) : -1,
    ackP99AfterAllWelcomedMs: afterAll.length ? round(percentile(afterAll, 0.99)) : -1,
    serverPeakRssMb,
    machine,
    ...(watched ? { viewers: { count: viewerCount, slow: Math.floor(viewerCount / 2), ...watched } } : {}),
    meetsGoal: false,
  };
  r.meetsGoal = r.devicesWelcomed === n && r.samplesNotStored === 0 && r.framesNotStored === 0 && r.refused === 0 && r.ackP99Ms >= 0 && r.ackP99Ms <= ACK_P99_GOAL_MS;
  console.log(`${t.kind} ${n} devices (${r.devicesWelcomed} welcomed, ${r.reconnects} reconnects): ${r.framesStored}/${r.framesSent} frames stored, ${r.samplesNotStored} samples not stored in the drain window, ack p50 ${r.ackP50Ms} ms p99 ${r.ackP99Ms} ms (goal ≤ ${ACK_P99_GOAL_MS}), ${r.framesPerSecond} frames/s, ${r.sessionsEnded} nights ended in the drain window, ${samplesPerSecond} samples/s a device, client loop delay p99 ${r.clientLoopDelayP99Ms} ms, welcomed p50 ${r.welcomeP50Ms} ms max ${r.welcomeMaxMs} ms, ack p99 once all were in ${r.ackP99AfterAllWelcomedMs} ms, server peak RSS ${r.serverPeakRssMb} MB, machine busy ${r.machine.busyPct} % steal ${r.machine.stealPct} %${watched ? `, ${viewerCount} viewers (${Math.floor(viewerCount / 2)} slow) received ${watched.framesReceived} frames and ${watched.skippedNotices} skipped notices` : ''}${r.meetsGoal ? '' : ' — goal missed'}`);
  return r;
}

async function main(): Promise<void> {
  const results: Record<string, LevelResult[]> = {};
  for (const kind of KINDS) {
    results[kind] = [];
    for (const n of LEVELS) {
      const t = await target(kind);
      try {
        results[kind].push(await runLevel(t, n));
      } finally {
        await t.drop();
      }
    }
  }
  // Memory with viewers, on PostgreSQL (the production database), after the capacity levels.
  let memory: (LevelResult & { goalMb: number; memoryGoalMet: boolean }) | null = null;
  if (process.env.BENCH_MEMORY !== '0' && KINDS.includes('postgres')) {
    const t = await target('postgres');
    try {
      const r = await runLevel(t, MEMORY_DEVICES, MEMORY_VIEWERS);
      memory = { ...r, goalMb: MEMORY_GOAL_MB, memoryGoalMet: r.serverPeakRssMb <= MEMORY_GOAL_MB && r.framesNotStored === 0 };
      console.log(`memory level: server peak RSS ${r.serverPeakRssMb} MB with ${MEMORY_DEVICES} devices and ${MEMORY_VIEWERS} viewers, ${r.framesNotStored} frames not stored (goal ≤ ${MEMORY_GOAL_MB} MB, nothing lost: ${memory.memoryGoalMet ? 'met' : 'missed'}; the ack goal above is the capacity levels')`);
    } finally {
      await t.drop();
    }
  }
  const capacity = (kind: string) => Math.max(0, ...(results[kind] ?? []).filter((r) => r.meetsGoal).map((r) => r.devices));
  const out = {
    measuredAt: new Date().toISOString(),
    machine: `${cpus().length}-core machine (load average ${loadavg().map((l) => l.toFixed(1)).join(', ')} at the end)`,
    roundMs: ROUND_MS,
    goal: { ackP99Ms: ACK_P99_GOAL_MS, samplesLost: 0, devicesOnPostgres: 1000 },
    ingest: results,
    capacity: { postgres: capacity('postgres'), pglite: capacity('pglite') },
    memory,
    notes:
      'Devices at 1×, one client process, a fresh database per level. All devices connect at once; the round starts once every one is welcomed (welcomeP50Ms / welcomeMaxMs), so each streams for all of it; frames made during the connect storm count too. A level meets the goal when every device was welcomed, every frame made was stored before the 60 s drain window closed (frames are acked only after commit, so nothing acked is ever missing), no refusal, ack p99 ≤ 500 ms over every frame. ackP99AfterAllWelcomedMs: the frames made once all were in. clientLoopDelayP99Ms: the device process\'s own event-loop delay (part of every ack time). PGlite is the peer on the same code and load. serverPeakRssMb: the server process\'s peak resident memory over the level. machine: the whole machine\'s CPUs over the level, busy and stolen by the hypervisor (%), to tell a slower machine from slower code. memory: a further level on PostgreSQL with 1,000 devices and 50 viewers of the physician watching them (each device by one viewer; every other viewer never reads its socket), goal peak RSS ≤ 1,024 MB with nothing lost; its ack figures include serving the viewers.',
  };
  await writeFile(path.join(dir, 'results', 'realtime.json'), `${JSON.stringify(out, null, 2)}\n`);
  console.log(`capacity at the goal: PostgreSQL ${out.capacity.postgres} devices, PGlite ${out.capacity.pglite} devices → bench/results/realtime.json`);
}

const PARTS = (process.env.BENCH_PARTS ?? 'screen,ingest').split(',');

/** The screen half first (the quieter machine for the browser), then the ingest half, whose write the screen figures are put back into. */
async function run(): Promise<void> {
  const kept = await readScreen();
  const screen = PARTS.includes('screen') ? await measureScreen() : kept;
  if (screen) await writeScreen(screen);
  if (PARTS.includes('ingest')) await main();
  if (screen) await writeScreen(screen);
}

run().catch((err: Error) => {
  console.error(err.stack ?? err.message);
  process.exit(1);
});
