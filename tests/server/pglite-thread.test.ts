import { monitorEventLoopDelay } from 'node:perf_hooks';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Db } from '../../server/db/adapter';
import { openPglite } from '../../server/db/pglite';
import { READ_RANGE_BYTES } from '../../server/db/pglite-protocol';
import { isDatabaseOutage } from '../../server/errors';

// The embedded database in a thread of its own (decision 1005): what crosses the thread comes
// back as the in-process driver gave it, and the event loop stays free while PGlite works.
let db: Db;

beforeAll(async () => {
  db = await openPglite(null);
  await db.exec('create table t (id int primary key, b bytea, j jsonb, n int8, at timestamptz)');
}, 60_000);
afterAll(() => db.close());

describe('PGlite in its own thread', () => {
  it('returns bytea as Buffers with every byte, small and large, and a window on a larger buffer sends only its bytes', async () => {
    const small = Buffer.from([0, 1, 2, 254, 255]);
    const whole = new Uint8Array(3 << 20).map((_, i) => (i * 7919) % 251);
    const window = whole.subarray(1_000, 1_000 + (1 << 20));
    await db.query('insert into t (id, b) values (1, $1), (2, $2)', [small, window]);
    const rows = await db.query<{ id: number; b: Buffer }>('select id, b from t where id in (1, 2) order by id');
    expect(rows.map((r) => Buffer.isBuffer(r.b))).toEqual([true, true]);
    expect([...rows[0]!.b]).toEqual([...small]);
    expect(rows[1]!.b.byteLength).toBe(window.byteLength);
    expect(Buffer.compare(rows[1]!.b, Buffer.from(window))).toBe(0);
  });

  it("reads a channel's chunks joined and its binary form by a binary COPY: every byte, the first byteLength, none missing", async () => {
    await db.exec(`create table recording_chunks (channel_id int, seq int, data bytea, primary key (channel_id, seq));
                   create table recording_channel_wire (channel_id int, part int, gzip bytea, primary key (channel_id, part))`);
    const chunks = [70_000, 5, 0, 131_072, 3].map((n, k) => new Uint8Array(n).map((_, i) => (i * 31 + k * 7) % 256));
    // Stored out of order: read in seq order.
    for (const k of [3, 0, 4, 1, 2]) await db.query('insert into recording_chunks values (7, $1, $2)', [k, chunks[k]]);
    // A binary form in parts (decision 1008), stored out of order: joined in part order.
    await db.query('insert into recording_channel_wire values (7, 1, $1), (7, 0, $2)', [chunks[0], chunks[3]]);
    const whole = Buffer.concat(chunks);
    const all = await db.readChannelBytes(7, 'samples');
    expect(Buffer.compare(all!, whole)).toBe(0);
    const first = await db.readChannelBytes(7, 'samples', 70_004);
    expect(Buffer.compare(first!, whole.subarray(0, 70_004))).toBe(0);
    const wire = await db.readChannelBytes(7, 'wire');
    expect(Buffer.isBuffer(wire)).toBe(true);
    expect(Buffer.compare(wire!, Buffer.concat([chunks[3]!, chunks[0]!]))).toBe(0);
    expect(await db.readChannelBytes(8, 'wire')).toBeNull();
    expect((await db.readChannelBytes(8, 'samples'))!.byteLength).toBe(0);
  });

  it('reads a channel larger than one range in ranges, letting other statements in between, every byte in order', async () => {
    // 40 chunks of 128 KB: five ranges of READ_RANGE_BYTES (decision 1009).
    const chunk = (k: number, n = 131_072) => new Uint8Array(n).map((_, i) => (i * 13 + k * 101) % 256);
    const chunks = Array.from({ length: 40 }, (_, k) => chunk(k));
    for (let k = 0; k < chunks.length; k += 8) {
      const part = chunks.slice(k, k + 8);
      await db.query(`insert into recording_chunks values ${part.map((_, i) => `(20, ${k + i}, $${i + 1})`).join(', ')}`, part);
    }
    const whole = Buffer.concat(chunks);
    expect(whole.byteLength).toBeGreaterThan(4 * READ_RANGE_BYTES);
    const order: string[] = [];
    const read = db.readChannelBytes(20, 'samples').then((b) => (order.push('read'), b));
    const other = db.query('select 1 as one').then(() => order.push('other'));
    const [all] = await Promise.all([read, other]);
    expect(Buffer.compare(all!, whole)).toBe(0);
    // One statement for the whole channel answered the other query only after it.
    expect(order).toEqual(['other', 'read']);
    // A prefix that ends inside a chunk of a later range.
    const length = 3 * READ_RANGE_BYTES + 12_345;
    const first = await db.readChannelBytes(20, 'samples', length);
    expect(Buffer.compare(first!, whole.subarray(0, length))).toBe(0);
    // A binary form of many parts (decision 1008), read in ranges too.
    for (let k = 0; k < 12; k++) await db.query('insert into recording_channel_wire values (20, $1, $2)', [k, chunk(k, 400_000)]);
    const wire = await db.readChannelBytes(20, 'wire');
    expect(Buffer.compare(wire!, Buffer.concat(Array.from({ length: 12 }, (_, k) => chunk(k, 400_000))))).toBe(0);
  });

  it('never joins ranges of two states: a channel rewritten between ranges is read again whole, as it is after the rewrite', async () => {
    const before = Array.from({ length: 40 }, (_, k) => new Uint8Array(131_072).fill(k));
    for (let k = 0; k < before.length; k++) await db.query('insert into recording_chunks values (21, $1, $2)', [k, before[k]]);
    // As a live night's compaction does: every chunk deleted and written again, here in the same
    // pieces (same keys, same sizes) with other bytes (chunk k all k + 1): only the versions tell
    // the two states apart. Made by the database, so the statement is a short message.
    const after = Buffer.concat(before.map((_, k) => new Uint8Array(131_072).fill(k + 1)));
    const rewrite = `delete from recording_chunks where channel_id = 21;
      insert into recording_chunks select 21, g, decode(repeat(lpad(to_hex(g + 1), 2, '0'), 131072), 'hex') from generate_series(0, 39) g`;
    const read = db.readChannelBytes(21, 'samples', after.byteLength);
    // Sent while the read is under way: it goes in between two of its ranges.
    const written = db.exec(rewrite);
    const [bytes] = await Promise.all([read, written]);
    expect(bytes!.byteLength).toBe(after.byteLength);
    expect(Buffer.compare(bytes!, after)).toBe(0);
  });

  it('keeps json, int8 and timestamps as the driver parses them', async () => {
    const at = new Date('2026-03-09T21:00:00.000Z');
    await db.query('insert into t (id, j, n, at) values (3, $1, $2, $3)', [JSON.stringify({ a: [1, 'x'] }), 1_796_000_000_123, at]);
    const [row] = await db.query<{ j: unknown; n: number; at: Date }>('select j, n, at from t where id = 3');
    expect(row).toEqual({ j: { a: [1, 'x'] }, n: 1_796_000_000_123, at });
  });

  it("gives a database error's code and constraint, as the error handling reads them", async () => {
    const err = (await db.query('insert into t (id) values (1)').catch((e: unknown) => e)) as Error & { code?: string; constraint?: string };
    expect(err).toBeInstanceOf(Error);
    expect(err.code).toBe('23505');
    expect(err.constraint).toBe('t_pkey');
    expect(err.message).toMatch(/duplicate key/);
  });

  it('commits a transaction whole, rolls one back whole, and sees its settings inside', async () => {
    const setting = await db.transaction(async (tx) => {
      await tx.query('insert into t (id) values (10)');
      return (await tx.query<{ v: string }>("select current_setting('nocturne.test', true) as v"))[0]!.v;
    }, { 'nocturne.test': 'on' });
    expect(setting).toBe('on');
    const refused = await db
      .transaction(async (tx) => {
        await tx.query('insert into t (id) values (11)');
        throw new Error('changed my mind');
      })
      .catch((e: Error) => e.message);
    expect(refused).toBe('changed my mind');
    // A statement that fails inside rolls back the whole transaction too.
    await expect(db.transaction(async (tx) => {
      await tx.query('insert into t (id) values (12)');
      await tx.query('insert into t (id) values (10)');
    })).rejects.toMatchObject({ code: '23505' });
    const ids = (await db.query<{ id: number }>('select id from t where id >= 10 order by id')).map((r) => r.id);
    expect(ids).toEqual([10]);
  });

  it('keeps the event loop free while the database works', async () => {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    await vi.waitFor(() => expect(delay.count).toBeGreaterThanOrEqual(2), { timeout: 5_000, interval: 5 });
    const started = performance.now();
    // Over a second of PGlite's WebAssembly on this machine; in-process it held the loop all along.
    await db.query('select count(*) from generate_series(1, 1500000) g where g % 7 = 3');
    const queryMs = performance.now() - started;
    delay.disable();
    const maxMs = delay.max / 1e6;
    console.log(`query ${queryMs.toFixed(0)} ms; event-loop delay max ${maxMs.toFixed(0)} ms`);
    expect(queryMs).toBeGreaterThan(200);
    expect(maxMs).toBeLessThan(queryMs / 2);
  });

  it("delivers a NOTIFY to this process's listeners in the order sent, and refuses a payload PostgreSQL would", async () => {
    const got: string[] = [];
    const stop = await db.listen('chan', (p) => got.push(p));
    await db.notify('chan', 'one');
    await db.notify('chan', 'two');
    await db.notify('other', 'not mine');
    await vi.waitFor(() => expect(got).toEqual(['one', 'two']));
    await stop();
    // A listener still there hears a notice sent after 'after': by then 'after' was delivered, or dropped.
    const marks: string[] = [];
    await db.listen('mark', (p) => marks.push(p));
    await db.notify('chan', 'after');
    await db.notify('mark', 'sent after');
    await vi.waitFor(() => expect(marks).toEqual(['sent after']));
    expect(got).toEqual(['one', 'two']);
    await expect(db.notify('chan', 'x'.repeat(8000))).rejects.toThrow(/too long/);
  });

  it('says the database is gone once it is closed, as an outage', async () => {
    const other = await openPglite(null);
    expect(await other.query('select 1 as one')).toEqual([{ one: 1 }]);
    await other.close();
    const err = await other.query('select 1').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(Error);
    expect(isDatabaseOutage(err)).toBe(true);
  }, 60_000);
});
