import type { Queryable } from '../db/adapter';
import { visibleMarkSql } from '../scoring/visibility';

/** An annotation as stored. */
export interface AnnotationRow {
  annotation_map_id: number;
  patient_id: number;
  recording_id: number | null;
  night: number;
  device_id: string | null;
  type: 'custom' | 'system' | 'system-edit' | 'desaturation';
  kpi: string;
  start_ms: number;
  end_ms: number;
  comment: string;
  label: number;
  color_code: string;
  doctor_id: number;
  created_by: number;
  created_date: Date;
  updated_by: number;
  updated_date: Date;
  delete_flag: number;
  version: number;
  /** The scorer's set the mark belongs to (null: a mark of record). */
  scoring_round_id: number | null;
  /** The round whose consensus wrote this mark of record. */
  consensus_round_id: number | null;
  /** Who made it, as the list's author filter names them (read with the list only). */
  created_by_name?: string;
}

/** Which of a patient's annotations a page of the list reads, for which user. */
export interface AnnotationPageQuery {
  patientId: number;
  /** The night's key, or null for every night. */
  night: number | null;
  includeDeleted: boolean;
  /** Read after this (start_ms, annotation_map_id), or from the first. */
  cursor: { start: number; id: number } | null;
  /** Rows at most, or null for all of them. */
  limit: number | null;
  /** The reader: a scorer's marks of an open round are theirs alone (decision 0989). */
  userId: number;
}

/** The page both list calls read: the patient's annotations the user may see, in (start_ms, annotation_map_id) order from the cursor on (alias a; parameters of pageParams). */
const PAGE_OF_ANNOTATIONS = `where a.patient_id = $1 and ($2::bigint is null or a.night = $2) and ($3 or a.delete_flag = 0)
        and ($4::bigint is null or a.start_ms > $4 or (a.start_ms = $4 and a.annotation_map_id > $5))
        and ${visibleMarkSql('a', '$7')}
      order by a.start_ms, a.annotation_map_id limit $6`;

const pageParams = (q: AnnotationPageQuery) => [q.patientId, q.night, q.includeDeleted, q.cursor?.start ?? null, q.cursor?.id ?? null, q.limit, q.userId];

/** The patient's annotations the user may see, with their authors' names, in (start_ms, annotation_map_id) order from the cursor on. */
export function annotationRows(db: Queryable, q: AnnotationPageQuery): Promise<AnnotationRow[]> {
  return db.query<AnnotationRow>(
    `select a.*, trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')) as created_by_name
       from annotations a left join users u on u.id = a.created_by
      ${PAGE_OF_ANNOTATIONS}`,
    pageParams(q),
  );
}

/** An annotation, locked until the transaction ends (undefined: no such annotation). */
export async function lockAnnotation(db: Queryable, id: number): Promise<AnnotationRow | undefined> {
  const [row] = await db.query<AnnotationRow>('select * from annotations where annotation_map_id = $1 for update', [id]);
  return row;
}

/** A new annotation of a night, checked and normalised. */
export interface NewAnnotation {
  patientId: number;
  recordingId: number;
  night: number;
  deviceId: string | null;
  type: 'custom' | 'desaturation';
  kpi: string;
  start: number;
  end: number;
  comment: string;
  label: number;
  color: string;
  doctorId: number;
  /** Who made it (and so last changed it). */
  userId: number;
  /** The scorer's set it goes to, or null for a mark of record. */
  roundId: number | null;
}

/** Stores an annotation; its row. */
export async function insertAnnotation(tx: Queryable, a: NewAnnotation): Promise<AnnotationRow> {
  const [row] = await tx.query<AnnotationRow>(
    `insert into annotations (patient_id, recording_id, night, device_id, type, kpi, start_ms, end_ms, comment, label, color_code, doctor_id, created_by, updated_by, scoring_round_id)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $13, $14) returning *`,
    [a.patientId, a.recordingId, a.night, a.deviceId, a.type, a.kpi, a.start, a.end, a.comment, a.label, a.color, a.doctorId, a.userId, a.roundId],
  );
  return row;
}

/** An annotation's fields as an edit saves them. */
export interface AnnotationChange {
  type: AnnotationRow['type'];
  kpi: string;
  start: number;
  end: number;
  comment: string;
  label: number;
  color: string;
}

/** Saves an edit of an annotation, counting its version; its row. */
export async function updateAnnotationRow(tx: Queryable, id: number, c: AnnotationChange, userId: number): Promise<AnnotationRow> {
  const [updated] = await tx.query<AnnotationRow>(
    `update annotations set type = $2, kpi = $3, start_ms = $4, end_ms = $5, comment = $6, label = $7, color_code = $8,
              updated_by = $9, updated_date = now(), version = version + 1
       where annotation_map_id = $1 returning *`,
    [id, c.type, c.kpi, c.start, c.end, c.comment, c.label, c.color, userId],
  );
  return updated;
}

