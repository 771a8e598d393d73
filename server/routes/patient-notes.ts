import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AddCheckupBody, AddCommentBody, DeleteCommentBody, GetCommentsBody, MarkCheckupBody, PatientIdBody, UpdateCommentBody } from '../../contract/patient-notes';
import { DateTime } from 'luxon';
import type { UserRow } from '../auth/users';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden, notFound } from '../errors';
import { visiblePatient } from '../patients/access';
import { noteAccessOf } from '../audit/trail';

/** Longest comment (spec 2 §5, §9). */
const COMMENT_MAX = 10_240;

const NOTE_MESSAGES = {
  empty: 'Please enter a comment.',
  tooLong: `A comment holds at most ${COMMENT_MAX} characters.`,
  stale: 'This comment was changed by someone else meanwhile; reload to see it.',
  notAuthor: 'Only the author can change or delete a comment.',
  checkupDate: 'A check-up date must be a day from tomorrow on (YYYY-MM-DD).',
  checkupTaken: 'A check-up is already set for that date.',
} as const;

/** Annotators and admins read a patient's notes but do not write them (spec 2 §6). */
function writer(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.is_annotator || user.role === 'admin') throw forbidden('You cannot change comments or check-ups.');
  return user;
}

function checkComment(raw: unknown): string {
  const comment = typeof raw === 'string' ? raw.trim() : '';
  if (comment.length === 0) throw new ApiError(400, 'validation_failed', NOTE_MESSAGES.empty);
  if (comment.length > COMMENT_MAX) throw new ApiError(400, 'validation_failed', NOTE_MESSAGES.tooLong);
  return comment;
}

interface CommentRow {
  id: number;
  user_id: number;
  author: string;
  comment: string;
  created_date: string;
  updated_date: string;
}

const COMMENT_COLUMNS = `c.id, c.user_id, trim(u.first_name || ' ' || u.last_name) as author, c.comment,
  to_char(c.created_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as created_date,
  to_char(c.updated_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_date`;

/**
 * Comments and check-up dates of the Patient details tab (spec 2 §7). In the comment calls
 * user_id (and id in get-comment) name the patient, as the patient is a user in the
 * spec's data; the author is the caller. Check-ups: upcoming are not complete, past are.
 */
