// One device-status rule for every screen that counts or lists devices (issue 32.6): the
// dashboard's counts, its "devices out, no data for 24 hours" panel and the Data Center all
// read the same rows from here, so they cannot disagree.
import type { Queryable } from '../db/adapter';
import { DAY_MS, deviceStatus, type DeviceStatus } from './allocations';

/** One device of a physician's practice, as every screen sees it now. */
export interface PracticeDevice {
  device_master_id: number;
  device_id: string;
  status: DeviceStatus;
  /** Out with a patient now (a booking that has started and is not returned, overdue ones included). */
  out: boolean;
  current: { allocation_ms: number; deallocation_ms: number; patient_id: number; patient_code: string } | null;
  /** The end of the last recording of the patient who has the device now, ms; null when none. */
  patient_last_stop_ms: number | null;
  last_recording: { night: number; patient_code: string; recording_stop_time: number } | null;
}

/**
 * The devices of a physician (owned or mapped) with their status (spec 1 §3). A device out
 * with a patient "recorded last night" when that patient has a recording that ended within
 * the last 24 hours.
 */
export async function practiceDevices(db: Queryable, physicianId: number, now = Date.now()): Promise<PracticeDevice[]> {
  const rows = await db.query<{
    device_master_id: number;
    device_id: string;
    mapped: boolean;
    future: boolean;
    returned: boolean;
    cur_allocation_ms: number | null;
    cur_deallocation_ms: number | null;
    cur_patient_id: number | null;
    cur_patient_code: string | null;
    patient_last_stop_ms: number | null;
    last_stop_ms: number | null;
    last_night_key: number | null;
    last_patient_code: string | null;
  }>(
    `select d.device_master_id, d.device_id,
            exists (select 1 from physician_devices m where m.device_master_id = d.device_master_id and m.physician_id = $1 and m.from_ms <= $2 and m.to_ms > $2) as mapped,
            exists (select 1 from device_allocations f where f.device_master_id = d.device_master_id and f.status = 'booked' and f.allocation_ms > $2) as future,
            exists (select 1 from device_allocations a join patients p on p.id = a.patient_id
                    where a.device_master_id = d.device_master_id and a.status = 'returned' and p.phys_device_return_date is null
                      and a.returned_ms = (select max(returned_ms) from device_allocations where device_master_id = d.device_master_id and status = 'returned')) as returned,
            cur.allocation_ms as cur_allocation_ms, cur.deallocation_ms as cur_deallocation_ms, cur.patient_id as cur_patient_id, cur.patient_code as cur_patient_code,
            pat.stop_ms as patient_last_stop_ms,
            last.stop_ms as last_stop_ms, last.night_key as last_night_key, last.patient_code as last_patient_code
     from devices d
     left join lateral (
       select a.allocation_ms, a.deallocation_ms, p.id as patient_id, p.patient_code from device_allocations a join patients p on p.id = a.patient_id
       where a.device_master_id = d.device_master_id and a.status = 'booked' and a.allocation_ms <= $2 order by a.allocation_ms desc limit 1
     ) cur on true
     left join lateral (select max(r.stop_ms) as stop_ms from recordings r where r.patient_id = cur.patient_id) pat on true
     left join lateral (
       select r.stop_ms, r.night_key, p.patient_code from recordings r join patients p on p.id = r.patient_id
       where r.device_id = d.device_id and p.physician_id = $1 order by r.stop_ms desc limit 1
     ) last on true
     where d.physician_id = $1 or exists (select 1 from physician_devices m where m.device_master_id = d.device_master_id and m.physician_id = $1)
     order by d.device_id`,
    [physicianId, now],
  );
  return rows.map((d) => {
    const current =
      d.cur_allocation_ms === null
        ? null
        : { allocation_ms: Number(d.cur_allocation_ms), deallocation_ms: Number(d.cur_deallocation_ms), patient_id: d.cur_patient_id!, patient_code: d.cur_patient_code! };
    const patientLast = d.patient_last_stop_ms === null ? null : Number(d.patient_last_stop_ms);
    const recordedLastNight = patientLast !== null && patientLast > now - DAY_MS;
    return {
      device_master_id: d.device_master_id,
      device_id: d.device_id,
      status: deviceStatus({ mapped: d.mapped, current, future: d.future, recordedLastNight, returnedByActivePatient: d.returned }, now),
      out: current !== null,
      current,
      patient_last_stop_ms: patientLast,
      last_recording: d.last_stop_ms !== null ? { night: Number(d.last_night_key), patient_code: d.last_patient_code!, recording_stop_time: Number(d.last_stop_ms) } : null,
    };
  });
}

/** The dashboard's device counts, from the same rows the Data Center lists. */
export function deviceCounts(devices: readonly PracticeDevice[]): { deployed_devices: number; available_devices: number; overdue_devices: number } {
  return {
    deployed_devices: devices.filter((d) => d.out).length,
    available_devices: devices.filter((d) => d.status === 'available').length,
    overdue_devices: devices.filter((d) => d.status === 'overdue').length,
  };
}

/**
 * "Devices out, no data for 24 hours": a device out with a patient for more than a day
 * (overdue ones included) whose patient has no recording that ended within the last 24 hours
 * (or none at all). One row per patient.
 */
export function silentPatients(devices: readonly PracticeDevice[], now = Date.now()): Array<{ patient_id: number; patient_code: string; last_stop_ms: number | null }> {
  const out = new Map<number, { patient_id: number; patient_code: string; last_stop_ms: number | null }>();
  for (const d of devices) {
    if (!d.current || d.current.allocation_ms > now - DAY_MS) continue;
    if (d.patient_last_stop_ms !== null && d.patient_last_stop_ms >= now - DAY_MS) continue;
    out.set(d.current.patient_id, { patient_id: d.current.patient_id, patient_code: d.current.patient_code, last_stop_ms: d.patient_last_stop_ms });
  }
  return [...out.values()].sort((a, b) => a.patient_code.localeCompare(b.patient_code));
}
