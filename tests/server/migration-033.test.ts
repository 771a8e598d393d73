import { copyFile, mkdtemp, readdir, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/adapter';
import { MIGRATIONS_DIR, migrate } from '../../server/db/migrate';
import { freshDb, TEST_DB } from './helpers';

/**
 * Migration 033 on a database that holds one patient ID twice in different case: the oldest
 * keeps it, the later one gets its row id appended, and from then on the case-insensitive
 * unique index refuses such a pair.
 */
let db: Db;
let drop: () => Promise<void> = async () => undefined;
let dir = '';
const FILE = '033_patient_code_case.sql';

beforeAll(async () => {
  dir = await mkdtemp(path.join(os.tmpdir(), 'nocturne-mig33-'));
  for (const f of (await readdir(MIGRATIONS_DIR)).filter((f) => f.endsWith('.sql') && f < '033')) await copyFile(path.join(MIGRATIONS_DIR, f), path.join(dir, f));
  ({ db, drop } = await freshDb());
  await migrate(db, dir);
});
afterAll(async () => {
  await db?.close();
  await drop();
  await rm(dir, { recursive: true, force: true });
});

describe(`migration 033: patient IDs unique whatever their case (${TEST_DB})`, () => {
  it('keeps every patient, renames the later of two IDs that differ only by case, then refuses such a pair', async () => {
    await db.exec('set session_replication_role = replica');
    await db.query(
      `insert into patients (id, patient_code, physician_id, created_by) overriding system value values
         (7, 'NCT1001', 1, 1), (8, 'nct1001', 1, 1), (9, 'ABCDEFGHIJKLMNOPQRST', 1, 1), (12345, 'abcdefghijklmnopqrst', 1, 1), (10, 'Other', 1, 1)`,
    );
    await copyFile(path.join(MIGRATIONS_DIR, FILE), path.join(dir, FILE));
    expect(await migrate(db, dir)).toEqual([FILE]);
    const rows = await db.query<{ id: number; patient_code: string }>('select id, patient_code from patients order by id');
    expect(rows).toEqual([
      { id: 7, patient_code: 'NCT1001' },
      { id: 8, patient_code: 'nct1001_8' },
      { id: 9, patient_code: 'ABCDEFGHIJKLMNOPQRST' },
      { id: 10, patient_code: 'Other' },
      { id: 12345, patient_code: 'abcdefghijklmn_12345' },
    ]);
    await expect(db.query(`insert into patients (id, patient_code, physician_id, created_by) overriding system value values (11, 'OTHER', 1, 1)`)).rejects.toThrow();
    await db.exec('set session_replication_role = origin');
  });
});
