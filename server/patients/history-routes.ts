import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { patientsEndpoints } from '../../contract/endpoints/patients';
import type { UserRow } from '../auth/users';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import type { Queryable } from '../db/adapter';
import { ApiError, forbidden, notFound } from '../errors';
import { visiblePatient } from './access';
import { HISTORY_FETCH_PATHS, HISTORY_KINDS, HISTORY_VALUE_MAX, historyProblem, type HistoryKind } from '../../contract/questionnaire-rules';
import { findLiveEntry, historyOf, insertHistoryEntry, removeHistoryEntry, updateHistoryEntry } from './history-repository';

const HISTORY_MESSAGES = {
  value: 'Please enter a value (symptom_medication_value).',
  valueTooLong: `A history value holds at most ${HISTORY_VALUE_MAX} characters (symptom_medication_value).`,
  timestamp: 'The timestamp must be a time from 2000 on and no later than tomorrow.',
} as const;

/** Annotators and admins read histories but do not write them; the physician and the practice's other members do. */
function writer(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.is_annotator || user.role === 'admin') throw forbidden('You cannot change a patient\'s histories.');
  return user;
}

function check(timestamp: number, value: string): string {
  const problem = historyProblem(timestamp, value, Date.now());
  if (problem === 'timestamp') throw new ApiError(400, 'validation_failed', HISTORY_MESSAGES.timestamp, { fieldRule: { field: 'timestamp', rule: 'range' } });
  if (problem) throw new ApiError(400, 'validation_failed', HISTORY_MESSAGES[problem], { fieldRule: { field: 'symptom_medication_value', rule: problem === 'value' ? 'required' : 'maxLength' } });
  return value.trim();
}

/** GET /patient/fetch-symptoms, /fetch-medications, /fetch-diet-plan ?patient_id (spec 2 §7). */
function fetchRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  for (const kind of HISTORY_KINDS) {
    app.get(
      HISTORY_FETCH_PATHS[kind],
      { preHandler: authenticate(ctx), schema: patientsEndpoints[`GET ${HISTORY_FETCH_PATHS[kind]}`] },
      async (request) => {
        const patient = await visiblePatient(ctx.db, currentUser(request), request.query.patient_id, 'read');
        return { data: { entries: await historyOf(ctx.db, patient.id, kind) } };
      },
    );
  }
}

/** The live entry `entryId` of a patient the caller may change, or 404. */
async function liveEntry(db: Queryable, patientId: number, entryId: number): Promise<{ id: number; kind: HistoryKind }> {
  const row = await findLiveEntry(db, patientId, entryId);
  if (!row) throw notFound('history_entry');
  return row;
}

/** Add, change and remove entries (our routes: the spec shows only the fetches). */
function writeRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  const { db } = ctx;

  app.post(
    '/patient/add-history-entry',
    {
      preHandler: auth,
      schema: patientsEndpoints['POST /patient/add-history-entry'],
    },
    async (request, reply) => {
      const user = writer(request);
      const patient = await visiblePatient(db, user, request.body.patient_id);
      const { kind, timestamp } = request.body;
      const value = check(timestamp, request.body.symptom_medication_value);
      await insertHistoryEntry(db, { patientId: patient.id, kind, timestamp, value, userId: user.id });
      return reply.code(201).send({ code: 'history_added', message: 'Entry added.', data: { entries: await historyOf(db, patient.id, kind) } });
    },
  );

  app.post(
    '/patient/update-history-entry',
    {
      preHandler: auth,
      schema: patientsEndpoints['POST /patient/update-history-entry'],
    },
    async (request) => {
      const user = writer(request);
      const patient = await visiblePatient(db, user, request.body.patient_id);
      const value = check(request.body.timestamp, request.body.symptom_medication_value);
      const entry = await liveEntry(db, patient.id, request.body.id);
      await updateHistoryEntry(db, entry.id, request.body.timestamp, value, user.id);
      return { code: 'history_updated', message: 'Entry updated.', data: { entries: await historyOf(db, patient.id, entry.kind) } };
    },
  );

  app.post(
    '/patient/delete-history-entry',
    { preHandler: auth, schema: patientsEndpoints['POST /patient/delete-history-entry'] },
    async (request) => {
      const user = writer(request);
      const patient = await visiblePatient(db, user, request.body.patient_id);
      const entry = await liveEntry(db, patient.id, request.body.id);
      // Kept with who removed it and when: a removal is part of the record.
      await removeHistoryEntry(db, entry.id, user.id);
      return { code: 'history_deleted', message: 'Entry removed.', data: { entries: await historyOf(db, patient.id, entry.kind) } };
    },
  );
}

/**
 * Histories of symptoms, medication and diet plan (spec 2 §3, §7): the practice's physician
 * and members write them on the Patient details tab, everyone who may see the patient reads
 * them (Summary tab).
 */
export function patientHistoryRoutes(app: FastifyInstance, ctx: AppContext) {
  fetchRoutes(app, ctx);
  writeRoutes(app, ctx);
}
