import type { Queryable } from '../db/adapter';
import { actingPhysicianId, type UserRow } from '../auth/users';

/** A device of the user's practice with its live state, as the live routes and sockets read it. */
export interface PracticeDevice {
  device_master_id: number;
  device_id: string;
  last_seq: number;
  last_frame_ms: number | null;
  recording_id: number | null;
  /** The patient wearing the device: its live recording's, else its current allocation's. */
  patient_id: number | null;
  session_start_ms: number | null;
  /** The code of the patient wearing the device: its live recording's, else its current allocation's. */
  patient_code: string | null;
  /** The current allocation's recording window and zone (null when the device is not deployed now). */
  window_start_time: string | null;
  window_end_time: string | null;
  allocation_timezone: string | null;
}

/** Devices with their live state and the patient wearing them: the live recording's, else the allocation current now. */
const SELECT = `select d.device_master_id, d.device_id, coalesce(l.last_seq, -1) as last_seq, l.last_frame_ms, l.recording_id,
  coalesce(r.patient_id, a.patient_id) as patient_id, l.session_start_ms, p.patient_code,
  a.window_start_time, a.window_end_time, a.timezone as allocation_timezone
  from devices d left join device_live l on l.device_master_id = d.device_master_id left join recordings r on r.id = l.recording_id
  left join lateral (select a.patient_id, a.window_start_time, a.window_end_time, a.timezone from device_allocations a where a.device_master_id = d.device_master_id and a.status = 'booked'
    and a.allocation_ms <= (extract(epoch from now()) * 1000)::bigint and a.deallocation_ms > (extract(epoch from now()) * 1000)::bigint
    order by a.allocation_ms desc limit 1) a on true
  left join patients p on p.id = coalesce(r.patient_id, a.patient_id)`;

/** The device if it belongs to the user's practice (never for annotators or admins), else null. */
export async function practiceDevice(db: Queryable, user: UserRow, deviceId: string): Promise<PracticeDevice | null> {
  if (user.is_annotator || user.role === 'admin') return null;
  const [row] = await db.query<PracticeDevice>(`${SELECT} where d.device_id = $1 and d.physician_id = $2`, [deviceId, actingPhysicianId(user)]);
  return row ?? null;
}

/** Every device of the user's practice with its live state. */
export function practiceDevices(db: Queryable, user: UserRow): Promise<PracticeDevice[]> {
  return db.query<PracticeDevice>(`${SELECT} where d.physician_id = $1 order by d.device_id`, [actingPhysicianId(user)]);
}

/** A device of the user's practice by its master id, or null. */
export async function practiceDeviceById(db: Queryable, user: UserRow, deviceMasterId: number): Promise<PracticeDevice | null> {
  const [row] = await db.query<PracticeDevice>(`${SELECT} where d.device_master_id = $1 and d.physician_id = $2`, [deviceMasterId, actingPhysicianId(user)]);
  return row ?? null;
}
