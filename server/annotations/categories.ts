import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { recordingsEndpoints } from '../../contract/endpoints/recordings';
import type { Category } from '../../contract/annotations';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import type { Queryable } from '../db/adapter';
import { ApiError, notFound } from '../errors';
import { visiblePatient, type PatientRef } from '../patients/access';
import { MESSAGES, normaliseColor, unescapeText } from './format';
import { conflict, invalid, recordHistory } from './shared';

/** At most this many categories (built-in included) for one patient (spec 2 §9). */
export const MAX_CATEGORIES = 12;

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

/** A category as the calls answer it: its dates as ISO text. */
export const presentCategory = (row: CategoryRow): Category => ({ ...row, created_date: row.created_date.toISOString(), updated_date: row.updated_date.toISOString() });

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

function validate(body: { label?: string; color_code?: string }): { label: string; color: string } {
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

/** POST /patient/get-label-list, /add-label, /update-label, /delete-label. */
export function categoryRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);

  app.post('/patient/get-label-list', { preHandler: auth, schema: recordingsEndpoints['POST /patient/get-label-list'] }, async (request) => {
    const patient = await visiblePatient(ctx.db, currentUser(request), request.body.patient_id, 'read');
    return { data: { labels: (await listCategories(ctx.db, patient.id)).map(presentCategory), max: MAX_CATEGORIES } };
  });

  app.post(
    '/patient/add-label',
    { preHandler: auth, schema: recordingsEndpoints['POST /patient/add-label'] },
    async (request, reply) => {
      const user = currentUser(request);
      const patient = await visiblePatient(ctx.db, user, request.body.patient_id);
      const { label, color } = validate(request.body);
      const row = await ctx.db.transaction(async (tx) => {
        // Serialise category changes of one patient, so two saves cannot both take the last slot or one colour.
        await tx.query('select id from patients where id = $1 for update', [patient.id]);
        await checkFree(tx, patient, color, label, null);
        const [created] = await tx.query<CategoryRow>(
          `insert into annotation_categories (label, color_code, type, patient_id, doctor_id, created_by, updated_by)
           values ($1, $2, 'custom', $3, $4, $5, $5) returning *`,
          [label, color, patient.id, patient.physician_id, user.id],
        );
        await recordHistory(tx, { labelId: created.label_id, action: 'create', version: 1, by: user.id, previous: null, current: created });
        return created;
      });
      return reply.code(201).send({ code: 'label_added', data: { label: presentCategory(row) } });
    },
  );

  app.post(
    '/patient/update-label',
    { preHandler: auth, schema: recordingsEndpoints['POST /patient/update-label'] },
    async (request) => {
      const user = currentUser(request);
      const { label, color } = validate(request.body);
      const row = await ctx.db.transaction(async (tx) => {
        const found = await customCategory(tx, user, request.body.label_id, request.body.version);
        const patient = await visiblePatient(tx, user, found.patient_id!);
        await tx.query('select id from patients where id = $1 for update', [patient.id]);
        // Read again under the row's lock: a save or delete that committed meanwhile is seen here.
        const current = await lockedCategory(tx, found.label_id, request.body.version);
        await checkFree(tx, patient, color, label, current.label_id);
        const [updated] = await tx.query<CategoryRow>(
          `update annotation_categories set label = $2, color_code = $3, updated_by = $4, updated_date = now(), version = version + 1
           where label_id = $1 returning *`,
          [current.label_id, label, color, user.id],
        );
        await recordHistory(tx, { labelId: current.label_id, action: 'update', version: updated.version, by: user.id, previous: current, current: updated });
        return updated;
      });
      return { code: 'label_updated', data: { label: presentCategory(row) } };
    },
  );

  app.post(
    '/patient/delete-label',
    { preHandler: auth, schema: recordingsEndpoints['POST /patient/delete-label'] },
    async (request) => {
      const user = currentUser(request);
      await ctx.db.transaction(async (tx) => {
        const found = await customCategory(tx, user, request.body.label_id, request.body.version);
        const current = await lockedCategory(tx, found.label_id, request.body.version);
        await tx.query('update annotation_categories set deleted_at = now(), updated_by = $2, updated_date = now(), version = version + 1 where label_id = $1', [current.label_id, user.id]);
        await recordHistory(tx, { labelId: current.label_id, action: 'delete', version: current.version + 1, by: user.id, previous: current, current: null });
      });
      return { code: 'label_deleted', message: 'Category deleted.' };
    },
  );
}

/** A live custom category of a patient the user may see; built-ins cannot be changed. */
async function customCategory(tx: Queryable, user: Parameters<typeof visiblePatient>[1], labelId: number, version: number | undefined): Promise<CategoryRow> {
  const [row] = await tx.query<CategoryRow & { deleted_at: Date | null }>('select * from annotation_categories where label_id = $1', [labelId]);
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
  const [row] = await tx.query<CategoryRow & { deleted_at: Date | null }>('select * from annotation_categories where label_id = $1 for update', [labelId]);
  if (!row || (row.deleted_at && version === undefined)) throw notFound('category');
  if (row.deleted_at || (version !== undefined && version !== row.version)) throw await conflict(tx, 'category', row.updated_by, row.updated_date);
  return row;
}
