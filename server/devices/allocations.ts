import { DateTime } from 'luxon';
import type { Queryable } from '../db/adapter';
import { ApiError, notFound } from '../errors';
import { DAY_MS } from '../../engine/constants';
import type { Allocation, DeviceOperationBody } from '../../contract/devices';

export { DAY_MS };

/** The spec's device messages (spec 1 §8); the client matches on 'mapped', 'occupied', 'success'. */
export const DEVICE_MESSAGES = {
  notMapped: 'The device is not mapped to the physician for the specified range.',
  outOfRange: 'Dates are out of range from physician device allocation.',
  patientAssigned: 'This patient is already assigned to other device during these dates.',
  pastDate: 'Deployment for the specified date failed. However you can request admin below',
  notPresent: 'A device can only be returned when it is physically back: confirm that you have it.',
} as const;

export type Operation = 'deploy' | 'force-deploy' | 'extend' | 'force-extend' | 'cancel' | 'return';

/** The fields of POST /device/device-operation that pick the operation. */
type OperationFlags = Pick<DeviceOperationBody, 'force_extend' | 'cancel_device' | 'allocate_device' | 'change_allocation_times' | 'return_device' | 'country'>;

/**
 * The operation the flags ask for (spec 1 §4): cancel overrides; a change of times is an
 * extend (force-extend if forced); an allocation is a deploy (force-deploy if forced); a
 * country without other flags is a force-deploy. Returning is its own flag.
 */
export function operationOf(f: OperationFlags): Operation | null {
  if (f.cancel_device) return 'cancel';
  if (f.return_device) return 'return';
  if (f.change_allocation_times) return f.force_extend ? 'force-extend' : 'extend';
  if (f.allocate_device) return f.force_extend ? 'force-deploy' : 'deploy';
  if (f.country) return 'force-deploy';
  return null;
}

/** A device_allocations row, every column (contract/devices.ts Allocation: the operations answer it as it is). */
export type AllocationRow = Allocation;

/** Start of today in a zone, ms. */
export const startOfToday = (zone: string, now = Date.now()) => DateTime.fromMillis(now, { zone }).startOf('day').toMillis();

/**
 * The next `count` calendar days in a zone, from today, each as its date and [from, to) in ms:
 * a day starts at local midnight (as allocations do) and lasts 23 or 25 hours across DST.
 */
export function calendarDays(zone: string, count: number, now = Date.now()): Array<{ date: string; from: number; to: number }> {
  const today = DateTime.fromMillis(now, { zone }).startOf('day');
  return Array.from({ length: count }, (_, i) => {
    const day = today.plus({ days: i });
    return { date: day.toISODate()!, from: day.toMillis(), to: day.plus({ days: 1 }).toMillis() };
  });
}

const fmt = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toFormat('dd LLL yyyy');
/** A day as the client formats it in the user's language (YYYY-MM-DD). */
const isoDay = (ms: number, zone: string) => DateTime.fromMillis(ms, { zone }).toISODate() ?? '';

/** Locks the patient row: every booking change of one patient runs one at a time (take it before the device's). */
export async function lockPatient(tx: Queryable, patientId: number): Promise<void> {
  await tx.query('select id from patients where id = $1 for no key update', [patientId]);
}

/**
 * The spec's answer for a booking the database refused (its exclusion constraints: a device
 * with two patients, or a patient on two devices, at once), or null for any other error. The
 * checks above say it with names and dates; this is the net under every path that forgets them.
 */
export function bookingConflict(err: unknown): ApiError | null {
  const e = err as { code?: unknown; constraint?: unknown; message?: unknown } | null;
  if (e?.code !== '23P01') return null;
  const text = `${String(e.constraint ?? '')} ${String(e.message ?? '')}`;
  if (text.includes('device_allocations_patient_free')) return new ApiError(409, 'patient_booked_meanwhile', DEVICE_MESSAGES.patientAssigned);
  if (text.includes('device_allocations_device_free')) return new ApiError(409, 'device_booked_meanwhile', 'Device is occupied: it is already reserved for another patient during these dates.');
  return null;
}

/** Locks the device row: every allocation change of one device runs one at a time. */
export async function lockDevice(tx: Queryable, deviceMasterId: number): Promise<{ device_master_id: number; device_id: string }> {
  const [device] = await tx.query<{ device_master_id: number; device_id: string }>('select device_master_id, device_id from devices where device_master_id = $1 for update', [deviceMasterId]);
  if (!device) throw notFound('device');
  return device;
}

