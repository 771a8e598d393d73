// Shapes of the patient-detail calls (spec 2 §7 and the server's /patient routes).

export interface PatientInfo {
  patient_id: number;
  patient_code: string;
  first_name: string | null;
  last_name: string | null;
  gender: string | null;
  date_of_birth: string | null;
  height: number | null;
  weight: number | null;
  bmi: number | null;
  vital_parameters: string | null;
  diseases: string;
  /** Condition ids, comma-separated (spec 2 §3 Disease). */
  diseaseIds?: string;
  device_id: string | null;
  /** The time zone of the patient's booked device, when one is booked. */
  timezone?: string | null;
  created_by: number | null;
  /** When the patient's account was created (ISO); trend ranges start no earlier. */
  createdAt?: string | null;
  is_sample_patient: boolean;
}

/** A night of the patient's list, as GET /patient/available-nights answers it (the contract's schema). */
export type { NightInfo } from '../../../contract/recordings';

/** GET /physician/preferences, as the contract has it. */
export type { PhysicianPreferences } from '../../../contract/preferences';
