import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { actingPhysicianId } from '../auth/users';
import { patientsEndpoints } from '../../contract/endpoints/patients';
import { patientList, unseenRecordings } from './list-repository';

/** The patient list and the past-patients archive (spec 1 §2). */
export function patientRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  // Serialised by its schema (contract/patients.ts PatientListRow): the list is the most requested call.
  app.get('/physician/patients', { preHandler: authenticate(ctx), schema: patientsEndpoints['GET /physician/patients'] }, async (request) => {
    const user = currentUser(request);
    if (user.role === 'admin') return { data: { patients: [] } };
    const patients = await patientList(ctx.db, actingPhysicianId(user), request.query.archive === true, Date.now());
    return { data: { patients } };
  });

  app.get('/physician/patients/unseen-recordings', { preHandler: authenticate(ctx), schema: patientsEndpoints['GET /physician/patients/unseen-recordings'] }, async (request) => {
    const user = currentUser(request);
    const rows = await unseenRecordings(ctx.db, actingPhysicianId(user), Date.now());
    return { data: { recordings: rows } };
  });
}
