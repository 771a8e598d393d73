// The benchmarks' PostgreSQL: the URL (BENCH_DATABASE_URL), whether it answers, and a schema of
// a run's own, dropped afterwards. Shared by bench:api, bench:load and their server processes.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import { adminQuery as adminQueryAt } from '../tests/server/pg-admin';

export const BENCH_DATABASE_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

const adminQuery = (sql: string) => adminQueryAt(BENCH_DATABASE_URL, sql);

/** True when PostgreSQL answers at BENCH_DATABASE_URL within 2 s (else its part is skipped, and says so). */
export async function postgresReachable(): Promise<boolean> {
  const c = new pg.Client({ connectionString: BENCH_DATABASE_URL, connectionTimeoutMillis: 2000 });
  try {
    await c.connect();
    await c.end();
    return true;
  } catch {
    return false;
  }
}

/** A new schema `bench_…` in the benchmark database, and how to drop it. */
export async function benchSchema(): Promise<{ url: string; schema: string; drop: () => Promise<void> }> {
  const schema = `bench_${randomBytes(4).toString('hex')}`;
  await adminQuery(`create schema ${schema}`);
  return { url: BENCH_DATABASE_URL, schema, drop: () => adminQuery(`drop schema ${schema} cascade`) };
}

/**
 * Stops a benchmark's server as a server does on SIGTERM: requests still in flight (the bench's
 * last ones) are answered before the database closes, then the run's schema is dropped.
 */
export function stopOnSigterm(running: { close(): Promise<void> }, dropSchema: () => Promise<void>): void {
  process.on('SIGTERM', () => {
    running
      .close()
      .then(dropSchema)
      .then(
        () => process.exit(0),
        (error: unknown) => {
          console.error('bench server: stopping failed', error);
          process.exit(1);
        },
      );
  });
}

/** A session token of `email`, signed in through the real routes (password, then the mailed code). */
export async function signedInToken(app: FastifyInstance, email: string, password: string): Promise<string> {
  await app.inject({ method: 'POST', url: '/api/v1/login', payload: { email, password } });
  const otp = (await app.inject({ method: 'GET', url: `/api/v1/dev/outbox?email=${email}` })).json().data.messages[0].code;
  return (await app.inject({ method: 'POST', url: '/api/v1/verify-otp', payload: { email, otp } })).json().data.token;
}
