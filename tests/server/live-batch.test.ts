import { describe, expect, it } from 'vitest';
import { liveSuite } from './live-suite';
import { TEST_DB } from './helpers';
import { commitBatch, endSession, frameDigest, openSession, pruneFrames, type BatchItem, type IngestResult, type LiveSession } from '../../server/live/ingest';
import { FrameError, validateFrame } from '../../server/live/frames';
import { GroupCommit } from '../../server/live/group-commit';
import { listChannels, loadSamples, loadTail } from '../../server/recordings/store';
import { decodeWire } from '../../engine/wire';
import { LiveHub, noticesOf, PASSES_AT_ONCE } from '../../server/live/hub';
import { decodeFrame, encodeFrame } from '../../contract/live-protocol';
import { openPostgres } from '../../server/db/postgres';
import { until } from './live-helpers';
import type { WebSocket } from 'ws';

/** Group commit (issue 15): one transaction for frames of several devices; idempotent within a batch; a failed batch stores nothing. */
describe(`live group commit on ${TEST_DB}`, () => {
  const live = liveSuite();

  async function session(deviceId: string): Promise<LiveSession> {
    const [d] = await live.server.db.query<{ device_master_id: number; physician_id: number }>('select device_master_id, physician_id from devices where device_id = $1', [deviceId]);
    // A free device goes to a patient of its own (a patient holds one device at a time).
    const booked = await live.server.db.query('select 1 from device_allocations where device_master_id = $1 and status = $2 and deallocation_ms > $3', [d!.device_master_id, 'booked', Date.now() - 60_000]);
    if (!booked.length) {
      const [p] = await live.server.db.query<{ id: number }>(
        `insert into patients (patient_code, physician_id, created_by, gender, country) values ($1, $2, $2, 'F', 'Switzerland')
         on conflict (patient_code) do update set patient_code = excluded.patient_code returning id`,
        [`LB${deviceId}`, d!.physician_id],
      );
      await live.server.db.query(
        `insert into device_allocations (device_master_id, patient_id, physician_id, allocation_ms, deallocation_ms, timezone, created_by) values ($1, $2, $3, $4, $5, 'UTC', $3)`,
        [d!.device_master_id, p!.id, d!.physician_id, Date.now() - 60_000, Date.now() + 3_600_000],
      );
    }
    return openSession(live.server.db, { deviceMasterId: d!.device_master_id, deviceId, physicianId: d!.physician_id }, Date.now(), ['HR', 'Y_DIST']);
  }
  const item = (s: LiveSession, seq: number, hr: number, yDist: number[]): BatchItem => {
    const frame = validateFrame(encodeFrame({ seq, sentMs: Date.now(), channels: [{ code: 'HR', n: 1 }, { code: 'Y_DIST', n: yDist.length }] }, [[hr], yDist]), new Set(['HR', 'Y_DIST']));
    return { session: s, frame, digest: frameDigest(frame) };
  };
  const outcome = (r: IngestResult | Error) => (r instanceof FrameError ? r.code : r instanceof Error ? r.message : r.duplicate ? 'duplicate' : 'committed');
  const stored = async (s: LiveSession) =>
    live.server.db.query<{ code: string; sample_count: number }>('select code, sample_count from recording_channels where recording_id = $1 order by code', [s.recordingId]);

  it('commits frames of several devices in one batch, each channel continuing in batch order; a repeat within the batch is a duplicate, a changed one a reused seq', async () => {
    const a = await session('NCT0001');
    const b = await session('NCT0002');
    const a0 = a.lastSeq + 1;
    const b0 = b.lastSeq + 1;
    const first = item(a, a0, 60, [1, 2]);
    const next = item(a, a0 + 1, 61, [3, 4, 5]);
    const results = await commitBatch(live.server.db, [first, item(b, b0, 70, [5]), next, first, item(a, a0 + 1, 99, [9]), item(a, a0 + 5, 62, [6])]);
    expect(results.map(outcome)).toEqual(['committed', 'committed', 'committed', 'duplicate', 'sequence_reused', 'sequence_gap']);
    const second = results[2] as Extract<IngestResult, { duplicate: false }>;
    expect(second.frame.layout).toEqual({ HR: [1, 1], Y_DIST: [2, 3] });
    expect(await stored(a)).toEqual([{ code: 'HR', sample_count: 2 }, { code: 'Y_DIST', sample_count: 5 }]);
    expect(await stored(b)).toEqual([{ code: 'HR', sample_count: 1 }, { code: 'Y_DIST', sample_count: 1 }]);
    const [la] = await live.server.db.query<{ last_seq: number }>('select last_seq from device_live where device_master_id = $1', [a.device.deviceMasterId]);
    expect(la!.last_seq).toBe(a0 + 1);
    // The same frames again in a later batch: duplicates, nothing stored twice.
    const again = await commitBatch(live.server.db, [first, next]);
    expect(again.map(outcome)).toEqual(['duplicate', 'duplicate']);
    expect(await stored(a)).toEqual([{ code: 'HR', sample_count: 2 }, { code: 'Y_DIST', sample_count: 5 }]);
  });

  it('a batch that fails stores nothing of any frame in it, so none may be acked', async () => {
    const a = await session('NCT0001');
    const b = await session('NCT0002');
    const before = { a: await stored(a), b: await stored(b), chunks: await live.server.db.query('select count(*)::int as n from recording_chunks') };
    const good = item(b, b.lastSeq + 1, 70, [5]);
    // A channel that is not in the database: the chunk insert fails inside the batch.
    const broken: LiveSession = { ...a, channels: new Map([...a.channels].map(([code, c]) => [code, { ...c, id: code === 'Y_DIST' ? 2_000_000_000 : c.id }])) };
    await expect(commitBatch(live.server.db, [good, item(broken, a.lastSeq + 1, 60, [1])])).rejects.toThrow();
    expect(await stored(a)).toEqual(before.a);
    expect(await stored(b)).toEqual(before.b);
    expect(await live.server.db.query('select count(*)::int as n from recording_chunks')).toEqual(before.chunks);
    // Resent in the next batch, the good frame commits.
    expect((await commitBatch(live.server.db, [good])).map(outcome)).toEqual(['committed']);
  });

  it('a batch whose writing statement fails (on PostgreSQL the one sent with the COMMIT) stores nothing of any frame; the next batch commits', async () => {
    const a = await session('NCT0001');
    const b = await session('NCT0002');
    const before = { a: await stored(a), b: await stored(b) };
    const seq = a.lastSeq + 1;
    // A chunk already at the seq a's next frame takes: its insert breaks the primary key, inside the last statement.
    const hr = a.channels.get('HR')!.id;
    await live.server.db.query('insert into recording_chunks (channel_id, seq, data) values ($1, $2, $3)', [hr, seq, Buffer.from([1])]);
    await expect(commitBatch(live.server.db, [item(b, b.lastSeq + 1, 70, [5]), item(a, seq, 60, [1])])).rejects.toThrow(/duplicate key|unique/i);
    expect(await stored(a)).toEqual(before.a);
    expect(await stored(b)).toEqual(before.b);
    const [frames] = await live.server.db.query<{ n: number }>('select count(*)::int as n from live_frames where (device_master_id, seq) in (($1, $2), ($3, $4))', [a.device.deviceMasterId, seq, b.device.deviceMasterId, b.lastSeq + 1]);
    expect(frames!.n).toBe(0);
    await live.server.db.query('delete from recording_chunks where channel_id = $1 and seq = $2', [hr, seq]);
    // The connection is back in the pool, its transaction rolled back: the resent frames commit.
    expect((await commitBatch(live.server.db, [item(b, b.lastSeq + 1, 70, [5]), item(a, seq, 60, [1])])).map(outcome)).toEqual(['committed', 'committed']);
    expect(await stored(a)).toEqual(before.a.map((r) => ({ code: r.code, sample_count: r.sample_count + 1 })));
  });

  it('the group commit of frames from several devices arriving together: one transaction, each frame acked exactly once, each fanned out once', async () => {
    const sessions = await Promise.all(['NCT0001', 'NCT0002', 'NCT0003', 'NCT0004'].map(session));
    const before = await Promise.all(sessions.map(stored));
    const fannedOut: string[] = [];
    const group = new GroupCommit(live.server.db, async (frames) => void fannedOut.push(...frames.map((f) => `${f.deviceId}:${f.seq}`)), 20, 1);
    const acks = new Map<string, number>();
    // As device-socket.ts does: a frame is acked when its commit resolves, never when it rejects.
    const send = (s: LiveSession, seq: number) =>
      group.commit(s, item(s, seq, 60, [1, 2, 3]).frame).then((r) => {
        const key = `${s.device.deviceId}:${seq}`;
        acks.set(key, (acks.get(key) ?? 0) + 1);
        return r;
      });
    const expected = sessions.flatMap((s) => [1, 2, 3].map((k) => `${s.device.deviceId}:${s.lastSeq + k}`));
    const results = await Promise.all(sessions.flatMap((s) => { const l = s.lastSeq; return [1, 2, 3].map((k) => send(s, l + k)); }));
    expect(results.map(outcome)).toEqual(expected.map(() => 'committed'));
    expect(group.batches).toBe(1);
    expect(group.frames).toBe(12);
    expect([...acks.keys()].sort()).toEqual([...expected].sort());
    expect([...acks.values()].every((n) => n === 1)).toBe(true);
    await group.fannedOut();
    expect([...fannedOut].sort()).toEqual([...expected].sort());
    const after = await Promise.all(sessions.map(stored));
    after.forEach((rows, i) => expect(rows).toEqual(before[i]!.map((r) => ({ code: r.code, sample_count: r.sample_count + (r.code === 'HR' ? 3 : 9) }))));
  });

  it('two lanes commit side by side, each device in one of them: its frames in order, each acked and fanned out once', async () => {
    const sessions = await Promise.all(['NCT0001', 'NCT0002', 'NCT0003', 'NCT0004'].map(session));
    const lanes = new Set(sessions.map((s) => s.device.deviceMasterId % 2));
    expect(lanes.size).toBe(2);
    const fannedOut: string[] = [];
    const group = new GroupCommit(live.server.db, async (frames) => void fannedOut.push(...frames.map((f) => `${f.deviceId}:${f.seq}`)), 0, 2);
    const firsts = sessions.map((s) => s.lastSeq + 1);
    const results = await Promise.all(sessions.flatMap((s, i) => [0, 1, 2, 3, 4].map((k) => group.commit(s, item(s, firsts[i]! + k, 60, [k]).frame))));
    expect(results.map(outcome)).toEqual(results.map(() => 'committed'));
    // Each lane committed its devices' frames; the two lanes are two transactions at least.
    expect(group.frames).toBe(20);
    expect(group.batches).toBeGreaterThanOrEqual(2);
    await group.fannedOut();
    sessions.forEach((s, i) => {
      // A device's frames reach fan-out in seq order, and each once.
      const mine = fannedOut.filter((f) => f.startsWith(`${s.device.deviceId}:`)).map((f) => Number(f.split(':')[1]));
      expect(mine).toEqual([0, 1, 2, 3, 4].map((k) => firsts[i]! + k));
    });
    for (const s of sessions) {
      const [y] = await listChannels(live.server.db, [s.recordingId], ['Y_DIST']);
      const samples = Array.from(await loadSamples(live.server.db, y!));
      expect(samples.slice(-5)).toEqual([0, 1, 2, 3, 4].map((k) => Math.round(k / y!.scale)));
    }
  });

  it('a group commit that fails acks no frame of it; the devices resend and nothing is lost or stored twice', async () => {
    const [a, b, c] = await Promise.all(['NCT0001', 'NCT0002', 'NCT0003'].map(session));
    const before = await Promise.all([a, b, c].map(stored));
    const fannedOut: number[] = [];
    const group = new GroupCommit(live.server.db, async (frames) => void fannedOut.push(frames.length), 20, 1);
    const broken: LiveSession = { ...c!, channels: new Map([...c!.channels].map(([code, ch]) => [code, { ...ch, id: code === 'Y_DIST' ? 2_000_000_000 : ch.id }])) };
    const seqs = { a: a!.lastSeq + 1, b: b!.lastSeq + 1, c: c!.lastSeq + 1 };
    const frames = { a: item(a!, seqs.a, 60, [1]).frame, b: item(b!, seqs.b, 61, [2]).frame, c: item(c!, seqs.c, 62, [3]).frame };
    const first = await Promise.allSettled([group.commit(a!, frames.a), group.commit(b!, frames.b), group.commit(broken, frames.c)]);
    expect(first.map((r) => r.status)).toEqual(['rejected', 'rejected', 'rejected']);
    expect(group.batches).toBe(0);
    await group.fannedOut();
    expect(fannedOut).toEqual([]);
    expect(await Promise.all([a, b, c].map((s) => stored(s!)))).toEqual(before);
    // The devices resend what was not acked (the fault gone): each frame committed once; sent again, a duplicate.
    const resent = await Promise.all([group.commit(a!, frames.a), group.commit(b!, frames.b), group.commit(c!, frames.c)]);
    expect(resent.map(outcome)).toEqual(['committed', 'committed', 'committed']);
    const again = await Promise.all([group.commit(a!, frames.a), group.commit(b!, frames.b), group.commit(c!, frames.c)]);
    expect(again.map(outcome)).toEqual(['duplicate', 'duplicate', 'duplicate']);
    const after = await Promise.all([a, b, c].map((s) => stored(s!)));
    after.forEach((rows, i) => expect(rows).toEqual(before[i]!.map((r) => ({ code: r.code, sample_count: r.sample_count + 1 }))));
    const [lf] = await live.server.db.query<{ n: number }>(
      'select count(*)::int as n from live_frames where (device_master_id, seq) in (($1, $2), ($3, $4), ($5, $6))',
      [a!.device.deviceMasterId, seqs.a, b!.device.deviceMasterId, seqs.b, c!.device.deviceMasterId, seqs.c],
    );
    expect(lf!.n).toBe(3);
  });

  it('device frames have connections of their own: a batch commits and fans out while every request connection is held', async () => {
    if (TEST_DB === 'pglite') {
      // One connection (the database's thread) for everything: nothing to reserve.
      expect(live.server.db.live()).toBe(live.server.db);
      return;
    }
    const s = await session('NCT0001');
    const [{ schema }] = await live.server.db.query<{ schema: string }>('select current_schema() as schema');
    const own = await openPostgres({ url: process.env.TEST_DATABASE_URL!, schema });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const holders: Promise<void>[] = [];
    try {
      // A burst of requests: every connection of the request pool inside a transaction that waits.
      let open = 0;
      for (let i = 0; i < 10; i++) holders.push(own.transaction(async () => void (open++, await held)));
      await until(() => open === 10, 10_000, 'every request connection held');
      // A request's query now waits for a connection; it is still waiting when the batch has committed.
      let answered = false;
      holders.push(own.query('select 1').then(() => void (answered = true)));
      const fannedOut: number[] = [];
      const group = new GroupCommit(own.live(), async (frames) => void fannedOut.push(...frames.map((f) => f.seq)));
      const seq = s.lastSeq + 1;
      // With one pool this waits for a connection until the pool's 5-s timeout and rejects.
      expect(outcome(await group.commit(s, item(s, seq, 60, [1, 2]).frame))).toBe('committed');
      await group.fannedOut();
      expect(fannedOut).toEqual([seq]);
      expect(answered).toBe(false);
      await own.live().notify('nocturne_test_live_pool', 'x');
    } finally {
      release();
      await Promise.all(holders);
      await own.close();
    }
  });

  if (TEST_DB === 'postgres') {
    it("a batch's two statements are prepared once on a connection and executed there after, also after one whose writing statement failed", async () => {
      const s = await session('NCT0004');
      const before = await stored(s);
      const [{ schema }] = await live.server.db.query<{ schema: string }>('select current_schema() as schema');
      const own = await openPostgres({ url: process.env.TEST_DATABASE_URL!, schema });
      try {
        // One batch at a time: the live pool hands back the connection the last one used.
        const first = s.lastSeq + 1;
        expect((await commitBatch(own.live(), [item(s, first, 60, [1])])).map(outcome)).toEqual(['committed']);
        // A chunk already at the next frame's seq: the prepared writing statement fails inside its EXECUTE, the transaction is rolled back.
        const hr = s.channels.get('HR')!.id;
        await own.query('insert into recording_chunks (channel_id, seq, data) values ($1, $2, $3)', [hr, first + 1, Buffer.from([1])]);
        await expect(commitBatch(own.live(), [item(s, first + 1, 61, [2])])).rejects.toThrow(/duplicate key|unique/i);
        await own.query('delete from recording_chunks where channel_id = $1 and seq = $2', [hr, first + 1]);
        for (let k = 1; k <= 3; k++) expect((await commitBatch(own.live(), [item(s, first + k, 60 + k, [k])])).map(outcome)).toEqual(['committed']);
        const prepared = await own.live().transaction((tx) => tx.query<{ name: string }>("select name from pg_prepared_statements where name like 'folded_%' order by name"));
        expect(prepared.map((p) => p.name)).toEqual(['folded_live_lock_batch', 'folded_live_store_frames']);
        // Every committed frame's samples stored once: four frames of one HR and one Y_DIST sample each.
        expect(await stored(s)).toEqual(before.map((r) => ({ code: r.code, sample_count: r.sample_count + 4 })));
      } finally {
        await own.close();
      }
    });
  }

  /** A backlog's frame (after streaming was off): its viewers' form too long to go in a notice, so it is read. */
  const backlog = (k: number) => Array.from({ length: 600 }, (_, i) => k + (i % 4) / 4);

  for (const { size, values, statements } of [
    { size: 'small frames (200 ms of data) carried whole in the notices: no statement here', values: (k: number) => [k, k + 0.5], statements: 0 },
    { size: "large frames (a backlog's) read in one statement for the whole batch", values: backlog, statements: 1 },
  ]) {
    it(`another server's batch of several devices reaches its viewers here, each device's frames in order: ${size}`, async () => {
      const sessions = await Promise.all(['NCT0001', 'NCT0002', 'NCT0003'].map(session));
      const [{ schema }] = await live.server.db.query<{ schema: string }>('select current_schema() as schema');
      // The other server: on PostgreSQL with connections of its own, as another process has; its queries counted.
      const own = TEST_DB === 'postgres' ? await openPostgres({ url: process.env.TEST_DATABASE_URL!, schema }) : live.server.db;
      const queries: string[] = [];
      const here = new LiveHub({ ...own, query: (sql, params) => (queries.push(sql), own.query(sql, params)) });
      const there = new LiveHub(live.server.db);
      await here.start();
      await there.start();
      try {
        // A viewer of each device here (an open socket with room in its buffer).
        const got = new Map<string, Uint8Array[]>();
        for (const s of sessions) {
          const socket = { OPEN: 1, readyState: 1, bufferedAmount: 0, send: (b: Uint8Array | string) => typeof b !== 'string' && got.set(s.device.deviceId, [...(got.get(s.device.deviceId) ?? []), b]) };
          await here.subscribe(socket as unknown as WebSocket, s.device.deviceMasterId, s.device.deviceId, null);
        }
        // One batch on the other server: four frames of each device, interleaved.
        const firsts = new Map(sessions.map((s) => [s.device.deviceId, s.lastSeq + 1]));
        const items = [0, 1, 2, 3].flatMap((k) => sessions.map((s) => item(s, firsts.get(s.device.deviceId)! + k, 60 + k, values(k))));
        const results = await commitBatch(live.server.db, items);
        queries.length = 0;
        await there.published(results.map((r) => (r as Extract<IngestResult, { duplicate: false }>).frame));
        await until(() => [...got.values()].reduce((n, f) => n + f.length, 0) === items.length, 10_000, 'every frame at the viewers here');
        // Read: the frames with their samples and devices' ids in one snapshot, so never a frame without its chunks.
        expect(queries).toHaveLength(statements);
        for (const s of sessions) {
          const frames = got.get(s.device.deviceId)!.map((b) => decodeFrame(b) as { header: { seq: number; deviceId: string; channels: { code: string; n: number }[] }; samples: Float32Array });
          expect(frames.map((f) => f.header.seq)).toEqual([0, 1, 2, 3].map((k) => firsts.get(s.device.deviceId)! + k));
          expect(frames.every((f) => f.header.deviceId === s.device.deviceId)).toBe(true);
          // Y_DIST is stored as int16 steps: the values here are on its grid, so exact.
          expect(frames.map((f) => Array.from(f.samples))).toEqual([0, 1, 2, 3].map((k) => [60 + k, ...values(k)]));
        }
      } finally {
        await here.close();
        await there.close();
        if (own !== live.server.db) await own.close();
      }
    });
  }

  it("a batch's notices: several in one statement, arriving in their order; each under PostgreSQL's 8,000 bytes, small frames carried and large ones named", async () => {
    const got: string[] = [];
    const stop = await live.server.db.listen('nocturne_test_many', (p) => got.push(p));
    try {
      await live.server.db.notify('nocturne_test_many', ['one', 'two', 'three', 'four']);
      await until(() => got.length === 4, 10_000, 'the four notices');
      expect(got).toEqual(['one', 'two', 'three', 'four']);
    } finally {
      await stop();
    }
    const frame = (seq: number) => ({ deviceMasterId: 7, deviceId: 'NCT0007', recordingId: 1, seq, sentMs: 0, committedMs: 5, layout: {}, values: [] });
    const sizes = [100, 2_000, 700, 700, 700, 700, 700, 700, 700, 700, 700, 700, 50];
    const payloads = noticesOf('origin', sizes.map((_, i) => frame(i)), sizes.map((b) => new Uint8Array(b).fill(1)));
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8_000);
    const notices = payloads.map((p) => JSON.parse(p) as { f: number[]; b: string[] });
    // Every frame once, in order; the one of 2,000 bytes named only, the others carried whole.
    expect(notices.flatMap((n) => n.f.filter((_, i) => i % 2 === 1))).toEqual(sizes.map((_, i) => i));
    const carried = notices.flatMap((n) => n.b);
    expect(carried.map((b) => Buffer.from(b, 'base64').byteLength)).toEqual(sizes.map((b) => (b === 2_000 ? 0 : b)));
  });

  it("a frame carried in another server's notice waits for the device's frame before it that must be read", async () => {
    const s = await session('NCT0001');
    const [{ schema }] = await live.server.db.query<{ schema: string }>('select current_schema() as schema');
    const own = TEST_DB === 'postgres' ? await openPostgres({ url: process.env.TEST_DATABASE_URL!, schema }) : live.server.db;
    const gates: (() => void)[] = [];
    const here = new LiveHub({
      ...own,
      query: async <T,>(sql: string, params?: unknown[]) => {
        await new Promise<void>((r) => gates.push(r));
        return own.query<T>(sql, params);
      },
    });
    const there = new LiveHub(live.server.db);
    await here.start();
    await there.start();
    try {
      const got: number[] = [];
      const socket = { OPEN: 1, readyState: 1, bufferedAmount: 0, send: (b: Uint8Array | string) => typeof b !== 'string' && got.push((decodeFrame(b).header as { seq: number }).seq) };
      await here.subscribe(socket as unknown as WebSocket, s.device.deviceMasterId, s.device.deviceId, null);
      const first = s.lastSeq + 1;
      // A backlog's frame (read here, slowly), then a small one (carried in its notice).
      for (const [seq, values] of [[first, backlog(1)], [first + 1, [2, 2.5]]] as const) {
        const [r] = await commitBatch(live.server.db, [item(s, seq, 60, [...values])]);
        await there.published([(r as Extract<IngestResult, { duplicate: false }>).frame]);
      }
      await until(() => gates.length === 1, 10_000, 'the backlog frame being read');
      // The small frame arrived meanwhile, but goes only after the one before it.
      await new Promise((r) => setImmediate(r));
      expect(got).toEqual([]);
      gates[0]!();
      await until(() => got.length === 2, 10_000, 'both frames at the viewer');
      expect(got).toEqual([first, first + 1]);
    } finally {
      for (const open of gates) open();
      await here.close();
      await there.close();
      if (own !== live.server.db) await own.close();
    }
  });

  it("other servers' notices are read as they come, a few passes at once, delivered in commit order whatever order the reads answer in; those that queue behind go together", async () => {
    const sessions = await Promise.all(['NCT0001', 'NCT0002', 'NCT0003'].map(session));
    const [{ schema }] = await live.server.db.query<{ schema: string }>('select current_schema() as schema');
    const own = TEST_DB === 'postgres' ? await openPostgres({ url: process.env.TEST_DATABASE_URL!, schema }) : live.server.db;
    // This server is slow (a busy machine): each read waits until the test lets it go.
    const queries: string[] = [];
    const gates: (() => void)[] = [];
    let arrived = 0;
    let answered = 0;
    const here = new LiveHub({
      ...own,
      query: async <T,>(sql: string, params?: unknown[]) => {
        queries.push(sql);
        await new Promise<void>((r) => gates.push(r));
        const rows = await own.query<T>(sql, params);
        answered++;
        return rows;
      },
      listen: (channel, onPayload) => own.listen(channel, (payload) => (arrived++, onPayload(payload))),
    });
    const there = new LiveHub(live.server.db);
    await here.start();
    await there.start();
    const notices = 2 * PASSES_AT_ONCE;
    try {
      const got = new Map<string, number[]>();
      for (const s of sessions) {
        const socket = { OPEN: 1, readyState: 1, bufferedAmount: 0, send: (b: Uint8Array | string) => typeof b !== 'string' && got.set(s.device.deviceId, [...(got.get(s.device.deviceId) ?? []), (decodeFrame(b).header as { seq: number }).seq]) };
        await here.subscribe(socket as unknown as WebSocket, s.device.deviceMasterId, s.device.deviceId, null);
      }
      // Batches on the other server, one frame of each device in each: a notice each.
      const firsts = new Map(sessions.map((s) => [s.device.deviceId, s.lastSeq + 1]));
      for (let k = 0; k < notices; k++) {
        // Backlog frames: too long to be carried in a notice, so each notice is read.
        const results = await commitBatch(live.server.db, sessions.map((s) => item(s, firsts.get(s.device.deviceId)! + k, 60 + k, backlog(k))));
        await there.published(results.map((r) => (r as Extract<IngestResult, { duplicate: false }>).frame));
      }
      await until(() => arrived === notices, 10_000, 'every notice here');
      // The first notices are being read, one pass each; the rest wait.
      expect(queries).toHaveLength(PASSES_AT_ONCE);
      const delivered = () => [...got.values()].reduce((n, f) => n + f.length, 0);
      // The reads answer last first: nothing goes out until the first has answered.
      for (const open of gates.slice(1).reverse()) open();
      await until(() => answered === PASSES_AT_ONCE - 1, 10_000, 'the later reads answered');
      expect(delivered()).toBe(0);
      gates[0]!();
      // Those that waited go together in one more pass.
      await until(() => gates.length === PASSES_AT_ONCE + 1, 10_000, 'the pass of the notices that waited');
      gates[PASSES_AT_ONCE]!();
      await until(() => delivered() === notices * sessions.length, 10_000, 'every frame at the viewers here');
      expect(queries).toHaveLength(PASSES_AT_ONCE + 1);
      for (const s of sessions) expect(got.get(s.device.deviceId)).toEqual(Array.from({ length: notices }, (_, k) => firsts.get(s.device.deviceId)! + k));
    } finally {
      for (const open of gates) open();
      await here.close();
      await there.close();
      if (own !== live.server.db) await own.close();
    }
  });

  it('a channel read while its night records loads the samples its row counts, though frames committed since', async () => {
    const a = await session('NCT0005');
    const s0 = a.lastSeq + 1;
    await commitBatch(live.server.db, [item(a, s0, 60, [1, 2]), item(a, s0 + 1, 61, [3, 4, 5])]);
    const [yRow] = await listChannels(live.server.db, [a.recordingId], ['Y_DIST']);
    const before = Array.from(await loadSamples(live.server.db, yRow!));
    // A batch commits between reading the row and reading its chunks (a trend or night view of a live night).
    await commitBatch(live.server.db, [item(a, s0 + 2, 62, [6, 7])]);
    expect(Array.from(await loadSamples(live.server.db, yRow!))).toEqual(before);
    // Ended (compacted into fewer, larger chunks), the old row still reads its own samples, and the new row all of them.
    await endSession(live.server.db, a);
    expect(Array.from(await loadSamples(live.server.db, yRow!))).toEqual(before);
    const [now] = await listChannels(live.server.db, [a.recordingId], ['Y_DIST']);
    const all = Array.from(await loadSamples(live.server.db, now!));
    expect(all.length).toBe(before.length + 2);
    expect(all.slice(0, before.length)).toEqual(before);
  });

  it("a live channel's tail (a tile's strip) is read from the frames kept: the whole channel's last samples, the same after pruning and after the night ends", async () => {
    const s = await session('NCT0003');
    const [{ patient_id: patientId }] = await live.server.db.query<{ patient_id: number }>('select patient_id from recordings where id = $1', [s.recordingId]);
    const s0 = s.lastSeq + 1;
    // 700 frames of 4 Y_DIST samples (20 Hz: 140 s) and one HR sample each, every value distinct enough to tell a shift.
    const yDist = (k: number) => [0, 1, 2, 3].map((j) => ((k * 4 + j) % 997) / 10 - 40);
    for (let from = 0; from < 700; from += 100) {
      const batch = Array.from({ length: 100 }, (_, i) => item(s, s0 + from + i, 40 + ((from + i) % 53), yDist(from + i)));
      expect((await commitBatch(live.server.db, batch)).map(outcome)).toEqual(batch.map(() => 'committed'));
    }
    const read = async (code: string, tailMs?: number) => {
      const res = await live.server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${s.recordingId}&code=${code}${tailMs ? `&tail_ms=${tailMs}` : ''}`, { token: live.device.token });
      expect(res.statusCode, res.body).toBe(200);
      return decodeWire(new Uint8Array(res.rawPayload));
    };
    const expectTail = async (code: string, tailMs: number, samples: number) => {
      const whole = await read(code);
      const tail = await read(code, tailMs);
      const first = whole.samples.length - samples;
      expect(Array.from(tail.samples), `${code} ${tailMs} ms`).toEqual(Array.from(whole.samples.slice(first)));
      expect(tail.t0).toBe(whole.t0 + (first * 1000) / whole.sampleRate);
      expect({ scale: tail.scale, storage: tail.storage, missing: tail.missingCodes }).toEqual({ scale: whole.scale, storage: whole.storage, missing: whole.missingCodes });
    };
    const from = async (code: string, samples: number) => {
      const [channel] = await listChannels(live.server.db, [s.recordingId], [code]);
      const [recording] = await live.server.db.query<{ recording_meta: { live?: boolean } }>('select recording_meta from recordings where id = $1', [s.recordingId]);
      return (await loadTail(live.server.db, channel!, recording!.recording_meta.live === true, samples)).from;
    };
    await expectTail('Y_DIST', 60_000, 1_200);
    await expectTail('HR', 60_000, 60);
    expect(await from('Y_DIST', 1_200)).toBe('frames');
    // Longer than the channel: all of it.
    await expectTail('HR', 86_400_000, 700);
    // Frames older than the last 600 pruned: a tail they covered comes from the whole channel, the same samples.
    await pruneFrames(live.server.db, s.recordingId);
    expect(await from('Y_DIST', 2_600)).toBe('channel');
    await expectTail('Y_DIST', 130_000, 2_600);
    expect(await from('Y_DIST', 2_400)).toBe('frames');
    await expectTail('Y_DIST', 120_000, 2_400);
    // Ended: compacted, its frames gone, the tail read like any night's.
    await endSession(live.server.db, s);
    await expectTail('Y_DIST', 60_000, 1_200);
    // A tail asked for in a form the call does not take is refused, not guessed.
    for (const bad of ['0', '-5', '1.5', 'x', '86400001']) {
      const res = await live.server.call('GET', `/analytics/patient/channel-data?patient_id=${patientId}&recording_id=${s.recordingId}&code=HR&tail_ms=${bad}`, { token: live.device.token });
      expect(res.statusCode, bad).toBe(400);
    }
  });
});
