import type { Queryable } from '../db/adapter';
import { actingPhysicianId, type UserRow } from '../auth/users';
import { ApiError, notFound } from '../errors';
import type { RecordingRow } from '../recordings/store';

export interface PatientRef {
  id: number;
  patient_code: string;
  /** The patient's physician; for a sample patient, the practice it belongs to (its settings apply). */
  physician_id: number;
  country: string | null;
  /** A de-identified sample patient (spec 2 §2): read-only for everyone. */
  is_sample: boolean;
}

/**
 * What the caller means to do with the patient: `read` also reaches the practice's sample
 * patients, `write` (the default, so every write route refuses samples) answers 403
 * `sample_read_only` for them.
 */
export type PatientAccess = 'read' | 'write';

/** The refusal of any change to a sample patient's data, annotations or details. */
const sampleReadOnly = () => new ApiError(403, 'sample_read_only', 'Sample patients are read-only.');

/**
 * The patient if the user may see it: their own, or their physician's for annotators and
 * secondary users, and the practice's sample patients. Anything else is 404, not 403, so
 * ids of others' patients leak nothing. A sample patient is 403 `sample_read_only` unless
 * `access` is `read`.
 */
export async function visiblePatient(db: Queryable, user: UserRow, patientId: number, access: PatientAccess = 'write'): Promise<PatientRef> {
  const [row] = await db.query<PatientRow>(
    `select id, patient_code, physician_id, country, sample_practice_id from patients
     where id = $1 and (physician_id = $2 or sample_practice_id = $2)`,
    [patientId, actingPhysicianId(user)],
  );
  return patientRefOf(row, user, access);
}

/** A patient row as visiblePatient reads it. */
interface PatientRow {
  id: number;
  patient_code: string;
  physician_id: number;
  country: string | null;
  sample_practice_id: number | null;
}

/** visiblePatient's verdict on the row its query found (undefined: none the user may see). */
function patientRefOf(row: PatientRow | undefined, user: UserRow, access: PatientAccess): PatientRef {
  if (!row || user.role === 'admin') throw notFound('patient');
  if (row.sample_practice_id === null) return { id: row.id, patient_code: row.patient_code, physician_id: row.physician_id, country: row.country, is_sample: false };
  if (access !== 'read') throw sampleReadOnly();
  return { id: row.id, patient_code: row.patient_code, physician_id: row.sample_practice_id, country: row.country, is_sample: true };
}

/** A patient of the user's practice by code (CLI and imports). */
export async function patientByCode(db: Queryable, code: string): Promise<Omit<PatientRef, 'is_sample'> | null> {
  const [row] = await db.query<Omit<PatientRef, 'is_sample'>>('select id, patient_code, physician_id, country from patients where patient_code = $1 and sample_practice_id is null', [code]);
  return row ?? null;
}

/**
 * A recording of a patient the user may see (404 for anything else; samples as visiblePatient),
 * in one statement: every night route asks this first, a channel's bytes on a night's load
 * 16 times at once (issue 34: a 10-h channel served in ≤ 20 ms).
 */
export async function visibleRecording(
  db: Queryable,
  user: UserRow,
  patientId: number,
  recordingId: number,
  access: PatientAccess = 'write',
): Promise<{ patient: PatientRef; recording: RecordingRow }> {
  const [row] = await db.query<Partial<RecordingRow> & { visible_patient: PatientRow }>(
    `select r.*, json_build_object('id', p.id, 'patient_code', p.patient_code, 'physician_id', p.physician_id, 'country', p.country, 'sample_practice_id', p.sample_practice_id) as visible_patient
     from patients p left join recordings r on r.id = $3 and r.patient_id = p.id
     where p.id = $1 and (p.physician_id = $2 or p.sample_practice_id = $2)`,
    [patientId, actingPhysicianId(user), recordingId],
  );
  const patient = patientRefOf(row?.visible_patient, user, access);
  const { visible_patient: _, ...recording } = row!;
  if (recording.id === null || recording.id === undefined) throw notFound('recording');
  return { patient, recording: recording as RecordingRow };
}
