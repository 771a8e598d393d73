import { AsyncLocalStorage } from 'node:async_hooks';
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { inject, vi } from 'vitest';
import { adminQuery } from './pg-admin';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { readConfig, type Config } from '../../server/config';
import type { Db } from '../../server/db/adapter';
import { openPglite } from '../../server/db/pglite';
import { openPostgres } from '../../server/db/postgres';
import { prepare } from '../../server/start';
import { DEMO_ACCOUNTS, DEMO_PASSWORD } from '../../server/seed';

export { DEMO_ACCOUNTS, DEMO_PASSWORD };

/** Which database the server suite runs on: PGlite, or PostgreSQL at TEST_DATABASE_URL. */
export const TEST_DB = process.env.NOCTURNE_TEST_DB === 'postgres' ? 'postgres' : 'pglite';

const pgliteTemplates: Partial<Record<'empty' | 'clinic', Promise<Uint8Array>>> = {};

/**
 * A fresh database: in-memory PGlite, or a schema of its own in the test PostgreSQL. PGlite
 * starts as a copy of the run's one new cluster (tests/server/global-setup.ts): creating a
 * cluster (initdb) costs seconds each time, loading a copy a fraction of that.
 */
export async function freshDb(from: 'empty' | 'clinic' = 'empty'): Promise<{ db: Db; drop: () => Promise<void> }> {
  if (TEST_DB === 'pglite') return { db: await pgliteFrom(from), drop: async () => undefined };
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('NOCTURNE_TEST_DB=postgres needs TEST_DATABASE_URL');
  const schema = await createSchema(url);
  const db = await openPostgres({ url, schema });
  return { db, drop: () => dropSchema(url, schema) };
}

/**
 * An in-memory PGlite, in either run: a copy of the run's new cluster ('empty'), or of it
 * migrated with the demo clinic ('clinic'). A new cluster of its own (openPglite(null)) runs
 * initdb, 5 CPU-s on a slow machine; a copy, about 1.
 */
export async function pgliteFrom(from: 'empty' | 'clinic' = 'empty'): Promise<Db> {
  const template = (pgliteTemplates[from] ??= readFile(inject(from === 'clinic' ? 'pgliteClinicTemplate' : 'pgliteTemplate')));
  return openPglite(null, await template);
}

/** A fresh schema of its own in a PostgreSQL database (tests and benchmarks isolate each run). */
export async function createSchema(url: string, prefix = 't'): Promise<string> {
  const schema = `${prefix}_${randomBytes(6).toString('hex')}`;
  await adminQuery(url, `create schema ${schema}`);
  return schema;
}

export const dropSchema = (url: string, schema: string) => adminQuery(url, `drop schema ${schema} cascade`);

/** A server log kept in memory (config.logStream): its JSON lines as written and parsed. */
export interface LogCapture {
  stream: { write(line: string): void };
  /** Every line written so far, as pino wrote it. */
  raw: string[];
  /** The lines parsed (level, msg, reqId, req, …). */
  lines(): Record<string, unknown>[];
  /** The messages so far, one per line. */
  messages(): string[];
}

/** An in-memory sink for a server's log. */
export function captureLog(): LogCapture {
  const raw: string[] = [];
  const lines = () => raw.map((l) => JSON.parse(l) as Record<string, unknown>);
  return { stream: { write: (line) => void raw.push(line) }, raw, lines, messages: () => lines().map((l) => String(l.msg)) };
}

export interface TestServer {
  app: FastifyInstance;
  db: Db;
  config: Config;
  /** What the server logged (in memory, not on the test's output). */
  log: LogCapture;
  close(): Promise<void>;
  /** JSON request through the real HTTP stack (light-my-request). */
  call(method: string, url: string, opts?: { body?: unknown; token?: string; ip?: string }): Promise<LightMyRequestResponse>;
}

/** A migrated, seeded server on a fresh database, with no SPA. */
export async function startTestServer(env: Record<string, string> = {}): Promise<TestServer> {
  const log = captureLog();
  const config = { ...readConfig({ SEED_NIGHTS: '0', CHECK_ANSWERS: '1', ...env }), webRoot: null, logStream: log.stream };
  // The migrated demo clinic, when this environment seeds just that (prepare() then finds it done).
  const { db, drop } = await freshDb(config.seedDemo && !config.seedNights && !config.production ? 'clinic' : 'empty');
  const running = await prepare(config, db);
  return {
    app: running.app,
    db,
    config,
    log,
    async close() {
      await running.close();
      await drop();
    },
    call(method, url, opts = {}) {
      return running.app.inject({
        method: method as 'GET',
        url: `/api/v1${url}`,
        payload: opts.body as object | undefined,
        headers: opts.token ? { authorization: `Bearer ${opts.token}` } : {},
        remoteAddress: opts.ip ?? '127.0.0.1',
      });
    },
  };
}

