/** Server shapes of patient management and devices (spec 1 §3), as /api/v1 answers them. */
import type { NewPatientBody } from '../../../contract/patients';

/** A row of the patient list (GET /physician/patients): the server's own type. */
export type { PatientListRow as PatientRow, Disease } from '../../../contract/patients';
/** One patient's details (GET /patient/details): the server's own type. */
export type { PatientInfo } from '../../../contract/patient-details';

export interface AvailableDevice {
  device_id: string;
  device_master_id: number;
  device_allocation_date: number;
  device_deallocation_date: number;
  window_start_time: string | null;
  window_end_time: string | null;
  timezone: string;
}

export interface HistoryEntry {
  device_id: string;
  device_allocation_date: number;
  device_deallocation_date: number;
  nights: number;
  window_start_time: string | null;
  window_end_time: string | null;
  is_device_returned: boolean;
}

/** Mirrors server/devices/allocations.ts DeviceStatus: every value has a key under patientAdmin.dataCenter.status. */
export type DataCenterStatus = 'not_allocated' | 'available' | 'pending' | 'deployed' | 'active' | 'inactive' | 'overdue' | 'archive_ready';

export interface DataCenterDevice {
  device_id: string;
  device_master_id: number;
  status: DataCenterStatus;
  deployed: boolean;
  patient_code: string | null;
  device_allocation_date: number | null;
  device_deallocation_date: number | null;
  last_recording: { night: number; patient_code: string; recording_stop_time: number } | null;
}

export interface DeployRequest {
  id: number;
  status: 'pending' | 'approved' | 'denied';
  allocation_date: number;
  deallocation_date: number;
  /** The requested days as calendar days in the patient's zone (YYYY-MM-DD). */
  allocation_day: string;
  deallocation_day: string;
  created_at: string;
  patient_code: string;
  patient_id: number;
  device_id: string;
  requested_by: string;
}

/**
 * What the wizard sends to /physician/new-patient: the server's schema (contract/patients.ts) with
 * the fields the wizard always fills, and the spec's display fields the server ignores (`bmi`, `diseases`).
 */
export type NewPatientPayload = NewPatientBody &
  Required<Pick<NewPatientBody, 'patient_code' | 'first_name' | 'last_name' | 'email_id' | 'date_of_birth' | 'diseaseIds' | 'comment' | 'country' | 'address' | 'tags' | 'window_start_time' | 'window_end_time'>> & {
    gender: 'M' | 'F' | 'O';
    height: string;
    weight: string;
    vital_parameters: string;
    bmi: number;
    diseases: string;
  };
