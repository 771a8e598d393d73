/** Device selection and device-operation answers (spec 1 §4, §5, §8). */
import type { DeviceOperationBody } from '../../../../contract/devices';

const DEVICE_SEARCH_MAX = 10;

/** The device search box keeps letters and digits only, at most 10 characters. */
export function sanitizeDeviceQuery(text: string): string {
  return text.replace(/[^A-Za-z0-9]/g, '').slice(0, DEVICE_SEARCH_MAX);
}

/** Case-insensitive contains match on the device id. */
export function filterDevices<T extends { device_id: string }>(devices: readonly T[], query: string): T[] {
  const q = sanitizeDeviceQuery(query).toLowerCase();
  return q ? devices.filter((d) => d.device_id.toLowerCase().includes(q)) : [...devices];
}

/** Selecting toggles: one device at most; choosing the selected one deselects it. */
export function toggleDevice(selected: number | null, deviceMasterId: number): number | null {
  return selected === deviceMasterId ? null : deviceMasterId;
}

/** With exactly one available device, it is chosen for the user. */
export function autoSelect<T extends { device_master_id: number }>(devices: readonly T[], selected: number | null): number | null {
  if (selected !== null && devices.some((d) => d.device_master_id === selected)) return selected;
  return devices.length === 1 ? devices[0]!.device_master_id : null;
}

export type DeviceOperation = 'deploy' | 'force-deploy' | 'extend' | 'force-extend' | 'cancel' | 'return';

export type OperationFlags = Pick<DeviceOperationBody, 'allocate_device' | 'change_allocation_times' | 'force_extend' | 'cancel_device' | 'return_device'>;

/** The flags that ask the server for an operation (the server picks the operation from them). */
export function flagsFor(op: DeviceOperation): OperationFlags {
  switch (op) {
    case 'deploy':
      return { allocate_device: true };
    case 'force-deploy':
      return { allocate_device: true, force_extend: true };
    case 'extend':
      return { change_allocation_times: true };
    case 'force-extend':
      return { change_allocation_times: true, force_extend: true };
    case 'cancel':
      return { cancel_device: true };
    case 'return':
      return { return_device: true };
  }
}

/** What the UI does with a device answer. */
export type DeviceOutcome =
  | { kind: 'success' }
  | { kind: 'notMapped' }
  | { kind: 'occupied'; text: string }
  | { kind: 'patientAssigned'; text: string }
  | { kind: 'outOfRange'; text: string }
  | { kind: 'pastDate'; text: string }
  | { kind: 'other'; text: string };

/** The code of a device operation that was done (its message is one of the spec's 'success' sentences). */
export const DEVICE_OPERATION_SUCCESS = 'device_operation_success';

const PAST_DATE_MESSAGE = 'Deployment for the specified date failed. However you can request admin below';

/**
 * Classifies a device-operation answer into spec 1 §8's cases ('success', 'mapped',
 * 'occupied' and the known sentences) by the server's stable code, never by its English
 * wording: the sentences shown stay the spec's.
 */
export function classifyDeviceAnswer(input: { ok: boolean; code?: string; message?: string; errors?: readonly string[] }): DeviceOutcome {
  const message = input.message ?? '';
  const detail = input.errors?.[0] ?? message;
  if (input.ok) return { kind: 'success' };
  switch (input.code) {
    case 'device_not_mapped':
      return { kind: 'notMapped' };
    case 'device_occupied':
      return { kind: 'occupied', text: detail };
    case 'patient_already_assigned':
      return { kind: 'patientAssigned', text: detail };
    case 'dates_out_of_range':
      return { kind: 'outOfRange', text: message };
    case 'past_date':
      return { kind: 'pastDate', text: PAST_DATE_MESSAGE };
    default:
      return { kind: 'other', text: message };
  }
}
