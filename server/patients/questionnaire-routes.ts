import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DateTime } from 'luxon';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { findCountry } from '../countries';
import { ApiError, forbidden, notFound } from '../errors';
import { visiblePatient } from './access';
import { QUESTIONNAIRE_MESSAGES } from './questionnaires';
import { answersOf, findCheckup, saveCheckupAnswers } from './questionnaires-repository';
import { checkupProblem, type Answers } from '../../contract/questionnaire-rules';
import { patientsEndpoints } from '../../contract/endpoints/patients';

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
    { preHandler: auth, schema: patientsEndpoints['GET /device/qna'] },
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
    { preHandler: auth, schema: patientsEndpoints['POST /patient/checkup-questionnaire'] },
    async (request, reply) => {
      const user = currentUser(request);
      if (user.is_annotator || user.role === 'admin') throw forbidden('You cannot answer questionnaires.');
      const patient = await visiblePatient(db, user, request.body.patient_id);
      const { answers } = request.body;
      const problem = checkupProblem(answers);
      if (problem) throw new ApiError(400, 'validation_failed', QUESTIONNAIRE_MESSAGES.checkup, { fieldRule: { field: `answers.${problem}`, rule: 'choice' } });
      const checkup = await findCheckup(db, request.body.checkup_date_id, patient.id);
      if (!checkup) throw notFound('checkup');
      if (checkup.mark_as_complete_flag !== 1) throw new ApiError(409, 'checkup_not_complete', QUESTIONNAIRE_MESSAGES.notComplete);
      const note = typeof answers.note === 'string' ? answers.note.trim() : '';
      const stored: Answers = { ...answers };
      if (note) stored.note = note;
      else delete stored.note;
      await saveCheckupAnswers(db, patient.id, request.body.checkup_date_id, stored, user.id);
      const zone = findCountry(patient.country ?? '')?.timezone ?? 'UTC';
      return reply.code(201).send({ code: 'questionnaire_saved', message: 'Questionnaire saved.', data: { questionnaires: await answersOf(db, patient.id, zone, null) } });
    },
  );
}
