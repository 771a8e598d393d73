import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { recordingsEndpoints } from '../../contract/endpoints/recordings';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { visiblePatient } from '../patients/access';
import { addCategory, deleteCategory, MAX_CATEGORIES, presentCategory, updateCategory, validateCategory } from './categories';
import { listCategories } from './repository';

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
      const { label, color } = validateCategory(request.body);
      const row = await addCategory(ctx.db, user, patient, label, color);
      return reply.code(201).send({ code: 'label_added', data: { label: presentCategory(row) } });
    },
  );

  app.post(
    '/patient/update-label',
    { preHandler: auth, schema: recordingsEndpoints['POST /patient/update-label'] },
    async (request) => {
      const user = currentUser(request);
      const { label, color } = validateCategory(request.body);
      const row = await updateCategory(ctx.db, user, request.body, label, color);
      return { code: 'label_updated', data: { label: presentCategory(row) } };
    },
  );

  app.post(
    '/patient/delete-label',
    { preHandler: auth, schema: recordingsEndpoints['POST /patient/delete-label'] },
    async (request) => {
      await deleteCategory(ctx.db, currentUser(request), request.body);
      return { code: 'label_deleted', message: 'Category deleted.' };
    },
  );
}
