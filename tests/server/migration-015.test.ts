import { copyFile, mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/adapter';
import { MIGRATIONS_DIR, migrate } from '../../server/db/migrate';
import { freshDb, TEST_DB } from './helpers';

/**
 * Migration 015 on nights split before night merging existed: a CPAP recording and an
 * oximeter recording imported apart for one patient and night key become one night, on
 * the suite's database (PGlite, or PostgreSQL with NOCTURNE_TEST_DB=postgres).
 */
let db: Db;
let drop: () => Promise<void> = async () => undefined;
let dir = '';
const FILE = '015_merge_split_nights.sql';
const KEY = 1754524800;
const T = Date.UTC(2025, 7, 8, 1);

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nocturne-mig15-'));
  for (const f of (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql') && f < '015')) await copyFile(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
  ({ db, drop } = await freshDb());
  await migrate(db, dir);
});
afterAll(async () => {
  await db?.close();
  await drop();
  await rm(dir, { recursive: true, force: true });
});

const one = async <T>(sql: string, params: unknown[] = []) => (await db.query<T>(sql, params))[0]!;

/** Everything the migration may touch, for comparing before and after. */
const snapshot = async () => ({
  recordings: await db.query('select id, patient_id, device_id, start_ms::text, stop_ms::text, night_key::text, recording_meta from recordings order by id'),
  channels: await db.query('select id, recording_id, code, label, t0_ms::text from recording_channels order by id'),
  events: await db.query('select recording_id, text from recording_events order by id'),
  files: await db.query('select recording_id, file_name from recording_files order by id'),
  device: await db.query('select recording_id, kind from device_events order by id'),
  annotations: await db.query('select annotation_map_id, recording_id from annotations order by annotation_map_id'),
});

describe(`migration 015: nights split before night merging (${TEST_DB})`, () => {
  it('merges the recordings of one patient and night key into the earliest, transactionally, and changes nothing when run again', async () => {
    // Rows as an older version stored them (foreign keys off while they are written: no accounts here).
    await db.exec('set session_replication_role = replica');
    await db.query(`insert into patients (id, patient_code, physician_id, created_by) overriding system value values (7, 'P7', 1, 1), (8, 'P8', 1, 1)`);
    const rec = async (patient: number, key: number, start: number, stop: number, device: string | null, files: string[]) =>
      (
        await one<{ id: number }>(
          `insert into recordings (patient_id, device_id, timezone, start_ms, stop_ms, night_key, source, recording_meta) values ($1, $2, 'UTC', $3, $4, $5, 'edf', $6) returning id`,
          [patient, device, start, stop, key, JSON.stringify({ files: files.map((fileName) => ({ fileName })) })],
        )
      ).id;
    const chan = (recording: number, code: string, label: string, t0: number) =>
      db.query(`insert into recording_channels (recording_id, code, label, sample_rate, t0_ms, storage, sample_count) values ($1, $2, $3, 1, $4, 'float32', 0)`, [recording, code, label, t0]);
    const cpap = await rec(7, KEY, T, T + 7_200_000, null, ['x_BRP.edf', 'x_EVE.edf']);
    const oxi = await rec(7, KEY, T - 600_000, T + 3_600_000, 'OXI-1', ['spo2.csv']);
    const later = await rec(7, KEY, T + 1_000_000, T + 8_000_000, null, ['second_BRP.edf']);
    const otherNight = await rec(7, KEY + 86_400, T + 86_400_000, T + 90_000_000, null, ['next.edf']);
    const otherPatient = await rec(8, KEY, T, T + 7_200_000, null, ['x_BRP.edf']);
    await chan(cpap, 'NC_PSG', 'Flow.40ms', T);
    await chan(oxi, 'SPO2', 'SpO2', T - 600_000);
    await chan(later, 'NC_PSG', 'Flow.40ms', T + 1_000_000);
    await chan(later, 'Flow.40ms', 'Flow.40ms', T + 1_000_000);
    for (const r of [oxi, otherNight, otherPatient]) await chan(r, 'NC_PSG', 'Flow', T);
    await db.query(`insert into recording_events (recording_id, onset_ms, duration_ms, text, source) values ($1, $2, 10000, 'Central Apnea', 'file')`, [oxi, T + 60_000]);
    await db.query(`insert into recording_files (recording_id, patient_id, file_name, md5, byte_count) values ($1, 7, 'spo2.csv', $2, 10)`, [oxi, 'a'.repeat(32)]);
    await db.query(`insert into device_events (recording_id, onset_ms, duration_ms, kind, text, vendor, file_name) values ($1, $2, 10000, 'central_apnea', 'Central Apnea', 'resmed', 'x_EVE.edf')`, [later, T + 70_000]);
    await db.query(`insert into night_analyses (recording_id, params, engine_version, result) values ($1, 'p', 'x', '{}'), ($2, 'p', 'x', '{}')`, [cpap, oxi]);
    await db.exec('set session_replication_role = origin');

    await copyFile(path.join(MIGRATIONS_DIR, FILE), path.join(dir, FILE));
    expect(await migrate(db, dir)).toEqual([FILE]);

    // One recording for patient 7's night: the earliest (the oximeter), widened, its device id kept.
    const nights = await db.query<{ id: number }>('select id from recordings where patient_id = 7 and night_key = $1', [KEY]);
    expect(nights.map((r) => r.id)).toEqual([oxi]);
    const night = await one<{ start_ms: string; stop_ms: string; device_id: string; recording_meta: { files: Array<{ fileName: string }> } }>('select * from recordings where id = $1', [oxi]);
    expect([Number(night.start_ms), Number(night.stop_ms), night.device_id]).toEqual([T - 600_000, T + 8_000_000, 'OXI-1']);
    expect(night.recording_meta.files.map((f) => f.fileName).sort()).toEqual(['second_BRP.edf', 'spo2.csv', 'x_BRP.edf', 'x_EVE.edf']);
    // Every channel kept with its own t0; a code the night had already is kept under the label, else label#n.
    const codes = await db.query<{ code: string; t0_ms: string }>('select code, t0_ms::text from recording_channels where recording_id = $1 order by code', [oxi]);
    expect(codes.map((c) => c.code)).toEqual(['Flow.40ms', 'Flow.40ms#2', 'Flow.40ms#3', 'NC_PSG', 'SPO2']);
    expect(codes.find((c) => c.code === 'Flow.40ms#2')!.t0_ms).toBe(String(T + 1_000_000));
    expect((await one<{ n: number }>('select count(*)::int as n from recording_events where recording_id = $1', [oxi])).n).toBe(1);
    expect((await one<{ n: number }>('select count(*)::int as n from recording_files where recording_id = $1', [oxi])).n).toBe(1);
    expect((await one<{ n: number }>('select count(*)::int as n from device_events where recording_id = $1', [oxi])).n).toBe(1);
    expect((await one<{ n: number }>('select count(*)::int as n from night_analyses')).n).toBe(0);
    // Another night and another patient are untouched.
    expect((await db.query('select id from recordings where id = any($1::int[])', [[otherNight, otherPatient]])).length).toBe(2);

    // Idempotent: the same script again changes nothing.
    const before = await snapshot();
    const sql = await readFile(path.join(MIGRATIONS_DIR, FILE), 'utf8');
    await db.transaction((tx) => tx.exec(sql));
    expect(await snapshot()).toEqual(before);
  });
});
