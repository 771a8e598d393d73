import type { Queryable } from '../db/adapter';
import { actingPhysicianId, type UserRow } from '../auth/users';
import { notFound } from '../errors';
import { findRecording, type RecordingRow } from '../recordings/store';

export interface PatientRef {
  id: number;
  patient_code: string;
  physician_id: number;
  country: string | null;
}

/**
 * The patient if the user may see it: their own, or their physician's for annotators and
 * secondary users. Anything else is 404, not 403, so ids of others' patients leak nothing.
 */
export async function visiblePatient(db: Queryable, user: UserRow, patientId: number): Promise<PatientRef> {
  const [row] = await db.query<PatientRef>('select id, patient_code, physician_id, country from patients where id = $1 and physician_id = $2', [
    patientId,
    actingPhysicianId(user),
  ]);
  if (!row || user.role === 'admin') throw notFound('Patient');
  return row;
}

/** A patient of the user's practice by code (CLI and imports). */
export async function patientByCode(db: Queryable, code: string): Promise<PatientRef | null> {
  const [row] = await db.query<PatientRef>('select id, patient_code, physician_id, country from patients where patient_code = $1', [code]);
  return row ?? null;
}

/** A recording of a patient the user may see (404 for anything else). */
export async function visibleRecording(db: Queryable, user: UserRow, patientId: number, recordingId: number): Promise<{ patient: PatientRef; recording: RecordingRow }> {
  const patient = await visiblePatient(db, user, patientId);
  const recording = await findRecording(db, patient.id, recordingId);
  if (!recording) throw notFound('Recording');
  return { patient, recording };
}
