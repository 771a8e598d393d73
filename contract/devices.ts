/** Request schemas of device allocation (spec 1 §7, §8): availability, operations, past-date requests, history, future bookings. */
import { Type, type Static } from '@sinclair/typebox';
import { deviceId, Enum, instantMs } from './common';

// Allocation instants are whole ms in bigint columns.
const ms = instantMs;

/** The device screening answers that cleared an allocation (spec 1 §4): question → answer. */
export const screeningAnswers = Type.Unsafe<Record<string, string>>({ type: 'object', maxProperties: 10, additionalProperties: { type: 'string', maxLength: 10 } });

/** GET /physician/available-devices: the devices free for all of [allocation_time, deallocation_time). */
export const AvailableDevicesQuery = Type.Object({ allocation_time: ms, deallocation_time: ms });

/** GET /physician/available-devices-dates: the IANA zone whose days are listed (else the physician's country's). */
export const AvailableDatesQuery = Type.Object({ timezone: Type.Optional(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_+\\-]+(/[A-Za-z0-9_+\\-]+)*$' })) });

/**
 * POST /device/device-operation, the fields its schema checks: the patient; for deploy and extend
 * the device and dates, for return the date. Fields it does not list are accepted.
 */
export const DeviceOperationBody = Type.Object({
  patient_id: Type.Integer(),
  device_master_id: Type.Optional(Type.Integer()),
  device_allocation_date: Type.Optional(ms),
  device_deallocation_date: Type.Optional(ms),
  return_date: Type.Optional(ms),
  screening_answers: Type.Optional(screeningAnswers),
  /** The country whose timezone a deploy uses (else the patient's): a name or code; anything else was a 500. */
  country: Type.Optional(Type.Union([Type.String({ maxLength: 100 }), Type.Null()])),
});

/**
 * The fields the operation also reads, which its schema has never listed: any JSON value gets
 * through (typed here as the client sends them). The flags say which operation
 * (server/devices/allocations.ts operationOf, by their truth: `allocate_device: "yes"` deploys);
 * deploy checks the window times. Listing them with types would refuse bodies accepted today.
 */
interface UncheckedOperationFields {
  allocate_device?: boolean;
  change_allocation_times?: boolean;
  force_extend?: boolean;
  cancel_device?: boolean;
  return_device?: boolean;
  confirm_device_present?: boolean;
  window_start_time?: string;
  window_end_time?: string;
}

/** The whole body of POST /device/device-operation: the checked fields and the unchecked ones. */
export type DeviceOperationBody = Static<typeof DeviceOperationBody> & UncheckedOperationFields;

/** POST /device/deploy-device-in-past-date: a request to an admin (a device by id or serial). */
export const DeployInPastBody = Type.Object({
  patient_id: Type.Integer(),
  device_master_id: Type.Optional(Type.Integer()),
  device_id: Type.Optional(Type.String()),
  allocation_date: ms,
  deallocation_date: ms,
});
export type DeployInPastBody = Static<typeof DeployInPastBody>;

/** GET /device/deploy-requests: one patient's requests. */
export const PatientRequestsQuery = Type.Object({ patient_id: Type.Integer({ minimum: 1 }) });

/** POST /admin/deploy-requests/:id/:decision (the path names both). */
export const DeployDecisionParams = Type.Object({ id: Type.Integer(), decision: Enum(['approve', 'deny']) });
export type DeployDecisionParams = Static<typeof DeployDecisionParams>;

/** POST /device/device-history: the patient's returned allocations. */
export const DeviceHistoryBody = Type.Object({ patient_id: Type.Integer() });
export type DeviceHistoryBody = Static<typeof DeviceHistoryBody>;

/** POST /device/future-allocations and /device/cancel-future-allocations: the device's serial. */
export const DeviceSerialBody = Type.Object({ device_id: deviceId });
export type DeviceSerialBody = Static<typeof DeviceSerialBody>;
