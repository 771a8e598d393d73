import { mkdir, rm, writeFile, readFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from './app';
import { redactUrl, type Config } from './config';
import type { Db } from './db/adapter';
import { migrate } from './db/migrate';
import { openPglite } from './db/pglite';
import { openPostgres } from './db/postgres';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, seedDemo, seedDemoDevices, seedDemoNights, seedDemoPaid, seedDemoSecondAnnotator } from './seed';
import { prepareTriageNights, unanalysedNights } from './analytics/prepare';
import { verifyPassword } from './auth/passwords';
import { outboxMailer, smtpMailer } from './services/mail';
import { pruneRateLimits } from './services/rate-limit';
import { removeStaleStages, STAGE_STALE_MS } from './recordings/staging';
import { demoKeysFile, ensureDemoDeviceKeys } from './live/demo-keys';
import { createLogger, type Logger } from './log';

/** A start-up failure with the one line the user should read. */
export class StartupError extends Error {}

async function ensureWritableDir(dir: string): Promise<void> {
  try {
    await mkdir(dir, { recursive: true });
    const probe = path.join(dir, `.write-probe-${process.pid}`);
    await writeFile(probe, '');
    await rm(probe);
  } catch (err) {
    throw new StartupError(`Data directory ${dir} is not writable (${(err as NodeJS.ErrnoException).code ?? (err as Error).message}). Set DATA_DIR to a writable directory.`);
  }
}

function pidAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * When the process started, in clock ticks since boot (/proc/<pid>/stat field 22), or null
 * where /proc does not exist. With the pid it names one process: a pid reused after a crash
 * by another program has another start time.
 */
async function processStart(pid: number): Promise<string | null> {
  const stat = await readFile(`/proc/${pid}/stat`, 'utf8').catch(() => null);
  if (stat === null) return null;
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
}

/** The lock file's content: `pid` (older servers) or `pid start`. */
function parseLock(text: string): { pid: number; start: string | null } {
  const [pid, start] = text.trim().split(/\s+/);
  return { pid: Number(pid), start: start ?? null };
}

/**
 * One embedded database per directory: a second server on it would corrupt it. A lock left
 * by a crash is taken over when its process is gone, or when the pid now belongs to another
 * process (its start time differs from the one recorded).
 */
async function lockDataDir(dir: string): Promise<() => Promise<void>> {
  const lock = path.join(dir, 'nocturne.pid');
  const other = parseLock(await readFile(lock, 'utf8').catch(() => ''));
  if (other.pid && other.pid !== process.pid && pidAlive(other.pid)) {
    const start = other.start === null ? null : await processStart(other.pid);
    const sameProcess = other.start === null || start === null || start === other.start;
    if (sameProcess) {
      throw new StartupError(`Data directory ${dir} is in use by another Nocturne server (pid ${other.pid}). Stop it or set DATA_DIR.`);
    }
  }
  await writeFile(lock, `${process.pid} ${(await processStart(process.pid)) ?? ''}`.trim());
  return () => rm(lock, { force: true });
}

/** Opens the configured database: PostgreSQL at DATABASE_URL, else PGlite in DATA_DIR. */
export async function openDatabase(config: Config, log?: Logger): Promise<{ db: Db; release: () => Promise<void> }> {
  if (config.databaseUrl) {
    try {
      return { db: await openPostgres({ url: config.databaseUrl, log }), release: async () => undefined };
    } catch (err) {
      throw new StartupError(`Database unreachable at ${redactUrl(config.databaseUrl)}: ${(err as Error).message || (err as NodeJS.ErrnoException).code}`);
    }
  }
  await ensureWritableDir(config.dataDir);
  const release = await lockDataDir(config.dataDir);
  try {
    return { db: await openPglite(path.join(config.dataDir, 'pglite')), release };
  } catch (err) {
    await release();
    throw new StartupError(`Cannot open the embedded database in ${config.dataDir}: ${(err as Error).message}`);
  }
}

/** Active demo accounts that still sign in with the password printed in the README. */
async function demoAccountsWithPublishedPassword(db: Db): Promise<string[]> {
  const rows = await db.query<{ email: string; password_hash: string }>(
    `select email, password_hash from users where email = any($1::text[]) and status = 'active' order by email`,
    [Object.values(DEMO_ACCOUNTS)],
  );
  const open: string[] = [];
  for (const r of rows) if (await verifyPassword(DEMO_PASSWORD, r.password_hash)) open.push(r.email);
  return open;
}

/** How often a stopping server closes keep-alive connections that have gone idle. */
const IDLE_SWEEP_MS = 100;
/** How long requests still being answered may take once the server stops; then their connections are cut. */
const STOP_GRACE_MS = 15_000;

