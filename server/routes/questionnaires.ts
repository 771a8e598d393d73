import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DateTime } from 'luxon';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { findCountry } from '../countries';
import type { Queryable } from '../db/adapter';
import { ApiError, forbidden, notFound } from '../errors';
import { visiblePatient } from '../patients/access';
import { checkupProblem, screeningProblem, type Answers, type QuestionnaireAnswers } from '../../contract/questionnaire-rules';
import { CheckupAnswersBody, QuestionnairesQuery } from '../../contract/questionnaires';

const QUESTIONNAIRE_MESSAGES = {
  screening: 'The screening answers must be no implanted device, not pregnant, not under age and the information sheet shared.',
  checkup: 'Answer every check-up question with one of its choices (the note holds at most 1000 characters).',
  notComplete: 'Mark the check-up as complete before answering its questionnaire.',
  date: 'The date must be a day (YYYY-MM-DD).',
} as const;

/** 400 unless the screening answers clear allocation (spec 1 §4). */
export function checkScreening(answers: Answers): Answers {
  const problem = screeningProblem(answers);
  if (problem) throw new ApiError(400, 'validation_failed', QUESTIONNAIRE_MESSAGES.screening, { fieldRule: { field: `screening_answers.${problem}`, rule: 'screening' } });
  return answers;
}

/** Keeps the screening answers that cleared an allocation (inside the caller's transaction). */
export async function saveScreening(tx: Queryable, patientId: number, deviceUserMapId: number | null, answers: Answers, userId: number): Promise<void> {
  await tx.query('insert into questionnaire_answers (patient_id, questionnaire, device_user_map_id, answers, answered_by) values ($1, $2, $3, $4, $5)', [
    patientId, 'screening', deviceUserMapId, JSON.stringify(answers), userId,
  ]);
}

/** A patient's questionnaires, newest first; `day` (yyyy-mm-dd in the patient's zone) keeps those answered that day. */
function answersOf(db: Queryable, patientId: number, zone: string, day: string | null): Promise<QuestionnaireAnswers[]> {
  return db.query<QuestionnaireAnswers>(
    `select q.id, q.questionnaire, q.answers, q.answered_by, trim(u.first_name || ' ' || u.last_name) as answered_by_name,
            to_char(q.answered_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') as answered_at,
            d.device_id, q.checkup_date_id, to_char(c.checkup_date, 'YYYY-MM-DD') as checkup_date
     from questionnaire_answers q
     join users u on u.id = q.answered_by
     left join device_allocations a on a.device_user_map_id = q.device_user_map_id
     left join devices d on d.device_master_id = a.device_master_id
     left join checkup_dates c on c.checkup_date_id = q.checkup_date_id
     where q.patient_id = $1 and ($3::text is null or to_char(q.answered_at at time zone $2, 'YYYY-MM-DD') = $3)
     order by q.answered_at desc, q.id desc`,
    [patientId, zone, day],
  );
}

/**
 * Questionnaire answers of the Patient details tab: GET /device/qna ?patient_id[&date]
 * (spec 2 §7; without a date, all of them) and the check-up questionnaire's answers.
 */
export function questionnaireRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  const { db } = ctx;

  app.get(
    '/device/qna',
    { preHandler: auth, schema: { querystring: QuestionnairesQuery } },
    async (request) => {
      const patient = await visiblePatient(db, currentUser(request), request.query.patient_id, 'read');
      const { date } = request.query;
      if (date !== undefined && !DateTime.fromFormat(date, 'yyyy-MM-dd', { zone: 'UTC' }).isValid) {
        throw new ApiError(400, 'validation_failed', QUESTIONNAIRE_MESSAGES.date, { fieldRule: { field: 'date', rule: 'format' } });
      }
      const zone = findCountry(patient.country ?? '')?.timezone ?? 'UTC';
      const questionnaires = await answersOf(db, patient.id, zone, date ?? null);
      // The spec's client reads code response_unavailable as "no answers" (spec 2 §8).
      return questionnaires.length ? { data: { questionnaires } } : { code: 'response_unavailable', message: 'No questionnaire answers.', data: { questionnaires } };
    },
  );

  app.post(
    '/patient/checkup-questionnaire',
    { preHandler: auth, schema: { body: CheckupAnswersBody } },
    async (request, reply) => {
      const user = currentUser(request);
      if (user.is_annotator || user.role === 'admin') throw forbidden('You cannot answer questionnaires.');
      const patient = await visiblePatient(db, user, request.body.patient_id);
      const { answers } = request.body;
      const problem = checkupProblem(answers);
      if (problem) throw new ApiError(400, 'validation_failed', QUESTIONNAIRE_MESSAGES.checkup, { fieldRule: { field: `answers.${problem}`, rule: 'choice' } });
      const [checkup] = await db.query<{ mark_as_complete_flag: number }>('select mark_as_complete_flag from checkup_dates where checkup_date_id = $1 and patient_id = $2', [
        request.body.checkup_date_id, patient.id,
      ]);
      if (!checkup) throw notFound('checkup');
      if (checkup.mark_as_complete_flag !== 1) throw new ApiError(409, 'checkup_not_complete', QUESTIONNAIRE_MESSAGES.notComplete);
      const note = typeof answers.note === 'string' ? answers.note.trim() : '';
      const stored: Answers = { ...answers };
      if (note) stored.note = note;
      else delete stored.note;
      await db.query('insert into questionnaire_answers (patient_id, questionnaire, checkup_date_id, answers, answered_by) values ($1, $2, $3, $4, $5)', [
        patient.id, 'checkup', request.body.checkup_date_id, JSON.stringify(stored), user.id,
      ]);
      const zone = findCountry(patient.country ?? '')?.timezone ?? 'UTC';
      return reply.code(201).send({ code: 'questionnaire_saved', message: 'Questionnaire saved.', data: { questionnaires: await answersOf(db, patient.id, zone, null) } });
    },
  );
}
