import type { Category } from '../../contract/annotations';
import type { Db, Queryable } from '../db/adapter';
import { ApiError, notFound } from '../errors';
import type { UserRow } from '../auth/users';
import { visiblePatient, type PatientRef } from '../patients/access';
import { MESSAGES, normaliseColor, unescapeText } from './format';
import { conflict, invalid, recordHistory } from './shared';
import { categoryById, insertCategory, listCategories, lockCategory, lockPatientCategories, markCategoryDeleted, updateCategoryRow, type CategoryRow } from './repository';

/** At most this many categories (built-in included) for one patient (spec 2 §9). */
export const MAX_CATEGORIES = 12;

/** A category as the calls answer it: its dates as ISO text. */
export const presentCategory = (row: CategoryRow): Category => ({ ...row, created_date: row.created_date.toISOString(), updated_date: row.updated_date.toISOString() });

/** Checks a category's title and colour; returns them normalised or throws 400 with the spec's messages. */
export function validateCategory(body: { label?: string; color_code?: string }): { label: string; color: string } {
  const errors: string[] = [];
  const label = unescapeText(body.label ?? '').trim();
  const color = normaliseColor(body.color_code);
  if (!color) errors.push(MESSAGES.color);
  if (!label) errors.push(MESSAGES.title);
  else if (label.length > 20) errors.push(MESSAGES.titleLength);
  if (errors.length) throw invalid(errors);
  return { label, color: color! };
}

async function checkFree(tx: Queryable, patient: PatientRef, color: string, label: string, exceptId: number | null) {
  const others = (await listCategories(tx, patient.id)).filter((c) => c.label_id !== exceptId);
  if (others.some((c) => c.color_code === color)) throw invalid(['This color is already used by another category.']);
  if (others.some((c) => c.label.toLowerCase() === label.toLowerCase())) throw invalid([`A category named "${label}" already exists.`]);
  if (exceptId === null && others.length >= MAX_CATEGORIES) throw invalid([`A patient can have at most ${MAX_CATEGORIES} categories.`]);
}

/** Adds a custom category of the patient, with its history row. */
export function addCategory(db: Db, user: UserRow, patient: PatientRef, label: string, color: string): Promise<CategoryRow> {
  return db.transaction(async (tx) => {
    // Serialise category changes of one patient, so two saves cannot both take the last slot or one colour.
    await lockPatientCategories(tx, patient.id);
    await checkFree(tx, patient, color, label, null);
    const created = await insertCategory(tx, { label, color, patientId: patient.id, doctorId: patient.physician_id, userId: user.id });
    await recordHistory(tx, { labelId: created.label_id, action: 'create', version: 1, by: user.id, previous: null, current: created });
    return created;
  });
}

/** Renames and recolours a custom category, refusing a stale version. */
export function updateCategory(db: Db, user: UserRow, body: { label_id: number; version?: number }, label: string, color: string): Promise<CategoryRow> {
  return db.transaction(async (tx) => {
    const found = await customCategory(tx, user, body.label_id, body.version);
    const patient = await visiblePatient(tx, user, found.patient_id!);
    await lockPatientCategories(tx, patient.id);
    // Read again under the row's lock: a save or delete that committed meanwhile is seen here.
    const current = await lockedCategory(tx, found.label_id, body.version);
    await checkFree(tx, patient, color, label, current.label_id);
    const updated = await updateCategoryRow(tx, current.label_id, label, color, user.id);
    await recordHistory(tx, { labelId: current.label_id, action: 'update', version: updated.version, by: user.id, previous: current, current: updated });
    return updated;
  });
}

/** Deletes a custom category, refusing a stale version. */
export function deleteCategory(db: Db, user: UserRow, body: { label_id: number; version?: number }): Promise<void> {
  return db.transaction(async (tx) => {
    const found = await customCategory(tx, user, body.label_id, body.version);
    const current = await lockedCategory(tx, found.label_id, body.version);
    await markCategoryDeleted(tx, current.label_id, user.id);
    await recordHistory(tx, { labelId: current.label_id, action: 'delete', version: current.version + 1, by: user.id, previous: current, current: null });
  });
}

/** A live custom category of a patient the user may see; built-ins cannot be changed. */
async function customCategory(tx: Queryable, user: Parameters<typeof visiblePatient>[1], labelId: number, version: number | undefined): Promise<CategoryRow> {
  const row = await categoryById(tx, labelId);
  if (!row || (row.deleted_at && version === undefined)) throw notFound('category');
  if (row.type === 'built-in') throw new ApiError(403, 'built_in_category', 'Built-in categories cannot be changed or deleted.');
  await visiblePatient(tx, user, row.patient_id!);
  // Deleted by someone after the caller read it at this version: the same 409 as a delete that commits while this save waits.
  if (row.deleted_at) throw await conflict(tx, 'category', row.updated_by, row.updated_date);
  return row;
}

/**
 * The category row locked for the write and read after the lock, so two saves (or a rename
 * and a delete) based on one version cannot both pass: the second sees the first's version,
 * or its deletion, and is answered 409 (or 404 when it named no version and the row is gone).
 */
async function lockedCategory(tx: Queryable, labelId: number, version: number | undefined): Promise<CategoryRow> {
  const row = await lockCategory(tx, labelId);
  if (!row || (row.deleted_at && version === undefined)) throw notFound('category');
  if (row.deleted_at || (version !== undefined && version !== row.version)) throw await conflict(tx, 'category', row.updated_by, row.updated_date);
  return row;
}