/**
 * Stops the app: no new requests, those being answered finish, and every connection closes.
 * Fastify closes the keep-alive connections that are idle when it stops; one whose request
 * finishes after that stayed open until its keep-alive timeout (72 s), and the stop waited on
 * it (a browser tab open on the app: Ctrl+C took 73 s). They are closed as they go idle, and
 * after STOP_GRACE_MS whatever is left is cut.
 */
async function closeConnections(app: FastifyInstance): Promise<void> {
  const idle = setInterval(() => app.server.closeIdleConnections(), IDLE_SWEEP_MS);
  const cut = setTimeout(() => app.server.closeAllConnections(), STOP_GRACE_MS);
  try {
    await app.close();
  } finally {
    clearInterval(idle);
    clearTimeout(cut);
  }
}

export interface Running {
  app: FastifyInstance;
  db: Db;
  seeded: boolean;
  /** Demo nights simulated by this start. */
  nights: number;
  /** The background preparation of the nights' dashboard rows (SEED_NIGHTS starts only): how many it prepared. */
  triagePrepared: Promise<number>;
  close(): Promise<void>;
}

/**
 * Migrates, seeds once, builds the app; the caller listens. `log` prints the start-up lines
 * a person reads (plain text); `logger` is the server's log (made from the config if not given).
 */
export async function prepare(
  config: Config,
  db: Db,
  release: () => Promise<void> = async () => undefined,
  log: (line: string) => void = () => undefined,
  logger = createLogger(config.logLevel, config.logStream),
): Promise<Running> {
  try {
    await migrate(db);
  } catch (err) {
    throw new StartupError(`${(err as Error).message}. The database was left as it was before this migration.`);
  }
  const seeded = config.seedDemo ? await seedDemo(db) : false;
  if (config.seedDemo) await seedDemoDevices(db);
  if (config.seedDemo) await seedDemoPaid(db);
  if (config.seedDemo) await seedDemoSecondAnnotator(db);
  const nights = config.seedNights ? await seedDemoNights(db, log, config.seedNightsAt ?? Date.now()) : 0;
  // The demo devices' keys for `npm run device`, in DATA_DIR: development only, never in production.
  if (config.seedNights && !config.production) {
    const issued = await ensureDemoDeviceKeys(db, demoKeysFile(config.dataDir));
    if (issued) log(`Wrote ${issued} demo device key${issued === 1 ? '' : 's'} to ${demoKeysFile(config.dataDir)} (for npm run device).`);
  }
  await pruneRateLimits(db);
  // Samples an import staged before a crash: never visible, removed now. On PGlite the server
  // owns the database, so every stage is a leftover; on PostgreSQL another server may be
  // importing, so only stages untouched for a while go (and every few minutes after).
  const staleStages = await removeStaleStages(db, db.kind === 'pglite' ? 0 : STAGE_STALE_MS);
  if (staleStages) log(`Removed the staged samples of ${staleStages} unfinished import${staleStages === 1 ? '' : 's'}.`);
  if (config.production && !config.demoRequested) {
    const open = await demoAccountsWithPublishedPassword(db);
    if (open.length) {
      throw new StartupError(
        `Demo account${open.length === 1 ? '' : 's'} ${open.join(', ')} still ha${open.length === 1 ? 's' : 've'} the published password. Disable ${open.length === 1 ? 'it' : 'them'} or change the password before running in production (or set SEED_DEMO=1 for a demo installation).`,
      );
    }
  }
  const mailer = config.smtpUrl ? smtpMailer(config.smtpUrl, config.mailFrom) : outboxMailer(db, undefined, !config.production);
  const app = await buildApp({ db, config, mailer, log: logger });
  // The demo nights' dashboard rows (analysis, SpO2 statistics) are made right after the seed, in
  // the background (the start is not held): the first dashboard visit then reads stored rows
  // instead of showing "Loading…" while it asks for them (issue 14). Whatever is left when the
  // dashboard opens, it prepares itself and shows as progress.
  let closing = false;
  const triagePrepared = config.seedNights
    ? new Promise<void>((r) => setImmediate(r))
        .then(async () => prepareTriageNights(db, await unanalysedNights(db), () => closing))
        .then((n) => {
          if (n) log(`Analysed ${n} night${n === 1 ? '' : 's'} for the dashboard.`);
          return n;
        })
        .catch((error: unknown) => {
          if (!closing) log(`Analysing the nights for the dashboard failed: ${(error as Error).message}`);
          return 0;
        })
    : Promise.resolve(0);
  const stageSweep = setInterval(() => {
    removeStaleStages(db, STAGE_STALE_MS).catch((err: Error) => logger.error(`Removing stale import stages failed: ${err.message}`));
  }, STAGE_STALE_MS / 2);
  stageSweep.unref();
  app.addHook('onClose', async () => clearInterval(stageSweep));
  return {
    app,
    db,
    seeded,
    nights,
    triagePrepared,
    async close() {
      closing = true;
      await triagePrepared;
      await closeConnections(app);
      await db.close();
      await release();
    },
  };
}
