/** Request schema of adding a night to a sample patient (spec 2 §7 "POST /patient/samplePatient"). */
import { Type, type Static } from '@sinclair/typebox';
import { id, Strict } from './common';

/** The source night, and the sample to add it to: an existing one (`sample_patient_id`) or a new one (`name`). */
export const AddSampleBody = Strict({ patient_id: id, recording_id: id, sample_patient_id: Type.Optional(id), name: Type.Optional(Type.String({ maxLength: 400 })) });
export type AddSampleBody = Static<typeof AddSampleBody>;

/** A sample patient as the list and the add call answer it: a name and its nights, nothing of the source. */
export interface SampleListRow {
  patient_id: number;
  patient_code: string;
  name: string;
  created_by: number;
  createdAt: string;
  night_count: number;
  /** Night keys (Unix seconds), oldest first. */
  nights: number[];
}
