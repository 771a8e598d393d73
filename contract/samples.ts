/** Sample patients (spec 2 §7 "POST /patient/samplePatient"): the request adding a night to one, and the answers of the list and the add call. */
import { Type, type Static } from '@sinclair/typebox';
import { id, Strict } from './common';

/** The source night, and the sample to add it to: an existing one (`sample_patient_id`) or a new one (`name`). */
export const AddSampleBody = Strict({ patient_id: id, recording_id: id, sample_patient_id: Type.Optional(id), name: Type.Optional(Type.String({ maxLength: 400 })) });
export type AddSampleBody = Static<typeof AddSampleBody>;

/** A sample patient as the list and the add call answer it: a name and its nights, nothing of the source. */
export const SampleListRow = Type.Object({
  patient_id: Type.Integer(),
  patient_code: Type.String(),
  name: Type.String(),
  created_by: Type.Integer(),
  /** ISO instant. */
  createdAt: Type.String(),
  night_count: Type.Integer(),
  /** Night keys (Unix seconds), oldest first. */
  nights: Type.Array(Type.Number()),
});
export type SampleListRow = Static<typeof SampleListRow>;

/** GET /patient/samplePatients: the practice's sample patients, newest first. */
export const SamplePatientsAnswer = Type.Object({ sample_patients: Type.Array(SampleListRow) });

/** POST /patient/samplePatient: the sample patient with the night added, the copy's recording id and its night key. */
export const AddSampleAnswer = Type.Object({ sample_patient: SampleListRow, recording_id: Type.Integer(), night: Type.Number() });
