import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, TEST_DB, type TestServer } from './helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startTestServer({ MAX_EVENT_LOOP_DELAY_MS: '1000' });
});
afterAll(() => server.close());

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe(`overload (${TEST_DB})`, () => {
  it('answers 503 with Retry-After while the event loop lags (MAX_EVENT_LOOP_DELAY_MS), and serves again once it catches up', async () => {
    expect((await server.call('GET', '/countries')).statusCode).toBe(200);
    // Block the event loop for 3 s, as a request that hogs it would. under-pressure reads the
    // mean of the interval's delay samples, so a stall is diluted by the samples beside it (a
    // 1.6-s stall measured 984 ms on PostgreSQL once the live hub was in the app): 3 s stays
    // above the 1-s limit whatever else ran.
    const until = Date.now() + 3000;
    while (Date.now() < until);
    const seen: number[] = [];
    for (let i = 0; i < 20 && !seen.includes(503); i++) {
      const res = await server.call('GET', '/countries');
      seen.push(res.statusCode);
      if (res.statusCode === 503) {
        expect(res.json().code).toBe('overloaded');
        expect(res.headers['retry-after']).toBe('5');
      }
      await sleep(50);
    }
    expect(seen).toContain(503);
    await sleep(1000);
    expect((await server.call('GET', '/countries')).statusCode).toBe(200);
  });

  it('a database with every connection busy answers 503 overloaded (PostgreSQL pool) or waits (PGlite), never 500', async () => {
    // Ten statements of 7 s hold the whole PostgreSQL pool (10) past its 5-s wait; PGlite (one
    // connection) queues the request behind one statement of 2 s.
    const [count, seconds] = TEST_DB === 'postgres' ? [10, 7] : [1, 2];
    const hogs = Array.from({ length: count }, () => server.db.query('select pg_sleep($1)', [seconds]));
    if (TEST_DB === 'postgres') {
      // Every hog holds its connection before the request comes (a fixed pause is not enough on a busy machine).
      const watcher = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await watcher.connect();
      try {
        for (let i = 0; i < 100; i++) {
          const { rows } = await watcher.query<{ n: number }>(`select count(*)::int as n from pg_stat_activity where state = 'active' and query like 'select pg_sleep%'`);
          if (rows[0]!.n >= count) break;
          await sleep(20);
        }
      } finally {
        await watcher.end();
      }
    } else {
      await sleep(300);
    }
    const res = await server.call('POST', '/login', { body: { email: 'nobody@nowhere.test', password: 'whatever-1' }, ip: '10.77.0.1' });
    if (TEST_DB === 'postgres') {
      expect(res.statusCode).toBe(503);
      expect(res.json().code).toBe('overloaded');
      expect(res.headers['retry-after']).toBe('5');
    } else {
      expect(res.statusCode).toBe(401);
    }
    await Promise.all(hogs);
  }, 120_000);
});
