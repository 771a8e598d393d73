import type { PatientComment } from '../../contract/patient-notes';
import type { Queryable } from '../db/adapter';

/** A comment as the calls answer it (the contract's shape). */
export type CommentRow = PatientComment;

const ISO_UTC = `'YYYY-MM-DD"T"HH24:MI:SS.US"Z"'`;

const COMMENT_COLUMNS = `c.id, c.user_id, trim(u.first_name || ' ' || u.last_name) as author, c.comment,
  to_char(c.created_date at time zone 'UTC', ${ISO_UTC}) as created_date,
  to_char(c.updated_date at time zone 'UTC', ${ISO_UTC}) as updated_date`;

/** One comment. */
export async function commentById(db: Queryable, id: number): Promise<CommentRow> {
  return (await db.query<CommentRow>(`select ${COMMENT_COLUMNS} from patient_comments c join users u on u.id = c.user_id where c.id = $1`, [id]))[0]!;
}

/** A patient's live comments, newest first. */
export function commentsOf(db: Queryable, patientId: number) {
  return db.query<CommentRow>(
    `select ${COMMENT_COLUMNS} from patient_comments c join users u on u.id = c.user_id
     where c.patient_id = $1 and c.delete_flag = 0 order by c.created_date desc, c.id desc`,
    [patientId],
  );
}

/** Adds a comment; its id. */
export async function insertComment(db: Queryable, patientId: number, userId: number, comment: string): Promise<number> {
  const [row] = await db.query<{ id: number }>('insert into patient_comments (patient_id, user_id, comment) values ($1, $2, $3) returning id', [patientId, userId, comment]);
  return row!.id;
}

/** A patient's live comment: its author and version. */
export async function liveComment(db: Queryable, id: number, patientId: number) {
  const [row] = await db.query<{ id: number; user_id: number; updated_date: string }>(
    `select id, user_id, to_char(updated_date at time zone 'UTC', ${ISO_UTC}) as updated_date
     from patient_comments where id = $1 and patient_id = $2 and delete_flag = 0`,
    [id, patientId],
  );
  return row;
}

/**
 * Saves a comment's text if it still has this version (of two saves based on the same version,
 * PostgreSQL lets the second re-read the row after the first commits, and it matches nothing); whether it did.
 */
export async function updateComment(db: Queryable, id: number, comment: string, version: string): Promise<boolean> {
  const saved = await db.query(
    `update patient_comments set comment = $1, updated_date = now()
     where id = $2 and delete_flag = 0 and to_char(updated_date at time zone 'UTC', ${ISO_UTC}) = $3 returning id`,
    [comment, id, version],
  );
  return saved.length > 0;
}

/** Deletes a comment (kept, flagged). */
export async function deleteComment(db: Queryable, id: number): Promise<void> {
  await db.query('update patient_comments set delete_flag = 1, updated_date = now() where id = $1', [id]);
}

/** A patient's check-ups: upcoming (not complete) by date, past (complete) newest first. */
export async function checkupsOf(db: Queryable, patientId: number) {
  const rows = await db.query<{ checkup_date_id: number; checkup_date: string; mark_as_complete_flag: number }>(
    `select checkup_date_id, to_char(checkup_date, 'YYYY-MM-DD') as checkup_date, mark_as_complete_flag
     from checkup_dates where patient_id = $1 order by checkup_date`,
    [patientId],
  );
  return { upcoming: rows.filter((r) => r.mark_as_complete_flag === 0), past: rows.filter((r) => r.mark_as_complete_flag === 1).reverse() };
}

/** Adds a check-up date; false when the patient has one on that date already. */
export async function insertCheckup(db: Queryable, patientId: number, physicianId: number, date: string): Promise<boolean> {
  const rows = await db.query(
    `insert into checkup_dates (patient_id, doctor_id, checkup_date) values ($1, $2, $3)
     on conflict (patient_id, checkup_date) do nothing returning checkup_date_id`,
    [patientId, physicianId, date],
  );
  return rows.length > 0;
}

/** Toggles a check-up between upcoming and complete; false when the patient has no such check-up. */
export async function toggleCheckup(db: Queryable, checkupId: number, patientId: number): Promise<boolean> {
  const rows = await db.query(
    'update checkup_dates set mark_as_complete_flag = 1 - mark_as_complete_flag where checkup_date_id = $1 and patient_id = $2 returning checkup_date_id',
    [checkupId, patientId],
  );
  return rows.length > 0;
}
