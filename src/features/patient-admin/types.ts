/** Server shapes of patient management and devices (spec 1 §3), as /api/v1 answers them. */
import type { NewPatientBody } from '../../../contract/patients';

/** A row of the patient list (GET /physician/patients): the server's own type. */
export type { PatientListRow as PatientRow, Disease } from '../../../contract/patients';
/** One patient's details (GET /patient/details): the server's own type. */
export type { PatientInfo } from '../../../contract/patient-details';

// The device answers' shapes are the contract's (the schemas the server answers with).
export type { AvailableDevice, DataCenterStatus } from '../../../contract/devices';

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
