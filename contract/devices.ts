/** Request and answer schemas of device allocation (spec 1 §7, §8): availability, operations, past-date requests, history, future bookings, the data centre. */
import { Type, type Static } from '@sinclair/typebox';
import { deviceId, Enum, instantMs, Nullable, StringEnum } from './common';

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

// Answers. Allocation instants are whole ms (bigint columns); times of day are text columns.
const Str = Type.String();
const Int = Type.Integer();
const When = Type.String();

/** A device free for the asked range (GET /physician/available-devices), with the physician's window and zone. */
export const AvailableDevice = Type.Object({
  device_id: Str,
  device_master_id: Int,
  /** Never booked yet: always null (the spec's field). */
  device_user_map_id: Type.Null(),
  device_allocation_date: instantMs,
  device_deallocation_date: instantMs,
  window_start_time: Str,
  window_end_time: Str,
  timezone: Str,
});
export type AvailableDevice = Static<typeof AvailableDevice>;

/** GET /physician/available-devices-dates: the local days (YYYY-MM-DD) with a device free all day. */
export const AvailableDatesAnswer = Type.Object({ calendar_available_dates: Type.Array(Str) });
export type AvailableDatesAnswer = Static<typeof AvailableDatesAnswer>;

/** Which operation a device-operation call did (server/devices/allocations.ts operationOf). */
export const DeviceOperationKind = StringEnum(['deploy', 'force-deploy', 'extend', 'force-extend', 'cancel', 'return']);

/** An allocation (a device_allocations row) as the operations and the future bookings answer it. */
export const Allocation = Type.Object({
  device_user_map_id: Int,
  device_master_id: Int,
  patient_id: Int,
  physician_id: Int,
  allocation_ms: instantMs,
  deallocation_ms: instantMs,
  window_start_time: Str,
  window_end_time: Str,
  timezone: Str,
  status: StringEnum(['booked', 'returned', 'cancelled']),
  returned_ms: Nullable(instantMs),
  created_by: Int,
  created_at: When,
  updated_by: Nullable(Int),
  updated_at: When,
});
export type Allocation = Static<typeof Allocation>;

/** POST /device/device-operation: what was done and the allocation it left (null after a cancel). */
export const DeviceOperationAnswer = Type.Object({ operation: DeviceOperationKind, allocation: Nullable(Allocation) });
export type DeviceOperationAnswer = Static<typeof DeviceOperationAnswer>;

/** A returned allocation of the patient (POST /device/device-history). */
export const HistoryEntry = Type.Object({
  device_id: Str,
  device_allocation_date: instantMs,
  device_deallocation_date: instantMs,
  nights: Int,
  window_start_time: Str,
  window_end_time: Str,
  is_device_returned: Type.Boolean(),
});
export type HistoryEntry = Static<typeof HistoryEntry>;

export const HistoryAnswer = Type.Object({ history: Type.Array(HistoryEntry) });

/** POST /device/deploy-device-in-past-date: the request filed. */
export const DeployRequestFiled = Type.Object({ request_id: Int });

/** A past-date deployment request, as the admin's list and the patient's both show it. */
export const DeployRequest = Type.Object({
  id: Int,
  status: StringEnum(['pending', 'approved', 'denied']),
  allocation_date: instantMs,
  deallocation_date: instantMs,
  /** The requested days as calendar days in the patient's zone (YYYY-MM-DD). */
  allocation_day: Str,
  deallocation_day: Str,
  timezone: Str,
  created_at: When,
  patient_code: Str,
  patient_id: Int,
  device_id: Str,
  /** The requesting physician's e-mail. */
  requested_by: Str,
});
export type DeployRequest = Static<typeof DeployRequest>;

export const DeployRequestsAnswer = Type.Object({ requests: Type.Array(DeployRequest) });

/** POST /device/future-allocations: the device's bookings that have not begun, with their patients. */
export const FutureAllocation = Type.Composite([Allocation, Type.Object({ patient_code: Str })]);
export type FutureAllocation = Static<typeof FutureAllocation>;

export const FutureAllocationsAnswer = Type.Object({ allocations: Type.Array(FutureAllocation) });

/** POST /device/cancel-future-allocations: how many were cancelled. */
export const CancelledAnswer = Type.Object({ cancelled: Int });

/** Device status (spec 1 §3): every value has a key under patientAdmin.dataCenter.status. */
export const DataCenterStatus = StringEnum(['not_allocated', 'available', 'pending', 'deployed', 'active', 'inactive', 'overdue', 'archive_ready']);
export type DataCenterStatus = Static<typeof DataCenterStatus>;

/** A device of the practice as the data centre lists it (GET /datacenter/getAllRecordingDevicesOfPatients). */
export const DataCenterDevice = Type.Object({
  device_id: Str,
  device_master_id: Int,
  status: DataCenterStatus,
  deployed: Type.Boolean(),
  patient_code: Nullable(Str),
  device_allocation_date: Nullable(instantMs),
  device_deallocation_date: Nullable(instantMs),
  /** The device's last recording in the practice (night key in Unix seconds, its end in ms); null when none. */
  last_recording: Nullable(Type.Object({ night: Int, patient_code: Str, recording_stop_time: instantMs })),
});
export type DataCenterDevice = Static<typeof DataCenterDevice>;

export const DataCenterAnswer = Type.Object({ devices: Type.Array(DataCenterDevice) });
