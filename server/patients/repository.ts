import type { Queryable } from '../db/adapter';
import type { Disease } from '../../contract/patients';
import type { PatientInfo } from '../../contract/patient-details';
import { ApiError } from '../errors';
import { PATIENT_MESSAGES } from './validate';

/** Replaces a patient's conditions (every id must be a known condition). */
export async function setDiseases(tx: Queryable, patientId: number, ids: number[]): Promise<void> {
  const known = await tx.query<{ disease_id: number }>('select disease_id from diseases where disease_id = any($1::int[])', [ids]);
  if (known.length !== ids.length) throw new ApiError(400, 'validation_failed', PATIENT_MESSAGES.condition);
  await tx.query('delete from patient_diseases where patient_id = $1', [patientId]);
  for (const id of ids) await tx.query('insert into patient_diseases (patient_id, disease_id) values ($1, $2)', [patientId, id]);
}

const COLUMNS = ['patient_code', 'first_name', 'last_name', 'email_id', 'gender', 'date_of_birth', 'at_risk', 'height', 'weight', 'vital_parameters', 'comment', 'country', 'address', 'tags'];

/** Saves the patient's checked fields that are given, and their BMI from what is stored then. */
export async function updatePatient(tx: Queryable, patientId: number, fields: Record<string, unknown>): Promise<void> {
  const sets: string[] = [];
  const values: unknown[] = [patientId];
  for (const col of COLUMNS) {
    if (fields[col] === undefined) continue;
    values.push(col === 'vital_parameters' ? JSON.stringify(fields[col]) : fields[col]);
    sets.push(`${col} = $${values.length}`);
  }
  if (fields.diseaseIds) await setDiseases(tx, patientId, fields.diseaseIds as number[]);
  if (sets.length) await tx.query(`update patients set ${sets.join(', ')}, updated_at = now() where id = $1`, values);
  // BMI is the server's to compute, from what is stored now.
  await tx.query(`update patients set bmi = case when weight > 0 and height > 0 then round(weight / ((height / 100) ^ 2)::numeric, 2) else 0 end where id = $1`, [patientId]);
}

/** Whether a patient code is taken (in any case). */
export async function patientCodeTaken(db: Queryable, code: string): Promise<boolean> {
  const [taken] = await db.query('select 1 from patients where lower(patient_code) = lower($1)', [code]);
  return taken !== undefined;
}

/** The conditions a patient may have. */
export function listDiseases(db: Queryable) {
  return db.query<Disease>('select disease_id, disease_description, disease_shortname from diseases order by disease_id');
}

/** Inserts a patient of the checked fields; its id. A taken code is 409 patient_id_exists. */
export async function insertPatient(tx: Queryable, fields: Record<string, unknown>, physicianId: number, userId: number, bmi: number): Promise<number> {
  const [row] = await tx.query<{ id: number }>(
    `insert into patients (patient_code, physician_id, created_by, first_name, last_name, email_id, gender, date_of_birth, at_risk, height, weight, bmi, vital_parameters, comment, country, address, tags)
     values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17) returning id`,
    [fields.patient_code, physicianId, userId, fields.first_name ?? '', fields.last_name ?? '', fields.email_id ?? '', fields.gender, fields.date_of_birth, fields.at_risk ?? null,
      fields.height, fields.weight, bmi, JSON.stringify(fields.vital_parameters), fields.comment ?? '', fields.country, fields.address ?? '', fields.tags ?? ''],
  ).catch((err: unknown) => {
    // The code is taken, in any case (the patients' unique indexes, migration 033): spec 1 §4's patient_id_exists.
    if ((err as { code?: string }).code === '23505') throw new ApiError(409, 'patient_id_exists', PATIENT_MESSAGES.idExists);
    throw err;
  });
  return row.id;
}

/** The patient's version, locked until the transaction ends (a save compares against it). */
export async function lockedVersion(tx: Queryable, patientId: number): Promise<number> {
  const [row] = await tx.query<{ version: number }>('select version from patients where id = $1 for no key update', [patientId]);
  return row!.version;
}

/** Counts a save of the patient; the new version. */
export async function bumpVersion(tx: Queryable, patientId: number): Promise<number> {
  return (await tx.query<{ version: number }>('update patients set version = version + 1 where id = $1 returning version', [patientId]))[0]!.version;
}

/** The patient's conditions, the patient locked first (changes of one patient's conditions are serialised). */
export async function lockedDiseases(tx: Queryable, patientId: number): Promise<number[]> {
  await tx.query('select id from patients where id = $1 for update', [patientId]);
  return (await tx.query<{ disease_id: number }>('select disease_id from patient_diseases where patient_id = $1', [patientId])).map((r) => r.disease_id);
}

/** Stores a patient's password hash. */
export async function setPatientPassword(db: Queryable, patientId: number, hash: string): Promise<void> {
  await db.query('update patients set password_hash = $2, updated_at = now() where id = $1', [patientId, hash]);
}

/** Moves a patient to the past patients. */
export async function archivePatient(tx: Queryable, patientId: number): Promise<void> {
  await tx.query('update patients set phys_device_return_date = now(), active_flag = false, updated_at = now() where id = $1', [patientId]);
}

/** Sets whether a patient is active. */
export async function setPatientActive(tx: Queryable, patientId: number, active: boolean): Promise<void> {
  await tx.query('update patients set active_flag = $2, updated_at = now() where id = $1', [patientId, active]);
}

/** A patient's record as the details call reads it: its conditions, its booked device (else its last night's), its version. */
export async function patientInfo(db: Queryable, patientId: number) {
  const [info] = await db.query<Omit<PatientInfo, 'vital_parameters' | 'is_sample_patient'> & { vital_parameters: unknown }>(
    `select p.id as patient_id, p.patient_code, p.first_name, p.last_name, p.email_id, p.gender,
                to_char(p.date_of_birth, 'YYYY-MM-DD') as date_of_birth, p.at_risk,
                p.height::float8 as height, p.weight::float8 as weight, p.bmi::float8 as bmi,
                p.vital_parameters, p.comment, p.country, p.address, p.tags, p.active_flag,
                p.created_by, p.created_at as "createdAt", p.physician_id, p.phys_device_return_date, p.version,
                coalesce(string_agg(d.disease_description, ',' order by d.disease_id), '') as diseases,
                coalesce(string_agg(d.disease_id::text, ',' order by d.disease_id), '') as "diseaseIds",
                coalesce(dv.device_id, (select r.device_id from recordings r where r.patient_id = p.id order by r.start_ms desc limit 1)) as device_id,
                dv.device_master_id, a.device_user_map_id, a.allocation_ms as device_allocation_date, a.deallocation_ms as device_deallocation_date,
                a.window_start_time, a.window_end_time, a.timezone
         from patients p
         left join lateral (
           select * from device_allocations x where x.patient_id = p.id and x.status = 'booked' order by x.allocation_ms limit 1
         ) a on true
         left join devices dv on dv.device_master_id = a.device_master_id
         left join patient_diseases pd on pd.patient_id = p.id
         left join diseases d on d.disease_id = pd.disease_id
         where p.id = $1
         group by p.id, dv.device_id, dv.device_master_id, a.device_user_map_id, a.allocation_ms, a.deallocation_ms, a.window_start_time, a.window_end_time, a.timezone`,
    [patientId],
  );
  return info;
}
