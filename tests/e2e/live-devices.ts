// Live devices of the demo physician, each deployed to a patient of its own and given a key,
// written straight into the database (the server stopped: PGlite allows one process). Used by
// the wall-display e2e test, bench:realtime's screen half and bench:scale.
import type { Db } from '../../server/db/adapter';
import { DEMO_ACCOUNTS } from '../../server/seed';
import { issueDeviceKey } from '../../server/live/keys';

/** `n` devices `<prefix>0001`… (numbered from `first`), each deployed to a patient `B<device>` of its own, each with a key. */
export async function provisionLiveDevices(db: Db, n: number, prefix = 'RTS', first = 1): Promise<{ deviceId: string; key: string }[]> {
  const [phys] = await db.query<{ id: number }>('select id from users where email = $1', [DEMO_ACCOUNTS.physician]);
  const now = Date.now();
  const out: { deviceId: string; key: string }[] = [];
  for (let i = 0; i < n; i++) {
    const deviceId = `${prefix}${String(first + i).padStart(4, '0')}`;
    const [d] = await db.query<{ device_master_id: number }>('insert into devices (device_id, physician_id) values ($1, $2) returning device_master_id', [deviceId, phys!.id]);
    // A patient of its own per device: a patient holds one device at a time.
    const [own] = await db.query<{ id: number }>(`insert into patients (patient_code, physician_id, created_by, gender, country) values ($1, $2, $2, 'F', 'Switzerland') returning id`, [`B${deviceId}`, phys!.id]);
    await db.query(
      `insert into device_allocations (device_master_id, patient_id, physician_id, allocation_ms, deallocation_ms, timezone, created_by) values ($1, $2, $3, $4, $5, 'Europe/Zurich', $3)`,
      [d!.device_master_id, own!.id, phys!.id, now - 3_600_000, now + 86_400_000],
    );
    out.push({ deviceId, key: (await issueDeviceKey(db, d!.device_master_id, null)).key });
  }
  return out;
}
