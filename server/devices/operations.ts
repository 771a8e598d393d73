import type { Queryable } from '../db/adapter';
import { ApiError, notFound } from '../errors';
import { checkMapped, checkPatientFree, clearDevice, DAY_MS, DEVICE_MESSAGES, lockDevice, lockPatient, startOfToday, type AllocationRow, type Operation } from './allocations';

export interface DeployInput {
  physicianId: number;
  userId: number;
  patientId: number;
  deviceMasterId: number;
  from: number;
  to: number;
  timezone: string;
  windowStart?: string;
  windowEnd?: string;
  force: boolean;
  /** Admin approval of a past-date request: the past is allowed. */
  allowPast?: boolean;
  now?: number;
}

const TIME = /^([01]\d|2[0-3]):[0-5]\d(:[0-5]\d)?$/;

/** Deploys a device to a patient for [from, to); the device row is locked for the whole check-and-write. */
export async function deploy(tx: Queryable, d: DeployInput): Promise<AllocationRow> {
  const now = d.now ?? Date.now();
  if (!(d.to > d.from)) throw new ApiError(400, 'validation_failed', 'The return date must be after the allocation date.');
  if (!d.allowPast && d.from < startOfToday(d.timezone, now)) throw new ApiError(400, 'past_date', DEVICE_MESSAGES.pastDate);
  for (const t of [d.windowStart, d.windowEnd]) if (t !== undefined && !TIME.test(t)) throw new ApiError(400, 'validation_failed', `"${t}" is not a time of day (HH:mm).`);
  // The patient first, then the device (always in this order, so no deadlock): two deploys of
  // different devices to one patient serialise here, and the second sees the first's booking.
  await lockPatient(tx, d.patientId);
  await lockDevice(tx, d.deviceMasterId);
  await checkMapped(tx, d.deviceMasterId, d.physicianId, d.from, d.to);
  await checkPatientFree(tx, d.patientId, d.deviceMasterId, d.from, d.to, d.timezone);
  await clearDevice(tx, d.deviceMasterId, d.from, d.to, d.force, d.userId, d.timezone, 0, now);
  // The patient's own earlier booking of this device for the range is replaced, not doubled.
  const [row] = await tx.query<AllocationRow>(
    `insert into device_allocations (device_master_id, patient_id, physician_id, allocation_ms, deallocation_ms, window_start_time, window_end_time, timezone, created_by, updated_by)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $9) returning *`,
    [d.deviceMasterId, d.patientId, d.physicianId, d.from, d.to, d.windowStart ?? '19:00:00', d.windowEnd ?? '11:00:00', d.timezone, d.userId],
  );
  return row;
}

/** The patient's booked allocation (current or next), or null. */
export async function currentAllocation(tx: Queryable, patientId: number): Promise<AllocationRow | null> {
  const [row] = await tx.query<AllocationRow>(`select * from device_allocations where patient_id = $1 and status = 'booked' order by allocation_ms limit 1`, [patientId]);
  return row ?? null;
}

/** Changes the dates of a booked allocation (extend or shorten); force cancels bookings that have not started. */
export async function extend(tx: Queryable, a: AllocationRow, from: number, to: number, force: boolean, userId: number, now = Date.now()): Promise<AllocationRow> {
  if (!(to > from)) throw new ApiError(400, 'validation_failed', 'The return date must be after the allocation date.');
  // As deploy: the patient, then the device, so the new dates are checked against both.
  await lockPatient(tx, a.patient_id);
  await lockDevice(tx, a.device_master_id);
  await checkMapped(tx, a.device_master_id, a.physician_id, from, to);
  await checkPatientFree(tx, a.patient_id, a.device_master_id, from, to, a.timezone);
  await clearDevice(tx, a.device_master_id, from, to, force, userId, a.timezone, a.device_user_map_id, now);
  const [row] = await tx.query<AllocationRow>(
    `update device_allocations set allocation_ms = $2, deallocation_ms = $3, updated_by = $4, updated_at = now() where device_user_map_id = $1 returning *`,
    [a.device_user_map_id, from, to, userId],
  );
  return row;
}