/** Flags an annotation deleted (spec 2 §4: deletion is a flag), counting its version; its row. */
export async function flagAnnotationDeleted(tx: Queryable, id: number, userId: number): Promise<AnnotationRow> {
  const [deleted] = await tx.query<AnnotationRow>(
    `update annotations set delete_flag = 1, updated_by = $2, updated_date = now(), version = version + 1 where annotation_map_id = $1 returning *`,
    [id, userId],
  );
  return deleted;
}

/** A category as stored. */
export interface CategoryRow {
  label_id: number;
  label: string;
  color_code: string;
  type: 'custom' | 'built-in';
  /** A built-in's stable code (apnea, desaturation, hypopnea, movement, central_apnea, obstructive_apnea, irregularities), null for a custom one. */
  code: string | null;
  patient_id: number | null;
  doctor_id: number | null;
  created_by: number | null;
  created_date: Date;
  updated_by: number | null;
  updated_date: Date;
  version: number;
}

/** The categories a patient's annotations may use: the built-in ones and the patient's own. */
export function listCategories(db: Queryable, patientId: number): Promise<CategoryRow[]> {
  return db.query<CategoryRow>(
    `select label_id, label, color_code, type, code, patient_id, doctor_id, created_by, created_date, updated_by, updated_date, version
     from annotation_categories
     where deleted_at is null and (type = 'built-in' or patient_id = $1)
     order by label_id`,
    [patientId],
  );
}

/** Locks the patient's row: category changes of one patient are serialised, so two saves cannot both take the last slot or one colour. */
export async function lockPatientCategories(tx: Queryable, patientId: number): Promise<void> {
  await tx.query('select id from patients where id = $1 for update', [patientId]);
}

/** A category with when it was deleted (null: live). */
export type StoredCategory = CategoryRow & { deleted_at: Date | null };

/** A category, deleted or not (undefined: no such category). */
export async function categoryById(tx: Queryable, labelId: number): Promise<StoredCategory | undefined> {
  const [row] = await tx.query<StoredCategory>('select * from annotation_categories where label_id = $1', [labelId]);
  return row;
}

/** A category, deleted or not, locked until the transaction ends (undefined: no such category). */
export async function lockCategory(tx: Queryable, labelId: number): Promise<StoredCategory | undefined> {
  const [row] = await tx.query<StoredCategory>('select * from annotation_categories where label_id = $1 for update', [labelId]);
  return row;
}

/** A patient's new custom category. */
export interface NewCategory {
  label: string;
  color: string;
  patientId: number;
  doctorId: number;
  /** Who made it (and so last changed it). */
  userId: number;
}

/** Stores a custom category; its row. */
export async function insertCategory(tx: Queryable, c: NewCategory): Promise<CategoryRow> {
  const [created] = await tx.query<CategoryRow>(
    `insert into annotation_categories (label, color_code, type, patient_id, doctor_id, created_by, updated_by)
           values ($1, $2, 'custom', $3, $4, $5, $5) returning *`,
    [c.label, c.color, c.patientId, c.doctorId, c.userId],
  );
  return created;
}

/** Renames and recolours a category, counting its version; its row. */
export async function updateCategoryRow(tx: Queryable, labelId: number, label: string, color: string, userId: number): Promise<CategoryRow> {
  const [updated] = await tx.query<CategoryRow>(
    `update annotation_categories set label = $2, color_code = $3, updated_by = $4, updated_date = now(), version = version + 1
           where label_id = $1 returning *`,
    [labelId, label, color, userId],
  );
  return updated;
}

/** Marks a category deleted, counting its version. */
export async function markCategoryDeleted(tx: Queryable, labelId: number, userId: number): Promise<void> {
  await tx.query('update annotation_categories set deleted_at = now(), updated_by = $2, updated_date = now(), version = version + 1 where label_id = $1', [labelId, userId]);
}

/** The columns answered, each the annotations table's column of that name. */
const COLUMNS = ['annotation_map_id', 'type', 'night', 'kpi', 'start_ms', 'end_ms', 'comment', 'label', 'color_code', 'created_by', 'updated_by', 'delete_flag', 'version'] as const;

/**
 * One page of the annotations user `userId` may see (get-annotation-columns, decision 0994), as the list call selects them, in
 * (start_ms, annotation_map_id) order from the cursor on, as the JSON text of the answer's
 * `columns` and `authors`, and the number of annotations on the page.
 */
export async function annotationColumnPage(db: Queryable, q: AnnotationPageQuery) {
  const ordered = (c: string) => `'${c}', coalesce(json_agg(p.${c} order by p.start_ms, p.annotation_map_id), '[]')`;
  const [row] = await db.query<{ columns: string; authors: string; n: number }>(
    `with p as (
       select ${COLUMNS.map((c) => `a.${c}`).join(', ')} from annotations a
      ${PAGE_OF_ANNOTATIONS})
     select json_build_object(${COLUMNS.map(ordered).join(', ')})::text as columns,
            (select coalesce(json_agg(json_build_object('id', u.id, 'name', trim(coalesce(u.first_name, '') || ' ' || coalesce(u.last_name, '')))), '[]')
               from users u where u.id in (select created_by from p))::text as authors,
            count(*)::int as n
       from p`,
    pageParams(q),
  );
  return row;
}
