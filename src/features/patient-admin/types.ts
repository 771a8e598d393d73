/** Server shapes of patient management and devices (spec 1 §3), as /api/v1 answers them. */
import type { NewPatientBody } from '../../../contract/patients';

export interface PatientRow {
  patient_id: number;
  patient_code: string;
  first_name: string | null;
  last_name: string | null;
  email_id: string | null;
  gender: string | null;
  date_of_birth: string | null;
  at_risk: number | null;
  active_flag: boolean | null;
  unread_data_nights: number | null;
  phys_device_return_date: string | null;
  country: string | null;
  device_id: string | null;
  device_master_id: number | null;
  device_user_map_id: number | null;
  device_allocation_date: number | string | null;
  device_deallocation_date: number | string | null;
  window_start_time: string | null;
  window_end_time: string | null;
  timezone: string | null;
  last_night: number | null;
  recorded_last_night: boolean | null;
  created_by?: number | null;
}

export interface PatientInfo extends Omit<PatientRow, 'device_master_id' | 'device_user_map_id' | 'device_allocation_date' | 'device_deallocation_date' | 'window_start_time' | 'window_end_time' | 'timezone' | 'last_night' | 'recorded_last_night' | 'unread_data_nights'> {
  height: number | null;
  weight: number | null;
  bmi: number | null;
  vital_parameters: string | null;
  diseases: string;
  diseaseIds: string;
  comment: string | null;
  address: string | null;
  tags: string | null;
  is_sample_patient?: boolean;
  /** The version read; a save sends it back, and a save based on an older one is refused (409). */
  version?: number;
}

export interface Disease {
  disease_id: number;
  disease_description: string;
  disease_shortname: string | null;
}

// The device answers' shapes are the contract's (the schemas the server answers with).
export type { AvailableDevice, DataCenterDevice, DataCenterStatus, DeployRequest, HistoryEntry } from '../../../contract/devices';

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
