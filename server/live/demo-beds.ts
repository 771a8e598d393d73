// Live beds of the demo physician for trying the real-time wall (`npm run beds`), and for the
// tests and benchmarks that stream many devices: each device deployed to a patient of its own
// (a patient holds one device at a time) and given a key. Written straight into the database,
// as the other command-line tools write (the server stopped: PGlite allows one process).
import type { Db } from '../db/adapter';
import { DEMO_ACCOUNTS } from '../seed';
import { issueDeviceKey } from './keys';

/**
 * `n` devices `<prefix>0001`… (numbered from `first`, or after the highest `<prefix>` device
 * there is), each deployed from an hour ago until tomorrow to a patient of its own numbered as
 * the demo clinic's are (device NCT0001 is NCT1001's: BED0001 is BED1001's)
 * (all or none: one transaction), then each given a key (a device left without one by a
 * failure gets it from the development server's next start, as every demo device does).
 */
export async function addDemoBeds(db: Db, n: number, prefix = 'BED', first?: number): Promise<{ deviceId: string; patientCode: string; key: string }[]> {
  const beds = await db.transaction(async (tx) => {
    const [phys] = await tx.query<{ id: number }>('select id from users where email = $1', [DEMO_ACCOUNTS.physician]);
    if (!phys) throw new Error(`There is no demo physician (${DEMO_ACCOUNTS.physician}) in this database: start the server once first (npm start seeds the demo clinic).`);
    const [{ last }] = await tx.query<{ last: number }>(
      `select coalesce(max(substr(device_id, length($1) + 1)::int), 0)::int as last from devices where device_id ~ ('^' || $1 || '[0-9]{4}$')`,
      [prefix],
    );
    const from = first ?? last + 1;
    const now = Date.now();
    const out: { deviceId: string; patientCode: string; deviceMasterId: number }[] = [];
    for (let i = 0; i < n; i++) {
      const deviceId = `${prefix}${String(from + i).padStart(4, '0')}`;
      const patientCode = `${prefix}${1000 + from + i}`;
      const [d] = await tx.query<{ device_master_id: number }>('insert into devices (device_id, physician_id) values ($1, $2) returning device_master_id', [deviceId, phys.id]);
      const [own] = await tx.query<{ id: number }>(
        `insert into patients (patient_code, physician_id, created_by, gender, country) values ($1, $2, $2, 'F', 'Switzerland') returning id`,
        [patientCode, phys.id],
      );
      await tx.query(
        `insert into device_allocations (device_master_id, patient_id, physician_id, allocation_ms, deallocation_ms, timezone, created_by) values ($1, $2, $3, $4, $5, 'Europe/Zurich', $3)`,
        [d!.device_master_id, own!.id, phys.id, now - 3_600_000, now + 86_400_000],
      );
      out.push({ deviceId, patientCode, deviceMasterId: d!.device_master_id });
    }
    return out;
  });
  const keyed: { deviceId: string; patientCode: string; key: string }[] = [];
  for (const b of beds) keyed.push({ deviceId: b.deviceId, patientCode: b.patientCode, key: (await issueDeviceKey(db, b.deviceMasterId, null)).key });
  return keyed;
}
