import { isIP } from 'node:net';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import type { DestinationStream } from 'pino';
import { LOG_LEVELS, type LogLevel } from './log';
import { DEFAULT_LIVE_REFRESH_MS } from './analytics/liveCache';

/** Runtime configuration, read once from the environment. */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | null;
  smtpUrl: string | null;
  mailFrom: string;
  production: boolean;
  /** Seed the demo clinic on first start (default on outside production; SEED_DEMO=0 turns it off, SEED_DEMO=1 turns it on in production). */
  seedDemo: boolean;
  /** SEED_DEMO=1 was given explicitly: the operator wants the demo clinic, even in production. */
  demoRequested: boolean;
  /** Simulate the demo patients' nights on first start (default on; SEED_NIGHTS=0 turns it off). */
  seedNights: boolean;
  /**
   * The clock the demo nights are seeded against, ms (SEED_NIGHTS_AT, an ISO time; default: the
   * start's own). The last seeded evening is the one before the night in progress at that time.
   */
  seedNightsAt: number | null;
  /** Work report jobs in this process (default on; REPORT_WORKER=0 leaves them to `npm run reports`). */
  reportWorker: boolean;
  /** Record signed-in API requests in the access trail (default on; ACCESS_TRAIL=off only for benchmarks, refused in production). */
  accessTrail: boolean;
  /**
   * Check every JSON answer against its route's response schema before it is sent, and answer 500
   * naming the field where one does not match (CHECK_ANSWERS=1: the tests and `npm run dev`; off by
   * default, as the serialiser already sends only what the schema names).
   */
  checkAnswers: boolean;
  /** Built SPA to serve; absent in API-only tests. */
  webRoot: string | null;
  /**
   * Event-loop delay (ms) beyond which requests get 503 (0, the default: never; the embedded
   * database runs its queries on the event loop, and a start-up's schema compilation holds it).
   */
  maxEventLoopDelayMs: number;
  /** An upload whose multipart body makes no progress this long (ms) is refused (UPLOAD_IDLE_MS, default 30 s). */
  uploadIdleMs: number;
  /**
   * Which peers may name the client in X-Forwarded-For (Fastify's trustProxy): false (the
   * default: the TCP peer is the client), a hop count, or addresses/CIDRs of the proxies.
   */
  trustProxy: false | number | string[];
  /** Files one upload may hold (UPLOAD_MAX_FILES, default 128: a ResMed DATALOG night of many mask sessions, five files each). */
  uploadMaxFiles: number;
  /**
   * The engine's worker threads (night analysis, statistics, overviews): ENGINE_THREADS (default
   * one per core but one, at least one) and ENGINE_MAX_QUEUE tasks waiting (default 64) before
   * requests get 503 engine_busy; null with ENGINE_POOL=0, which runs the engine on the event loop.
   */
  enginePool: EnginePoolConfig | null;
  /**
   * A live night's analysis and statistics are computed again at most this often (ms;
   * LIVE_ANALYSIS_SECONDS, default 30; 0 computes them on every read, the benchmarks' comparison).
   */
  liveRefreshMs: number;
  /** The server log's threshold (LOG_LEVEL: fatal, error, warn, info — the default —, debug, trace or silent). */
  logLevel: LogLevel;
  /** Where the server log goes: stdout (null, the default) or, in tests, an in-memory stream. Not read from the environment. */
  logStream: DestinationStream | null;
}

/** How the engine's work runs (services/engine-pool.ts): in `threads` worker threads with at most `maxQueue` tasks waiting. */
export interface EnginePoolConfig {
  threads: number;
  maxQueue: number;
}

/** One engine worker per core but the one the event loop keeps, and at least one. */
export const defaultEngineThreads = () => Math.max(1, availableParallelism() - 1);

/**
 * Engine tasks that may wait for a worker: 20 physicians opening a night each (the summary's
 * analysis, then its statistics and the overviews one channel at a time) fit. A waiting task
 * holds no samples (it reads them when its turn comes), so the bound costs little memory.
 */
export const DEFAULT_ENGINE_MAX_QUEUE = 64;

