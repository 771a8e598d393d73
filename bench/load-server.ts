// The server under test of bench/load.bench.ts, in a process of its own so its memory is
// measured alone: a fresh database (PGlite in a temp dir, or a schema of its own on
// PostgreSQL at BENCH_DATABASE_URL), the demo clinic, one big night, listening on loopback.
// Prints one JSON line {port, token, patientId, recordingId, codes} when ready. LOAD_MIXED=1
// adds the mixed part's nights and devices (and `mixed` in the line); ENGINE_POOL=0 runs the
// engine inline, as the current build did. stdin: commands (answerCommands).
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import { readConfig } from '../server/config';
import { openPglite } from '../server/db/pglite';
import { openPostgres } from '../server/db/postgres';
import { prepare } from '../server/start';
import { saveNight } from '../server/recordings/store';
import type { Db } from '../server/db/adapter';
import type { FastifyInstance } from 'fastify';
import { issueDeviceKey } from '../server/live/keys';
import { simulateNight } from '../server/simulator';
import type { Night } from '../server/recordings/model';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../server/seed';
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

const DAY_MS = 86_400_000;
/** The first evening of the mixed part's nights (before the big night's). */
const MIXED_FIRST_EVENING = Date.UTC(2026, 0, 1, 21, 0);

/** A night moved by `ms` (the same samples, other days). */
function shifted(night: Night, ms: number): Night {
  return {
    ...night,
    startMs: night.startMs + ms,
    stopMs: night.stopMs + ms,
    channels: night.channels.map((c) => ({ ...c, t0: c.t0 + ms })),
    events: night.events.map((e) => ({ ...e, onsetMs: e.onsetMs + ms })),
  };
}

/**
 * The mixed part's fixture (load.bench.ts, issue 34): `nights` 8-h simulated nights of one
 * patient, none analysed yet, and `devices` devices each deployed to a patient of its own with
 * a key. One simulated night, moved a day at a time: the detectors' work is the same for each.
 */
async function mixedFixture(db: Db, nights: number, devices: number) {
  const [phys] = await db.query<{ id: number }>('select id from users where email = $1', [DEMO_ACCOUNTS.physician]);
  const [patient] = await db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1002'`);
  const night = simulateNight({ seed: 'bench-load-mixed', startMs: MIXED_FIRST_EVENING, durationMs: 8 * 3_600_000, profile: 'moderate_osa', timezone: 'Europe/Zurich' });
  const nightKeys: number[] = [];
  for (let k = 0; k < nights; k++) {
    const id = await saveNight(db, { patientId: patient.id, deviceId: 'NCT0002', source: 'simulated', createdBy: null, night: shifted(night, k * DAY_MS) });
    nightKeys.push((await db.query<{ night_key: number }>('select night_key from recordings where id = $1', [id]))[0].night_key);
  }
  const now = Date.now();
  const keys: { deviceId: string; key: string; patientId: number }[] = [];
  for (let i = 0; i < devices; i++) {
    const deviceId = `LM${String(i).padStart(4, '0')}`;
    const [d] = await db.query<{ device_master_id: number }>('insert into devices (device_id, physician_id) values ($1, $2) returning device_master_id', [deviceId, phys.id]);
    const [own] = await db.query<{ id: number }>(`insert into patients (patient_code, physician_id, created_by, gender, country) values ($1, $2, $2, 'F', 'Switzerland') returning id`, [`B${deviceId}`, phys.id]);
    await db.query(
      `insert into device_allocations (device_master_id, patient_id, physician_id, allocation_ms, deallocation_ms, timezone, created_by) values ($1, $2, $3, $4, $5, 'Europe/Zurich', $3)`,
      [d.device_master_id, own.id, phys.id, now - 3_600_000, now + DAY_MS],
    );
    keys.push({ deviceId, key: (await issueDeviceKey(db, d.device_master_id, null)).key, patientId: own.id });
  }
  return { patientId: patient.id, nightKeys, devices: keys };
}

/**
 * Commands on stdin, one a line. "loop reset" starts a new measurement of this process's
 * event-loop delay, "loop report" prints {"loop": {p50, p99, max}} (ms). "trail on" / "trail
 * off" switch the access trail's recording (bench/load-trail.ts), and "trail flush" writes
 * what it holds; each answers {"trail": "<command>"} once done.
 */
function answerCommands(app: FastifyInstance): void {
  const delay = monitorEventLoopDelay({ resolution: 10 });
  delay.enable();
  createInterface({ input: process.stdin }).on('line', (line) => {
    if (line === 'loop reset') delay.reset();
    if (line === 'loop report') {
      const ms = (ns: number) => Math.round(ns / 1e4) / 100;
      console.log(JSON.stringify({ loop: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) } }));
    }
    const trail = /^trail (on|off|flush)$/.exec(line)?.[1];
    if (trail === 'on' || trail === 'off') {
      app.accessTrail.recording = trail === 'on';
      console.log(JSON.stringify({ trail }));
    }
    if (trail === 'flush') void app.accessTrail.flush().then(() => console.log(JSON.stringify({ trail })));
  });
}

async function main() {
  const kind = process.argv[2] === 'postgres' ? 'postgres' : 'pglite';
  let db;
  let dropSchema = async (): Promise<void> => undefined;
  const env: Record<string, string> = { SEED_NIGHTS: '0', HOST: '127.0.0.1', PORT: '0', ...(process.env.ACCESS_TRAIL ? { ACCESS_TRAIL: process.env.ACCESS_TRAIL } : {}), ...(process.env.ENGINE_POOL ? { ENGINE_POOL: process.env.ENGINE_POOL } : {}), ...(process.env.LIVE_ANALYSIS_SECONDS ? { LIVE_ANALYSIS_SECONDS: process.env.LIVE_ANALYSIS_SECONDS } : {}) };
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
  const mixed = process.env.LOAD_MIXED ? await mixedFixture(db, Number(process.env.LOAD_MIXED_NIGHTS ?? 20), Number(process.env.LOAD_MIXED_DEVICES ?? 100)) : undefined;
  answerCommands(app);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const port = (app.server.address() as { port: number }).port;
  console.log(JSON.stringify({ port, token, patientId: patient.id, recordingId, codes: CHANNELS.map((c) => c.code), nightDate: '2026-03-09', ...(mixed ? { mixed } : {}) }));
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
