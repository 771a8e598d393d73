import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/adapter';
import { MIGRATIONS_DIR, migrate } from '../../server/db/migrate';
import { pgliteFrom } from './helpers';

/**
 * Migration 013 on rows stored before it: our device's nights keep -1/-2 (not on coded
 * channels), imported files get none, and their stored wire form (which said -1/-2) is
 * dropped so it is rebuilt with the right codes.
 */
let db: Db;
let dir = '';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nocturne-mig-'));
  const files = (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql') && f < '013');
  for (const f of files) await copyFile(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
  db = await pgliteFrom();
  await migrate(db, dir);
});
afterAll(async () => {
  await db?.close();
  await rm(dir, { recursive: true, force: true });
});

describe('migration 013: missing codes per channel for old rows', () => {
  it('defaults from the recording source and drops stale wire buffers', async () => {
    // Rows as an older version stored them (foreign keys off: only these tables matter here).
    await db.exec(`set session_replication_role = replica`);
    const rec = async (source: string) =>
      (await db.query<{ id: number }>(`insert into recordings (patient_id, timezone, start_ms, stop_ms, night_key, source) values (1, 'UTC', 0, 1, 0, $1) returning id`, [source]))[0].id;
    const chan = async (recording: number, code: string) => {
      const [c] = await db.query<{ id: number }>(
        `insert into recording_channels (recording_id, code, label, sample_rate, t0_ms, storage, sample_count) values ($1, $2, $2, 1, 0, 'int16', 0) returning id`,
        [recording, code],
      );
      await db.query('insert into recording_channel_wire (channel_id, gzip) values ($1, $2)', [c.id, new Uint8Array([1])]);
      return c.id;
    };
    const sim = await rec('simulated');
    const edf = await rec('edf');
    const ids = { spo2: await chan(sim, 'SPO2'), sqb: await chan(sim, 'SQB'), flow: await chan(edf, 'NC_PSG') };
    await db.exec(`set session_replication_role = origin`);
    for (const f of (await readdir(MIGRATIONS_DIR)).filter((f) => f.startsWith('013'))) await copyFile(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
    expect(await migrate(db, dir)).toEqual(['013_channel_source_fields.sql']);

    const rows = await db.query<{ id: number; missing_codes: number[]; transducer: string; wire: number }>(
      `select c.id, c.missing_codes, c.transducer, (select count(*)::int from recording_channel_wire w where w.channel_id = c.id) as wire from recording_channels c order by c.id`,
    );
    const byId = new Map(rows.map((r) => [r.id, r]));
    expect(byId.get(ids.spo2)).toMatchObject({ missing_codes: [-1, -2], transducer: '', wire: 1 });
    expect(byId.get(ids.sqb)).toMatchObject({ missing_codes: [], wire: 0 });
    expect(byId.get(ids.flow)).toMatchObject({ missing_codes: [], wire: 0 });
  });
});
