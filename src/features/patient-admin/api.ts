import { useQuery } from '@tanstack/react-query';
import type { DeployInPastBody, DeviceOperationBody } from '../../../contract/devices';
import type { DiseaseOperationBody, PatientFields } from '../../../contract/patients';
import { call } from '../../api/client';
import type { NewPatientPayload } from './types';

/** One function per server route of patient management and devices (spec 1 §7). */
export const adminApi = {
  patients: (archive = false) => call('GET /physician/patients', { query: archive ? { archive: true } : {} }),
  details: (id: number) => call('GET /patient/details', { query: { patient_id: id } }),
  generateCode: () => call('GET /patient/generate-code'),
  diseases: () => call('POST /patient/get-disease-list'),
  newPatient: (payload: NewPatientPayload) => call('POST /physician/new-patient', { body: payload }),
  updateInfo: (patient_id: number, fields: PatientFields) => call('POST /physician/update-patient-info', { body: { patient_id, ...fields } }),
  // docter_id is the spec's; the server accepts it and goes by the patient's practice.
  diseaseOperation: (patient_id: number, type: 'update' | 'delete', disease_id: number, docter_id: number | null) => {
    const body: DiseaseOperationBody & { docter_id: number | null } = { patient_id, type, disease_id, docter_id };
    return call('POST /patient/disease-operation', { body });
  },
  resetPassword: (patient_id: number, password: string) => call('POST /physician/reset-patient-password', { body: { patient_id, password } }),
  archive: (patient_id: number) => call('POST /physician/update-patient-status', { body: { patient_id, archive: true, confirm_device_returned: true } }),
  availableDates: (timezone: string) => call('GET /physician/available-devices-dates', { query: { timezone } }),
  availableDevices: (from: number, to: number) => call('GET /physician/available-devices', { query: { allocation_time: from, deallocation_time: to } }),
  deviceOperation: (body: DeviceOperationBody) => call('POST /device/device-operation', { body }),
  // patient_code is the spec's; the server accepts it and goes by patient_id.
  deployInPast: (body: DeployInPastBody & { patient_code: string }) => call('POST /device/deploy-device-in-past-date', { body }),
  history: (patient_id: number) => call('POST /device/device-history', { body: { patient_id } }),
  futureAllocations: (device_id: string) => call('POST /device/future-allocations', { body: { device_id } }),
  cancelFutureAllocations: (device_id: string) => call('POST /device/cancel-future-allocations', { body: { device_id } }),
  dataCenter: () => call('GET /datacenter/getAllRecordingDevicesOfPatients'),
  deployRequests: () => call('GET /admin/deploy-requests'),
  patientRequests: (patient_id: number) => call('GET /device/deploy-requests', { query: { patient_id } }),
  // The route takes an optional note in its body; the screen sends none.
  decideRequest: (id: number, decision: 'approve' | 'deny') => call('POST /admin/deploy-requests/:id/:decision', { params: { id, decision } }),
};

export const adminKeys = {
  patients: ['physician', 'patients'] as const,
  archive: ['physician', 'patients', 'archive'] as const,
  details: (id: number) => ['patient', 'details', id] as const,
  diseases: ['diseases'] as const,
  history: (id: number) => ['device', 'history', id] as const,
  available: (from: number, to: number) => ['devices', 'available', from, to] as const,
  availableDates: (zone: string) => ['devices', 'available-dates', zone] as const,
  dataCenter: ['datacenter', 'devices'] as const,
  deployRequests: ['admin', 'deploy-requests'] as const,
  patientRequests: (id: number) => ['device', 'deploy-requests', id] as const,
};

/** Current patients (archive = false) or the past-patients archive. */
export function usePatientRows(archive = false) {
  return useQuery({
    queryKey: archive ? adminKeys.archive : adminKeys.patients,
    queryFn: async () => (await adminApi.patients(archive)).data.patients,
  });
}

export function usePatientDetails(id: number) {
  return useQuery({ queryKey: adminKeys.details(id), queryFn: async () => (await adminApi.details(id)).data.patient_info });
}

export function useDiseases() {
  return useQuery({ queryKey: adminKeys.diseases, queryFn: async () => (await adminApi.diseases()).data.diseases, staleTime: Infinity });
}

export function useDeviceHistory(id: number, enabled = true) {
  return useQuery({ queryKey: adminKeys.history(id), queryFn: async () => (await adminApi.history(id)).data.history, enabled });
}

/** Devices free for [from, to); refetched whenever the dates change. */
/** The next 60 days (local days of `zone`) on which at least one of the physician's devices is free. */
export function useAvailableDates(zone: string, enabled: boolean) {
  return useQuery({
    queryKey: adminKeys.availableDates(zone),
    queryFn: async () => (await adminApi.availableDates(zone)).data.calendar_available_dates,
    enabled,
    staleTime: 30_000,
  });
}

export function useAvailableDevices(from: number, to: number, enabled = true) {
  return useQuery({
    queryKey: adminKeys.available(from, to),
    queryFn: async () => (await adminApi.availableDevices(from, to)).data,
    enabled: enabled && to > from,
    staleTime: 0,
  });
}
