/** Shapes of the API answers the browser reads (user, countries, patients, one-time codes). */

export interface Envelope<T> {
  code?: string;
  message?: string;
  data?: T;
}

export interface UserDetails {
  user_id: number | string;
  country: string | null;
  email: string;
  first_name: string;
  last_name: string;
  window_start_time: string | null;
  window_end_time: string | null;
  is_annotator: boolean;
  membership_type: 'paid' | 'non-paid';
  is_admin?: boolean;
  isSecondaryUser?: boolean;
  isTernaryUser?: boolean;
}

export interface Country {
  code: string;
  name: string;
  timezone: string;
}

export interface PatientSummary {
  patient_id: number | string;
  patient_code: string;
  first_name: string | null;
  last_name: string | null;
  gender: string | null;
  date_of_birth: string | number | null;
  device_id: string | null;
  at_risk: number | null;
}

export interface VerifiedOtp {
  user_id: number | string;
  token: string;
}
