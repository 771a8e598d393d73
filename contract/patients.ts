/** Request schemas of patient management (spec 1 §7): add, edit, status, conditions, password. */
import { Type, type Static } from '@sinclair/typebox';
import { deviceId, id, INT32_MAX, NUMBER_LIMIT, patientFields, Enum, Types } from './common';
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
