/**
 * POST /analytics/patient/get-annotation-columns (issue 36 point 1, decision 0994): the night's
 * annotation list for the single-night screen in one compact answer. The rows' JSON is built by
 * the database as one text value: read as rows, 10,000 annotations cost PGlite's JS side 250–500
 * ms to turn into objects (the query itself ~50 ms), then `present()` and the serialiser of
 * 6.8 MB of objects; as columns they are 0.94 MB and 50–150 ms in all (machine at load 5–10).
 */
import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AnnotationColumns, AnnotationColumnsBody } from '../../contract/annotations';
import { recordingsEndpoints } from '../../contract/endpoints/recordings';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import type { Queryable } from '../db/adapter';
import type { UserRow } from '../auth/users';
import { visiblePatient, type PatientRef } from '../patients/access';
import { listRecordings, type RecordingRow } from '../recordings/store';
import { blindRounds, seesDeviceEvents } from '../scoring/visibility';
import { nightOf } from './annotations';
import { deviceAnnotations } from './device';
import { annotationColumnPage } from './repository';

/** The answer: a page of columns, the authors, the device events on the first page, the cursor of the next. */
async function annotationColumns(db: Queryable, user: UserRow, patient: PatientRef, night: RecordingRow | null, body: AnnotationColumnsBody): Promise<AnnotationColumns> {
  const [start, id] = body.cursor ? body.cursor.split(':').map(Number) : [null, null];
  const cursor = start === null ? null : { start, id: id! };
  const page = await annotationColumnPage(db, { patientId: patient.id, night: night?.night_key ?? null, includeDeleted: body.include_deleted === true, cursor, limit: body.limit ?? null, userId: user.id });
  const columns = JSON.parse(page.columns) as AnnotationColumns['columns'];
  const n = Number(page.n);
  let device: AnnotationColumns['device'] = [];
  if (!cursor) {
    // The night's (or every night's) device-scored events, as the list gives them.
    const nights = night ? [night] : await listRecordings(db, patient.id);
    const blind = await blindRounds(db, user.id);
    device = (await deviceAnnotations(db, patient.id, patient.physician_id, nights)).filter((a) => seesDeviceEvents(blind, a.recording_id));
  }
  const full = body.limit !== undefined && n === body.limit;
  return { columns, authors: JSON.parse(page.authors) as AnnotationColumns['authors'], device, next_cursor: full ? `${columns.start_ms[n - 1]}:${columns.annotation_map_id[n - 1]}` : null };
}

/** The compact list's route (beside annotationRoutes, whose list call it answers in columns). */
export function annotationColumnRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  app.post('/analytics/patient/get-annotation-columns', { preHandler: authenticate(ctx), schema: recordingsEndpoints['POST /analytics/patient/get-annotation-columns'] }, async (request) => {
    const user = currentUser(request);
    const patient = await visiblePatient(ctx.db, user, request.body.patient_id, 'read');
    const hasNight = request.body.night !== undefined || request.body.recording_date !== undefined;
    const night = hasNight ? await nightOf(ctx.db, patient, request.body) : null;
    return { status: 'success' as const, data: await annotationColumns(ctx.db, user, patient, night, request.body) };
  });
}