/** The newest one-time code mailed to an address (dev outbox). */
export async function lastCode(server: TestServer, email: string): Promise<string> {
  const res = await server.call('GET', `/dev/outbox?email=${encodeURIComponent(email)}`);
  const code = res.json().data.messages.find((m: { code: string | null }) => m.code)?.code;
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

/** Signs in with password and OTP; returns the session token. */
export async function signIn(server: TestServer, email: string, password = DEMO_PASSWORD): Promise<{ token: string; userId: number }> {
  const login = await server.call('POST', '/login', { body: { email, password } });
  if (login.statusCode !== 200) throw new Error(`login ${login.statusCode}: ${login.body}`);
  const otp = await lastCode(server, email);
  const res = await server.call('POST', '/verify-otp', { body: { email, otp } });
  if (res.statusCode !== 202) throw new Error(`verify-otp ${res.statusCode}: ${res.body}`);
  return { token: res.json().data.token, userId: res.json().data.user_id };
}

let userSeq = 0;
/** Adds an active account with a fresh e-mail (so per-account limits of one test do not touch another). */
export async function createUser(
  server: TestServer,
  fields: { role?: string; physician_id?: number; is_annotator?: boolean; status?: string; password?: string } = {},
): Promise<{ id: number; email: string; password: string }> {
  const { hashPassword } = await import('../../server/auth/passwords');
  const email = `user${++userSeq}.${randomBytes(3).toString('hex')}@test.nocturne.test`;
  const password = fields.password ?? DEMO_PASSWORD;
  const [row] = await server.db.query<{ id: number }>(
    `insert into users (email, password_hash, first_name, last_name, country, role, physician_id, is_annotator, status)
     values ($1, $2, 'Test', 'User', 'Switzerland', $3, $4, $5, $6) returning id`,
    [email, await hashPassword(password), fields.role ?? 'physician', fields.physician_id ?? null, fields.is_annotator ?? false, fields.status ?? 'active'],
  );
  return { id: row.id, email, password };
}

/** Sessions of the demo practice's physician, secondary user and annotator, of a physician of another practice, and the demo patient NCT1001. */
export async function practiceSessions(server: TestServer): Promise<{ physician: string; secondary: string; annotator: string; stranger: string; patientId: number }> {
  const [{ id: patientId }] = await server.db.query<{ id: number }>(`select id from patients where patient_code = 'NCT1001'`);
  return {
    physician: (await signIn(server, DEMO_ACCOUNTS.physician)).token,
    secondary: (await signIn(server, DEMO_ACCOUNTS.secondary)).token,
    annotator: (await signIn(server, DEMO_ACCOUNTS.annotator)).token,
    stranger: (await signIn(server, (await createUser(server)).email)).token,
    patientId,
  };
}

/** Whose queries queriesOf is counting. */
const caller = new AsyncLocalStorage<symbol>();

/**
 * The SQL `server` runs for `fn` (its database's queries, in order). A channel's bytes read
 * whole (Db.readChannelBytes: a binary COPY or the reader thread) count as the query they
 * stand for: `select data from recording_chunks …` or `select gzip from recording_channel_wire …`.
 */
export async function queriesOf(server: TestServer, fn: () => Promise<unknown>): Promise<string[]> {
  const db = server.db as { query: (sql: string, params?: unknown[]) => Promise<unknown[]>; readChannelBytes: TestServer['db']['readChannelBytes'] };
  const original = { query: db.query, readChannelBytes: db.readChannelBytes };
  const seen: string[] = [];
  // Only the queries fn causes (its requests, and work they start): not the server's own timers
  // meanwhile (the live sweep reads recordings every 10 s), whose context is the server's start.
  const mine = Symbol('queriesOf');
  db.query = (sql, params) => {
    if (caller.getStore() === mine) seen.push(sql);
    return original.query.call(server.db, sql, params);
  };
  db.readChannelBytes = (channelId, what, byteLength) => {
    if (caller.getStore() === mine) seen.push(what === 'wire' ? 'select gzip from recording_channel_wire where channel_id = $1 (whole)' : 'select data from recording_chunks where channel_id = $1 order by seq (whole)');
    return original.readChannelBytes.call(server.db, channelId, what, byteLength);
  };
  try {
    await caller.run(mine, fn);
  } finally {
    db.query = original.query;
    db.readChannelBytes = original.readChannelBytes;
  }
  return seen;
}

/** A report job as GET /reports/:id answers it (server/reports/routes.ts jobView). */
export interface ReportJob {
  id: number;
  status: string;
  step: string | null;
  progress: number;
  // null when none; typed as the message argument of expect() takes it.
  error?: string;
  attempts: number;
  dates: string[];
  file_name: string;
  pages: number;
}

/**
 * Polls GET /reports/:id every 50 ms until the job is done or failed (150 s at most: a trend
 * report analyses each night not analysed yet, one after the other, in an engine pool the
 * PGlite and PostgreSQL runs share on a 2-core machine); `seen` gets every status on the way
 * ('running:<step>' while it runs).
 */
export function finishedReport(server: TestServer, id: number, token: string, seen: string[] = []): Promise<ReportJob> {
  return vi.waitFor(
    async () => {
      const job = (await server.call('GET', `/reports/${id}`, { token })).json().data as ReportJob;
      seen.push(job.status === 'running' ? `running:${job.step}` : job.status);
      if (job.status !== 'done' && job.status !== 'failed') throw new Error(`report ${id} did not finish: ${seen.slice(-5).join(', ')}`);
      return job;
    },
    { timeout: 150_000, interval: 50 },
  );
}
