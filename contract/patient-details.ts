/** Request and answer schemas of GET /patient/details. */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './common';

/** ?patient_id of the patient whose patient_info is read. */
export const PatientDetailsQuery = Type.Object({ patient_id: Type.Integer({ minimum: 1 }) });

const Str = Type.String();
const Int = Type.Integer();

/**
 * One patient's fields (spec 1 §3), conditions, and booked allocation (current or next; its
 * fields null without one). Height, weight and BMI are null while not known, never 0 for it.
 */
export const PatientInfo = Type.Object({
  patient_id: Int,
  patient_code: Str,
  first_name: Str,
  last_name: Str,
  email_id: Str,
  gender: Nullable(Str),
  /** YYYY-MM-DD. */
  date_of_birth: Nullable(Str),
  at_risk: Nullable(Int),
  height: Nullable(Type.Number()),
  weight: Nullable(Type.Number()),
  bmi: Nullable(Type.Number()),
  /** The vital parameters' JSON as text ("null" when none are stored). */
  vital_parameters: Str,
  comment: Str,
  country: Nullable(Str),
  address: Str,
  tags: Str,
  active_flag: Type.Boolean(),
  created_by: Int,
  /** When the patient was added (ISO); trend ranges start no earlier. */
  createdAt: Str,
  physician_id: Int,
  phys_device_return_date: Nullable(Str),
  /** The version read; a save sends it back, and a save based on an older one is refused (409). */
  version: Int,
  /** Condition names and ids, comma-separated (spec 2 §3 Disease); '' without any. */
  diseases: Str,
  diseaseIds: Str,
  /** The booked device, else the device of the patient's latest night. */
  device_id: Nullable(Str),
  device_master_id: Nullable(Int),
  device_user_map_id: Nullable(Int),
  device_allocation_date: Nullable(Type.Number()),
  device_deallocation_date: Nullable(Type.Number()),
  window_start_time: Nullable(Str),
  window_end_time: Nullable(Str),
  /** The time zone of the patient's booked device, when one is booked. */
  timezone: Nullable(Str),
  is_sample_patient: Type.Boolean(),
});
export type PatientInfo = Static<typeof PatientInfo>;

export const PatientDetailsAnswer = Type.Object({ patient_info: PatientInfo });
