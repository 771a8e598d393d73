import { ApiError, notFound } from '../errors';
import type { Db, Queryable } from '../db/adapter';
import type { UserRow } from '../auth/users';
import type { DeviceOperationBody } from '../../contract/devices';
import type { AllocationRow, Operation } from './allocations';
import { checkScreening } from '../patients/questionnaires';
import { saveScreening } from '../patients/questionnaires-repository';
import { cancel, currentAllocation, deploy, extend, returnDevice } from './operations';
import { decideDeployRequest, lockDeployRequest, physicianOfPatient } from './repository';

/** The patient a device operation is for, as visiblePatient found it. */
interface OperationPatient {
  id: number;
  physician_id: number;
}

/** Deploys (or force-deploys) a device, keeping the screening answers that cleared it (spec 1 §4). */
async function deployWithScreening(tx: Queryable, user: UserRow, patient: OperationPatient, b: DeviceOperationBody, timezone: string, force: boolean) {
  if (!b.device_master_id || b.device_allocation_date === undefined || b.device_deallocation_date === undefined) throw new ApiError(400, 'validation_failed', 'Choose a device and its dates.');
  const screening = b.screening_answers ? checkScreening(b.screening_answers) : null;
  const allocation = await deploy(tx, { physicianId: patient.physician_id, userId: user.id, patientId: patient.id, deviceMasterId: b.device_master_id, from: b.device_allocation_date, to: b.device_deallocation_date, timezone, windowStart: b.window_start_time, windowEnd: b.window_end_time, force });
  if (screening) await saveScreening(tx, patient.id, allocation.device_user_map_id, screening, user.id);
  return allocation;
}

/** Runs one device operation in one transaction; the allocation it leaves, or null after a cancel. */
export function runDeviceOperation(db: Db, user: UserRow, patient: OperationPatient, op: Operation, b: DeviceOperationBody, timezone: string): Promise<AllocationRow | null> {
  return db.transaction(async (tx): Promise<AllocationRow | null> => {
    if (op === 'deploy' || op === 'force-deploy') return deployWithScreening(tx, user, patient, b, timezone, op === 'force-deploy');
    const current = await currentAllocation(tx, patient.id);
    if (!current) throw notFound('device_allocation');
    if (op === 'cancel') {
      await cancel(tx, current, user.id);
      return null;
    }
    if (op === 'return') return returnDevice(tx, current, { confirmPresent: b.confirm_device_present === true, asOf: b.return_date, userId: user.id });
    return extend(tx, current, b.device_allocation_date ?? current.allocation_ms, b.device_deallocation_date ?? current.deallocation_ms, op === 'force-extend', user.id);
  });
}

/** An admin approves (deploying the device, past dates allowed) or denies a pending past-date request. */
export function decideRequest(db: Db, admin: UserRow, id: number, decision: 'approve' | 'deny', note: string): Promise<'approved' | 'denied'> {
  return db.transaction(async (tx) => {
    const r = await lockDeployRequest(tx, id);
    if (!r) throw notFound('request');
    if (r.status !== 'pending') throw new ApiError(409, 'request_decided', `This request was already ${r.status}.`);
    if (decision === 'approve') {
      const physicianId = await physicianOfPatient(tx, r.patient_id);
      await deploy(tx, { physicianId, userId: admin.id, patientId: r.patient_id, deviceMasterId: r.device_master_id, from: r.allocation_ms, to: r.deallocation_ms, timezone: r.timezone, force: false, allowPast: true });
    }
    const status = decision === 'approve' ? 'approved' : 'denied';
    await decideDeployRequest(tx, r.id, status, admin.id, note);
    return status;
  });
}
