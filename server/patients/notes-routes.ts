import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { patientsEndpoints } from '../../contract/endpoints/patients';
import { DateTime } from 'luxon';
import type { UserRow } from '../auth/users';
import type { AppContext } from '../context';
import type { Api } from '../typed-api';
import { checkupsOf, commentById, commentsOf, deleteComment, insertCheckup, insertComment, liveComment, toggleCheckup, updateComment } from './notes-repository';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden, notFound } from '../errors';
import { visiblePatient } from './access';
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

/**
 * Comments of the Patient details tab. In the comment calls user_id (and id in get-comment)
 * name the patient, as the patient is a user in the spec's data; the author is the caller.
 */
function commentRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  const { db } = ctx;
  app.post('/patient/get-comment', { preHandler: auth, schema: patientsEndpoints['POST /patient/get-comment'] }, async (request) => {
    noteAccessOf(request, request.body.id);
    const patient = await visiblePatient(db, currentUser(request), request.body.id, 'read');
    return { data: { comments: await commentsOf(db, patient.id) } };
  });

  app.post('/patient/add-comment', { preHandler: auth, schema: patientsEndpoints['POST /patient/add-comment'] }, async (request) => {
    const user = writer(request);
    const patient = await visiblePatient(db, user, request.body.user_id);
    const comment = checkComment(request.body.comment);
    const id = await insertComment(db, patient.id, user.id, comment);
    return { code: 'comment_added', message: 'Comment added successfully', data: { comment: await commentById(db, id) } };
  });

  /** The caller's own live comment on a patient they may see. */
  const ownComment = async (request: FastifyRequest, patientId: number, id: number) => {
    const user = writer(request);
    const patient = await visiblePatient(db, user, patientId);
    const row = await liveComment(db, id, patient.id);
    if (!row) throw notFound('comment');
    if (row.user_id !== user.id) throw forbidden(NOTE_MESSAGES.notAuthor);
    return row;
  };

  app.post('/patient/update-comment', { preHandler: auth, schema: patientsEndpoints['POST /patient/update-comment'] }, async (request) => {
    const { user_id, id, updated_date } = request.body;
    const comment = checkComment(request.body.comment);
    const row = await ownComment(request, user_id, id);
    // updated_date is the version the client edited: a later change by another session wins.
    if (updated_date !== undefined && updated_date !== row.updated_date) throw new ApiError(409, 'stale_comment', NOTE_MESSAGES.stale);
    if (!(await updateComment(db, id, comment, updated_date ?? row.updated_date))) throw new ApiError(409, 'stale_comment', NOTE_MESSAGES.stale);
    return { code: 'comment_updated', message: 'Comment updated.', data: { comment: await commentById(db, id) } };
  });

  app.post('/patient/delete-comment', { preHandler: auth, schema: patientsEndpoints['POST /patient/delete-comment'] }, async (request) => {
    await ownComment(request, request.body.user_id, request.body.id);
    await deleteComment(db, request.body.id);
    return { code: 'comment_deleted', message: 'Comment deleted.' };
  });
}

/** Check-up dates: upcoming are not complete, past are. */
function checkupRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  const { db } = ctx;
  app.post('/patient/get-checkup-list', { preHandler: auth, schema: patientsEndpoints['POST /patient/get-checkup-list'] }, async (request) => {
    const patient = await visiblePatient(db, currentUser(request), request.body.patient_id, 'read');
    return { data: await checkupsOf(db, patient.id) };
  });

  app.post('/patient/add-checkup', { preHandler: auth, schema: patientsEndpoints['POST /patient/add-checkup'] }, async (request) => {
    const user = writer(request);
    const patient = await visiblePatient(db, user, request.body.patient_id);
    const date = DateTime.fromFormat(request.body.checkup_date, 'yyyy-MM-dd', { zone: 'UTC' });
    // "Earliest tomorrow" wherever the physician is: no date before tomorrow in UTC-12.
    const earliest = DateTime.utc().minus({ hours: 12 }).startOf('day').plus({ days: 1 });
    if (!date.isValid || date < earliest) throw new ApiError(400, 'validation_failed', NOTE_MESSAGES.checkupDate);
    if (!(await insertCheckup(db, patient.id, patient.physician_id, date.toISODate()!))) throw new ApiError(409, 'checkup_taken', NOTE_MESSAGES.checkupTaken);
    return { code: 'checkup_added', data: await checkupsOf(db, patient.id) };
  });

  app.post('/patient/mark-as-complete', { preHandler: auth, schema: patientsEndpoints['POST /patient/mark-as-complete'] }, async (request) => {
    const user = writer(request);
    const patient = await visiblePatient(db, user, request.body.patient_id);
    if (!(await toggleCheckup(db, request.body.checkup_date_id, patient.id))) throw notFound('checkup');
    return { code: 'checkup_updated', data: await checkupsOf(db, patient.id) };
  });
}

/** Comments and check-up dates of the Patient details tab (spec 2 §7). */
export function patientNoteRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  commentRoutes(app, ctx);
  checkupRoutes(app, ctx);
}