/** Reads the configuration from an environment (process.env by default). */
export function readConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const port = env.PORT === undefined || env.PORT === '' ? 8080 : Number(env.PORT);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, got "${env.PORT}".`);
  }
  const production = env.NODE_ENV === 'production';
  // Production never gets the demo clinic (published password) unless SEED_DEMO=1 asks for it.
  const seedDemo = production ? env.SEED_DEMO === '1' : env.SEED_DEMO !== '0';
  return {
    port,
    // Loopback unless told otherwise: a default install is not reachable from the network.
    host: env.HOST || '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR || './data'),
    databaseUrl: env.DATABASE_URL || null,
    smtpUrl: env.SMTP_URL || null,
    mailFrom: env.MAIL_FROM || 'Nocturne <no-reply@nocturne.local>',
    production,
    seedDemo,
    demoRequested: env.SEED_DEMO === '1',
    seedNights: seedDemo && env.SEED_NIGHTS !== '0',
    seedNightsAt: readInstant(env.SEED_NIGHTS_AT, 'SEED_NIGHTS_AT'),
    reportWorker: env.REPORT_WORKER !== '0',
    accessTrail: readAccessTrail(env.ACCESS_TRAIL, production),
    checkAnswers: env.CHECK_ANSWERS === '1',
    webRoot: path.resolve(env.WEB_ROOT || './dist'),
    maxEventLoopDelayMs: readDelay(env.MAX_EVENT_LOOP_DELAY_MS, 0, 'MAX_EVENT_LOOP_DELAY_MS'),
    uploadIdleMs: readDelay(env.UPLOAD_IDLE_MS, 30_000, 'UPLOAD_IDLE_MS') || 30_000,
    trustProxy: readTrustProxy(env.TRUST_PROXY),
    uploadMaxFiles: readDelay(env.UPLOAD_MAX_FILES, 128, 'UPLOAD_MAX_FILES') || 128,
    enginePool:
      env.ENGINE_POOL === '0'
        ? null
        : { threads: readCount(env.ENGINE_THREADS, defaultEngineThreads(), 'ENGINE_THREADS') || defaultEngineThreads(), maxQueue: readCount(env.ENGINE_MAX_QUEUE, DEFAULT_ENGINE_MAX_QUEUE, 'ENGINE_MAX_QUEUE') },
    liveRefreshMs: readCount(env.LIVE_ANALYSIS_SECONDS, DEFAULT_LIVE_REFRESH_MS / 1000, 'LIVE_ANALYSIS_SECONDS') * 1000,
    logLevel: readLogLevel(env.LOG_LEVEL),
    logStream: null,
  };
}

/** ACCESS_TRAIL: on unless 'off', which a production server refuses (the trail is part of the clinical record). */
function readAccessTrail(value: string | undefined, production: boolean): boolean {
  if (value === undefined || value === '' || value === 'on') return true;
  if (value !== 'off') throw new ConfigError(`ACCESS_TRAIL must be "on" or "off", got "${value}".`);
  if (production) throw new ConfigError('ACCESS_TRAIL=off is for benchmarks: a production server keeps the access trail.');
  return false;
}

/** An ISO time (SEED_NIGHTS_AT) as ms, or null when unset; anything else stops the start with its name. */
function readInstant(value: string | undefined, name: string): number | null {
  if (!value) return null;
  const ms = Date.parse(value);
  if (!Number.isFinite(ms)) throw new ConfigError(`${name} must be an ISO time (e.g. 2026-11-28T13:00:00+01:00), not "${value}".`);
  return ms;
}

/** Names proxy-addr knows for address ranges (loopback: 127.0.0.1/8 and ::1). */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/**
 * TRUST_PROXY: unset or empty (trust no header), a hop count (`1`: the nearest proxy), or a
 * comma-separated list of proxy addresses, CIDRs or range names (`127.0.0.1`, `10.0.0.0/8`,
 * `loopback`). "Trust everyone" is refused: any client could then choose its own address.
 */
function readTrustProxy(value: string | undefined): false | number | string[] {
  const text = value?.trim();
  if (!text) return false;
  if (/^\d+$/.test(text)) {
    const hops = Number(text);
    if (hops < 1 || hops > 10) throw new ConfigError(`TRUST_PROXY as a hop count must be from 1 to 10, got "${value}".`);
    return hops;
  }
  const entries = text.split(',').map((e) => e.trim()).filter(Boolean);
  for (const entry of entries) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address);
    const bitsOk = bits === undefined || (/^\d+$/.test(bits) && Number(bits) <= (family === 6 ? 128 : 32));
    if (!(PROXY_RANGE_NAMES.has(entry) || (family !== 0 && bitsOk && extra === undefined))) {
      throw new ConfigError(`TRUST_PROXY must be a hop count or proxy addresses/CIDRs (e.g. "127.0.0.1" or "10.0.0.0/8,loopback"), got "${entry}".`);
    }
  }
  return entries;
}

/** LOG_LEVEL: one of pino's level names (default info); anything else stops the start with the list. */
function readLogLevel(value: string | undefined): LogLevel {
  const level = value?.trim().toLowerCase() || 'info';
  if (!(LOG_LEVELS as readonly string[]).includes(level)) throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}, got "${value}".`);
  return level as LogLevel;
}

export class ConfigError extends Error {}

function readDelay(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const ms = Number(value);
  if (!Number.isInteger(ms) || ms < 0) throw new ConfigError(`${name} must be a whole number of ms, got "${value}".`);
  return ms;
}

function readCount(value: string | undefined, fallback: number, name: string): number {
  if (value === undefined || value === '') return fallback;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0) throw new ConfigError(`${name} must be a whole number, got "${value}".`);
  return n;
}

/** Hides the password of a connection URL for log lines. */
export function redactUrl(url: string): string {
  try {
    const u = new URL(url);
    if (u.password) u.password = '***';
    return u.toString();
  } catch {
    return '<unparsable URL>';
  }
}
