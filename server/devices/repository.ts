import type { Queryable } from '../db/adapter';
import type { AllocationRow } from './allocations';
import type { DeployRequest } from '../../contract/devices';

/** A device as the availability lists name it. */
export interface DeviceRow {
  device_master_id: number;
  device_id: string;
}

/** A deployment request as both request lists read it (before its calendar days are added). */
export type RequestRow = Omit<DeployRequest, 'allocation_day' | 'deallocation_day'>;

/** A pending past-date request as the admin's decision reads it. */
export interface PendingRequest {
  id: number;
  status: string;
  patient_id: number;
  device_master_id: number;
  allocation_ms: number;
  deallocation_ms: number;
  timezone: string;
  requested_by: number;
}

/** Devices of the physician that are free for the whole of [from, to). */
export function availableDevices(db: Queryable, physicianId: number, from: number, to: number) {
  return db.query<DeviceRow & { from_ms: number; to_ms: number }>(
    `select d.device_master_id, d.device_id, m.from_ms, m.to_ms from devices d
     join physician_devices m on m.device_master_id = d.device_master_id and m.physician_id = $1 and m.from_ms <= $2 and m.to_ms >= $3
     where not exists (select 1 from device_allocations a where a.device_master_id = d.device_master_id and a.status = 'booked' and a.allocation_ms < $3 and a.deallocation_ms > $2)
     order by d.device_id`,
    [physicianId, from, to],
  );
}

/** The 1-based indices of the days [from[i], to[i]) on which at least one of the physician's devices is free all day. */
export function freeDayIndices(db: Queryable, physicianId: number, from: number[], to: number[]) {
  return db.query<{ i: number }>(
    `select d.i from unnest($2::bigint[], $3::bigint[]) with ordinality as d(from_ms, to_ms, i)
     where exists (
       select 1 from physician_devices m
       where m.physician_id = $1 and m.from_ms <= d.from_ms and m.to_ms >= d.to_ms
         and not exists (select 1 from device_allocations a where a.device_master_id = m.device_master_id and a.status = 'booked' and a.allocation_ms < d.to_ms and a.deallocation_ms > d.from_ms))
     order by d.i`,
    [physicianId, from, to],
  );
}

const REQUEST_COLUMNS = `select r.id, r.status, r.allocation_ms as allocation_date, r.deallocation_ms as deallocation_date, r.timezone, r.created_at, p.patient_code, p.id as patient_id, d.device_id,
              u.email as requested_by
       from deploy_requests r join patients p on p.id = r.patient_id join devices d on d.device_master_id = r.device_master_id join users u on u.id = r.requested_by`;

/** Every deployment request, pending ones first, newest first. */
export function allDeployRequests(db: Queryable) {
  return db.query<RequestRow>(`${REQUEST_COLUMNS}
       order by r.status = 'pending' desc, r.created_at desc`);
}

/** A patient's latest 50 deployment requests, newest first. */
export function patientDeployRequests(db: Queryable, patientId: number) {
  return db.query<RequestRow>(`${REQUEST_COLUMNS}
         where r.patient_id = $1 order by r.created_at desc limit 50`, [patientId]);
}

/** A deployment request, locked for its decision. */
export async function lockDeployRequest(tx: Queryable, id: number): Promise<PendingRequest | undefined> {
  const [r] = await tx.query<PendingRequest>('select * from deploy_requests where id = $1 for update', [id]);
  return r;
}

/** The physician a patient belongs to. */
export async function physicianOfPatient(tx: Queryable, patientId: number): Promise<number> {
  const [p] = await tx.query<{ physician_id: number }>('select physician_id from patients where id = $1', [patientId]);
  return p.physician_id;
}

/** Records an admin's decision on a request. */
export async function decideDeployRequest(tx: Queryable, id: number, status: 'approved' | 'denied', adminId: number, note: string): Promise<void> {
  await tx.query(`update deploy_requests set status = $2, decided_by = $3, decided_at = now(), decision_note = $4 where id = $1`, [id, status, adminId, note]);
}

/** A patient's returned allocations, newest first. */
export function returnedAllocations(db: Queryable, patientId: number) {
  return db.query<AllocationRow & { device_id: string }>(
    `select a.*, d.device_id from device_allocations a join devices d on d.device_master_id = a.device_master_id where a.patient_id = $1 and a.status = 'returned' order by a.allocation_ms desc`,
    [patientId],
  );
}

/** The physician's booked allocations of a device that have not begun yet. */
export function futureAllocations(db: Queryable, physicianId: number, deviceId: string) {
  return db.query<AllocationRow & { patient_code: string }>(
    `select a.*, p.patient_code from device_allocations a join devices d on d.device_master_id = a.device_master_id join patients p on p.id = a.patient_id
       where d.device_id = $1 and a.physician_id = $2 and a.status = 'booked' and a.allocation_ms > $3 order by a.allocation_ms`,
    [deviceId, physicianId, Date.now()],
  );
}
