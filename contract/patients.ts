/** Request and answer schemas of patient management (spec 1 §7): the list, add, edit, status, conditions, password. */
import { Type, type Static } from '@sinclair/typebox';
import { deviceId, id, INT32_MAX, NUMBER_LIMIT, patientFields, Enum, Nullable, Types } from './common';
import { PatientSummary } from './answers';
import { screeningAnswers } from './devices';

const msOrNull = Types<number | null>(['integer', 'null'], { minimum: -NUMBER_LIMIT, maximum: NUMBER_LIMIT });

/** The patient form's fields, each optional (the edit calls send those changed). */
export const PatientFields = Type.Object({ ...patientFields, version: Type.Optional(Type.Integer({ minimum: 1, maximum: INT32_MAX })) });
export type PatientFields = Static<typeof PatientFields>;

/** POST /physician/new-patient: the patient, and a device to deploy or a past-date request. */
export const NewPatientBody = Type.Object({
  ...patientFields,
  device_allocation_date: Type.Optional(msOrNull),
  device_deallocation_date: Type.Optional(msOrNull),
  device_master_id: Type.Optional(Types<number | null>(['integer', 'null'], { minimum: 1, maximum: INT32_MAX })),
  device_id: Type.Optional(Types<string | null>(['string', 'null'], { maxLength: 40 })),
  window_start_time: Type.Optional(Type.String({ maxLength: 20 })),
  window_end_time: Type.Optional(Type.String({ maxLength: 20 })),
  force_deploy: Type.Optional(Type.Boolean()),
  docter_id: Type.Optional(id),
  // The device screening answers that cleared the allocation (spec 1 §4), kept as the patient's first questionnaire.
  screening_answers: Type.Optional(screeningAnswers),
  // Instead of a device: ask an admin to deploy one on past dates (spec 1 §4), filed with the patient in one transaction.
  past_date_request: Type.Optional(
    Type.Object(
      { device_master_id: Type.Optional(id), device_id: Type.Optional(deviceId), allocation_date: Type.Integer({ minimum: -NUMBER_LIMIT, maximum: NUMBER_LIMIT }), deallocation_date: Type.Integer({ minimum: -NUMBER_LIMIT, maximum: NUMBER_LIMIT }) },
      { additionalProperties: false },
    ),
  ),
});
export type NewPatientBody = Static<typeof NewPatientBody>;

/** POST /physician/update-patient-info. */
export const UpdatePatientInfoBody = Type.Object({ patient_id: id, ...PatientFields.properties });
export type UpdatePatientInfoBody = Static<typeof UpdatePatientInfoBody>;

/** POST /physician/update-patient-details/id=:id (the path names the patient, so `id` is always there). */
export const PatientIdParams = Type.Object({ id });

/** POST /patient/disease-operation. */
export const DiseaseOperationBody = Type.Object({ patient_id: Type.Integer(), type: Enum(['update', 'delete']), disease_id: Type.Integer() });
export type DiseaseOperationBody = Static<typeof DiseaseOperationBody>;

/** POST /physician/reset-patient-password: the new password's MD5, as the spec's client sends it. */
export const ResetPatientPasswordBody = Type.Object({ patient_id: Type.Integer(), password: Type.String({ pattern: '^[0-9a-fA-F]{32}$' }) });

/** POST /physician/update-patient-status. */
export const PatientStatusBody = Type.Object({
  patient_id: Type.Integer(),
  archive: Type.Optional(Type.Boolean()),
  confirm_device_returned: Type.Optional(Type.Boolean()),
  active_flag: Type.Optional(Type.Boolean()),
});
export type PatientStatusBody = Static<typeof PatientStatusBody>;

/** GET /physician/patients: the archive instead of the patients under care; user_id is accepted and not read. */
export const PatientListQuery = Type.Object({ archive: Type.Optional(Type.Boolean()), user_id: Type.Optional(Type.Integer()) });
export type PatientListQuery = Static<typeof PatientListQuery>;

// ---- Answers ----

const Str = Type.String();
const Int = Type.Integer();
/** An instant in ms (bigint columns). */
const Ms = Type.Number();

/**
 * One row of GET /physician/patients (current patients, or the archive): the patient, their
 * booked allocation (current or next, its fields null without one) and their nights.
 */
export const PatientListRow = Type.Object({
  ...PatientSummary.properties,
  email_id: Str,
  created_by: Int,
  active_flag: Type.Boolean(),
  unread_data_nights: Int,
  /** When the device came back and the patient moved to the archive (ISO), null while under care. */
  phys_device_return_date: Nullable(Str),
  country: Nullable(Str),
  /** At Risk and under care (server/patients/flagged.ts); null while at_risk is not known. */
  flagged: Nullable(Type.Boolean()),
  device_master_id: Nullable(Int),
  device_user_map_id: Nullable(Int),
  device_allocation_date: Nullable(Ms),
  device_deallocation_date: Nullable(Ms),
  window_start_time: Nullable(Str),
  window_end_time: Nullable(Str),
  timezone: Nullable(Str),
  /** The patient's latest night key (Unix seconds), null without nights. */
  last_night: Nullable(Type.Number()),
  recorded_last_night: Type.Boolean(),
  /** The device came back (or the booking ran out) and nothing is booked. */
  archive_ready: Type.Boolean(),
});
export type PatientListRow = Static<typeof PatientListRow>;

export const PatientListAnswer = Type.Object({ patients: Type.Array(PatientListRow) });

/** GET /physician/patients/unseen-recordings: the practice's nights that ended in the last day. */
export const UnseenRecording = Type.Object({ patient_id: Int, patient_code: Str, night: Type.Number(), device_id: Nullable(Str), recording_start_time: Ms });
export const UnseenRecordingsAnswer = Type.Object({ recordings: Type.Array(UnseenRecording) });

/** A condition a patient may have. */
export const Disease = Type.Object({ disease_id: Int, disease_description: Str, disease_shortname: Str });
export type Disease = Static<typeof Disease>;

/** POST /patient/get-disease-list. */
export const DiseasesAnswer = Type.Object({ diseases: Type.Array(Disease) });

/** GET /patient/generate-code: a free patient code (twice, under the spec's two names). */
export const GeneratedCode = Type.Object({ patient_code: Str, generated_patient_id: Str });

/** The allocation a new patient's device was deployed with: the booking's row as stored. */
export const NewPatientAllocation = Type.Object({
  device_user_map_id: Int,
  device_master_id: Int,
  patient_id: Int,
  physician_id: Int,
  allocation_ms: Ms,
  deallocation_ms: Ms,
  window_start_time: Str,
  window_end_time: Str,
  timezone: Str,
  status: Enum(['booked', 'returned', 'cancelled']),
  returned_ms: Nullable(Ms),
  created_by: Int,
  created_at: Str,
  updated_by: Nullable(Int),
  updated_at: Str,
});
export type NewPatientAllocation = Static<typeof NewPatientAllocation>;

/** POST /physician/new-patient: the patient, their allocation if a device was deployed, the past-date request if one was filed. */
export const NewPatientAnswer = Type.Object({ patient_id: Int, allocation: Nullable(NewPatientAllocation), request_id: Type.Optional(Int) });

/** The edit calls: the patient's version after the save (the next save sends it back). */
export const PatientVersion = Type.Object({ version: Int });

/** POST /patient/disease-operation: the patient's conditions now, comma-separated ids. */
export const DiseaseIds = Type.Object({ diseaseIds: Str });