export function patientNoteRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  const { db } = ctx;

  const commentById = async (id: number) =>
    (await db.query<CommentRow>(`select ${COMMENT_COLUMNS} from patient_comments c join users u on u.id = c.user_id where c.id = $1`, [id]))[0]!;

  const commentsOf = (patientId: number) =>
    db.query<CommentRow>(
      `select ${COMMENT_COLUMNS} from patient_comments c join users u on u.id = c.user_id
       where c.patient_id = $1 and c.delete_flag = 0 order by c.created_date desc, c.id desc`,
      [patientId],
    );

  app.post(
    '/patient/get-comment',
    { preHandler: auth, schema: { body: GetCommentsBody } },
    async (request) => {
      noteAccessOf(request, request.body.id);
      const patient = await visiblePatient(db, currentUser(request), request.body.id, 'read');
      return { data: { comments: await commentsOf(patient.id) } };
    },
  );

  app.post(
    '/patient/add-comment',
    { preHandler: auth, schema: { body: AddCommentBody } },
    async (request) => {
      const user = writer(request);
      const patient = await visiblePatient(db, user, request.body.user_id);
      const comment = checkComment(request.body.comment);
      const [row] = await db.query<{ id: number }>('insert into patient_comments (patient_id, user_id, comment) values ($1, $2, $3) returning id', [patient.id, user.id, comment]);
      return { code: 'comment_added', message: 'Comment added successfully', data: { comment: await commentById(row!.id) } };
    },
  );

  /** The caller's own live comment on a patient they may see, locked for the change. */
  const ownComment = async (request: FastifyRequest, patientId: number, id: number) => {
    const user = writer(request);
    const patient = await visiblePatient(db, user, patientId);
    const [row] = await db.query<{ id: number; user_id: number; updated_date: string }>(
      `select id, user_id, to_char(updated_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as updated_date
       from patient_comments where id = $1 and patient_id = $2 and delete_flag = 0`,
      [id, patient.id],
    );
    if (!row) throw notFound('comment');
    if (row.user_id !== user.id) throw forbidden(NOTE_MESSAGES.notAuthor);
    return row;
  };

  app.post(
    '/patient/update-comment',
    {
      preHandler: auth,
      schema: { body: UpdateCommentBody },
    },
    async (request) => {
      const { user_id, id, updated_date } = request.body;
      const comment = checkComment(request.body.comment);
      const row = await ownComment(request, user_id, id);
      // updated_date is the version the client edited: a later change by another session wins.
      if (updated_date !== undefined && updated_date !== row.updated_date) throw new ApiError(409, 'stale_comment', NOTE_MESSAGES.stale);
      // The version check is repeated inside the update itself: of two saves based on the same
      // version, PostgreSQL lets the second re-read the row after the first commits, and it matches nothing.
      const saved = await db.query(
        `update patient_comments set comment = $1, updated_date = now()
         where id = $2 and delete_flag = 0 and to_char(updated_date at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') = $3 returning id`,
        [comment, id, updated_date ?? row.updated_date],
      );
      if (saved.length === 0) throw new ApiError(409, 'stale_comment', NOTE_MESSAGES.stale);
      return { code: 'comment_updated', message: 'Comment updated.', data: { comment: await commentById(id) } };
    },
  );

  app.post(
    '/patient/delete-comment',
    { preHandler: auth, schema: { body: DeleteCommentBody } },
    async (request) => {
      await ownComment(request, request.body.user_id, request.body.id);
      await db.query('update patient_comments set delete_flag = 1, updated_date = now() where id = $1', [request.body.id]);
      return { code: 'comment_deleted', message: 'Comment deleted.' };
    },
  );

  const checkupsOf = async (patientId: number) => {
    const rows = await db.query<{ checkup_date_id: number; checkup_date: string; mark_as_complete_flag: number }>(
      `select checkup_date_id, to_char(checkup_date, 'YYYY-MM-DD') as checkup_date, mark_as_complete_flag
       from checkup_dates where patient_id = $1 order by checkup_date`,
      [patientId],
    );
    return { upcoming: rows.filter((r) => r.mark_as_complete_flag === 0), past: rows.filter((r) => r.mark_as_complete_flag === 1).reverse() };
  };

  app.post(
    '/patient/get-checkup-list',
    { preHandler: auth, schema: { body: PatientIdBody } },
    async (request) => {
      const patient = await visiblePatient(db, currentUser(request), request.body.patient_id, 'read');
      return { data: await checkupsOf(patient.id) };
    },
  );

  app.post(
    '/patient/add-checkup',
    {
      preHandler: auth,
      schema: { body: AddCheckupBody },
    },
    async (request) => {
      const user = writer(request);
      const patient = await visiblePatient(db, user, request.body.patient_id);
      const date = DateTime.fromFormat(request.body.checkup_date, 'yyyy-MM-dd', { zone: 'UTC' });
      // "Earliest tomorrow" wherever the physician is: no date before tomorrow in UTC-12.
      const earliest = DateTime.utc().minus({ hours: 12 }).startOf('day').plus({ days: 1 });
      if (!date.isValid || date < earliest) throw new ApiError(400, 'validation_failed', NOTE_MESSAGES.checkupDate);
      const rows = await db.query<{ checkup_date_id: number }>(
        `insert into checkup_dates (patient_id, doctor_id, checkup_date) values ($1, $2, $3)
         on conflict (patient_id, checkup_date) do nothing returning checkup_date_id`,
        [patient.id, patient.physician_id, date.toISODate()],
      );
      if (rows.length === 0) throw new ApiError(409, 'checkup_taken', NOTE_MESSAGES.checkupTaken);
      return { code: 'checkup_added', data: await checkupsOf(patient.id) };
    },
  );

  app.post(
    '/patient/mark-as-complete',
    {
      preHandler: auth,
      schema: { body: MarkCheckupBody },
    },
    async (request) => {
      const user = writer(request);
      const patient = await visiblePatient(db, user, request.body.patient_id);
      const rows = await db.query(
        'update checkup_dates set mark_as_complete_flag = 1 - mark_as_complete_flag where checkup_date_id = $1 and patient_id = $2 returning checkup_date_id',
        [request.body.checkup_date_id, patient.id],
      );
      if (rows.length === 0) throw notFound('checkup');
      return { code: 'checkup_updated', data: await checkupsOf(patient.id) };
    },
  );
}