/** Returns a device, now or as of a chosen (late) date; the clinician must confirm it is physically back. */
export async function returnDevice(tx: Queryable, a: AllocationRow, opts: { confirmPresent: boolean; asOf?: number; userId: number; now?: number }): Promise<AllocationRow> {
  const now = opts.now ?? Date.now();
  if (!opts.confirmPresent) throw new ApiError(400, 'device_not_confirmed', DEVICE_MESSAGES.notPresent);
  const at = opts.asOf ?? now;
  if (at > now + DAY_MS || at < a.allocation_ms) throw new ApiError(400, 'validation_failed', 'The return date must lie between the allocation date and today.');
  await lockDevice(tx, a.device_master_id);
  const [row] = await tx.query<AllocationRow>(
    `update device_allocations set status = 'returned', returned_ms = $2, deallocation_ms = greatest(allocation_ms + 1, least(deallocation_ms, $2)), updated_by = $3, updated_at = now()
     where device_user_map_id = $1 returning *`,
    [a.device_user_map_id, at, opts.userId],
  );
  return row;
}

export async function cancel(tx: Queryable, a: AllocationRow, userId: number): Promise<void> {
  await lockDevice(tx, a.device_master_id);
  await tx.query(`update device_allocations set status = 'cancelled', updated_by = $2, updated_at = now() where device_user_map_id = $1`, [a.device_user_map_id, userId]);
}

/** The success message of each operation: contains 'success', as the client expects. */
export const SUCCESS: Record<Operation, string> = {
  deploy: 'Device deployed successfully.',
  'force-deploy': 'Device deployed successfully; the earlier booking was cancelled.',
  extend: 'Device allocation changed successfully.',
  'force-extend': 'Device allocation changed successfully; the overlapping booking was cancelled.',
  cancel: 'Device allocation cancelled successfully.',
  return: 'Device returned successfully.',
};

export interface DeployRequestInput {
  patientId: number;
  physicianId: number;
  deviceMasterId?: number | null;
  deviceId?: string | null;
  from: number;
  to: number;
  timezone: string;
  userId: number;
}

/** What a filed past-date deployment request answers. */
export const REQUEST_SENT = 'Your request to deploy the device on the past dates was sent to an admin.';

/**
 * Files a request that an admin deploy a device on past dates (spec 1 §4). Only the practice's
 * own devices: another practice's device is as unknown as a missing one (same 404).
 */
export async function fileDeployRequest(tx: Queryable, r: DeployRequestInput): Promise<number> {
  if (!r.deviceMasterId && !r.deviceId) throw new ApiError(400, 'validation_failed', 'Please select a device');
  const [device] = await tx.query<{ device_master_id: number }>(
    `select d.device_master_id from devices d
     where (d.device_master_id = $1 or d.device_id = $2)
       and (d.physician_id = $3 or exists (select 1 from physician_devices m where m.device_master_id = d.device_master_id and m.physician_id = $3))`,
    [r.deviceMasterId ?? 0, r.deviceId ?? '', r.physicianId],
  );
  if (!device) throw notFound('device');
  if (!(r.to > r.from)) throw new ApiError(400, 'validation_failed', 'The return date must be after the allocation date.');
  // A request that could never be approved is refused now, with the words a deploy would use
  // (the admin's approval checks again, under the locks, since bookings may change meanwhile).
  await checkPatientFree(tx, r.patientId, device.device_master_id, r.from, r.to, r.timezone);
  await clearDevice(tx, device.device_master_id, r.from, r.to, false, r.userId, r.timezone);
  const [row] = await tx.query<{ id: number }>(
    `insert into deploy_requests (patient_id, device_master_id, allocation_ms, deallocation_ms, timezone, requested_by) values ($1, $2, $3, $4, $5, $6) returning id`,
    [r.patientId, device.device_master_id, r.from, r.to, r.timezone, r.userId],
  );
  return row.id;
}
