import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { recordingsEndpoints } from '../../contract/endpoints/recordings';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { visiblePatient } from '../patients/access';
import { annotationPage, createAnnotations, deleteAnnotations, nightOf, present, updateAnnotation } from './annotations';

/** The annotation calls of spec 2 §7. */
export function annotationRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);

  app.post('/analytics/patient/get-annotations', { preHandler: auth, schema: recordingsEndpoints['POST /analytics/patient/get-annotations'] }, async (request) => {
    const user = currentUser(request);
    const patient = await visiblePatient(ctx.db, user, request.body.patient_id, 'read');
    const hasNight = request.body.night !== undefined || request.body.recording_date !== undefined;
    const night = hasNight ? await nightOf(ctx.db, patient, request.body) : null;
    return { status: 'success' as const, data: await annotationPage(ctx.db, user, patient, night, request.body) };
  });

  app.post('/analytics/patient/new-annotations', { preHandler: auth, schema: recordingsEndpoints['POST /analytics/patient/new-annotations'] }, async (request, reply) => {
    const user = currentUser(request);
    const patient = await visiblePatient(ctx.db, user, request.body.patient_id);
    const night = await nightOf(ctx.db, patient, request.body);
    const created = await createAnnotations(ctx.db, user, patient, night, request.body.annotations ?? [request.body]);
    return reply.code(201).send({ code: 'annotation_added', data: { annotations: created.map(present) } });
  });

  app.post('/analytics/patient/update-annotations', { preHandler: auth, schema: recordingsEndpoints['POST /analytics/patient/update-annotations'] }, async (request) => {
    const row = await updateAnnotation(ctx.db, currentUser(request), request, request.body);
    return { code: row.delete_flag ? 'annotation_deleted' : 'annotation_updated', data: { annotation: present(row) } };
  });

  app.post('/analytics/patient/delete-annotations', { preHandler: auth, schema: recordingsEndpoints['POST /analytics/patient/delete-annotations'] }, async (request) => {
    const count = await deleteAnnotations(ctx.db, currentUser(request), request, request.body.ids);
    return { code: 'annotations_deleted', message: `${count} annotation${count === 1 ? '' : 's'} deleted.`, data: { deleted: count } };
  });
}