/** The physician must hold the device for the whole range. */
export async function checkMapped(tx: Queryable, deviceMasterId: number, physicianId: number, from: number, to: number): Promise<void> {
  const maps = await tx.query<{ from_ms: number; to_ms: number }>('select from_ms, to_ms from physician_devices where device_master_id = $1 and physician_id = $2', [deviceMasterId, physicianId]);
  if (!maps.some((m) => m.from_ms < to && m.to_ms > from)) throw new ApiError(400, 'device_not_mapped', DEVICE_MESSAGES.notMapped);
  if (!maps.some((m) => m.from_ms <= from && m.to_ms >= to)) throw new ApiError(400, 'dates_out_of_range', DEVICE_MESSAGES.outOfRange);
}

/** Booked allocations of a device overlapping [from, to), except one. */
function deviceOverlaps(tx: Queryable, deviceMasterId: number, from: number, to: number, except = 0) {
  return tx.query<AllocationRow & { patient_code: string }>(
    `select a.*, p.patient_code from device_allocations a join patients p on p.id = a.patient_id
     where a.device_master_id = $1 and a.status = 'booked' and a.allocation_ms < $3 and a.deallocation_ms > $2 and a.device_user_map_id <> $4
     order by a.allocation_ms`,
    [deviceMasterId, from, to, except],
  );
}

/** Refuses when the patient holds another device in [from, to). */
export async function checkPatientFree(tx: Queryable, patientId: number, deviceMasterId: number, from: number, to: number, zone: string): Promise<void> {
  const [other] = await tx.query<AllocationRow & { device_id: string }>(
    `select a.*, d.device_id from device_allocations a join devices d on d.device_master_id = a.device_master_id
     where a.patient_id = $1 and a.status = 'booked' and a.device_master_id <> $2 and a.allocation_ms < $4 and a.deallocation_ms > $3 limit 1`,
    [patientId, deviceMasterId, from, to],
  );
  if (other) {
    throw new ApiError(409, 'patient_already_assigned', DEVICE_MESSAGES.patientAssigned, {
      errors: [`This patient is already assigned ${other.device_id} device for future dates start from ${fmt(other.allocation_ms, zone)} to ${fmt(other.deallocation_ms, zone)}.`],
      params: { device: other.device_id, from: isoDay(other.allocation_ms, zone), to: isoDay(other.deallocation_ms, zone) },
    });
  }
}

/**
 * Makes room on the device: with `force`, bookings that have not started are cancelled;
 * otherwise (or when one has started) the answer is 'occupied' with who holds it.
 */
export async function clearDevice(tx: Queryable, deviceMasterId: number, from: number, to: number, force: boolean, userId: number, zone: string, except = 0, now = Date.now()): Promise<number> {
  const overlaps = await deviceOverlaps(tx, deviceMasterId, from, to, except);
  const blocking = overlaps.find((o) => !force || o.allocation_ms <= now);
  if (blocking) {
    throw new ApiError(409, 'device_occupied', `Device is occupied: reserved for patient ${blocking.patient_code} from ${fmt(blocking.allocation_ms, zone)} to ${fmt(blocking.deallocation_ms, zone)}.`, {
      errors: [`This device is already reserved for patient ${blocking.patient_code} from ${fmt(blocking.allocation_ms, zone)} to ${fmt(blocking.deallocation_ms, zone)}.`],
      params: { patient: blocking.patient_code, from: isoDay(blocking.allocation_ms, zone), to: isoDay(blocking.deallocation_ms, zone) },
    });
  }
  for (const o of overlaps) {
    await tx.query(`update device_allocations set status = 'cancelled', updated_by = $2, updated_at = now() where device_user_map_id = $1`, [o.device_user_map_id, userId]);
  }
  return overlaps.length;
}

/** Device status (spec 1 §3), computed from allocations, mappings and recordings. */
export type DeviceStatus = 'not_allocated' | 'available' | 'pending' | 'deployed' | 'active' | 'inactive' | 'overdue' | 'archive_ready';

/**
 * With a patient: overdue past the return date; deployed during its first day (no night
 * yet); then active or inactive by last night's data. Otherwise pending when booked ahead,
 * archive ready when returned by a patient not yet archived, available when held by the
 * physician, else not allocated.
 */
export function deviceStatus(
  input: { mapped: boolean; current: Pick<AllocationRow, 'allocation_ms' | 'deallocation_ms'> | null; future: boolean; recordedLastNight: boolean; returnedByActivePatient?: boolean },
  now = Date.now(),
): DeviceStatus {
  if (input.current) {
    if (input.current.deallocation_ms <= now) return 'overdue';
    if (input.current.allocation_ms > now - DAY_MS && !input.recordedLastNight) return 'deployed';
    return input.recordedLastNight ? 'active' : 'inactive';
  }
  if (input.future) return 'pending';
  if (input.returnedByActivePatient) return 'archive_ready';
  return input.mapped ? 'available' : 'not_allocated';
}
