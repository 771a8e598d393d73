import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { patientsEndpoints } from '../../contract/endpoints/patients';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { visiblePatient } from './access';
import { patientInfo } from './repository';
import { SAMPLE_PATIENT_CREATOR } from '../samples/samples';

/** GET /patient/details?patient_id: the patient_info of one visible patient. */
export function patientDetailRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/patient/details',
    {
      preHandler: authenticate(ctx),
      schema: patientsEndpoints['GET /patient/details'],
    },
    async (request) => {
      const patient = await visiblePatient(ctx.db, currentUser(request), request.query.patient_id, 'read');
      const info = await patientInfo(ctx.db, patient.id);
      const vital = info.vital_parameters;
      return {
        data: {
          patient_info: {
            ...info,
            vital_parameters: typeof vital === 'string' ? vital : JSON.stringify(vital ?? null),
            is_sample_patient: info.created_by === SAMPLE_PATIENT_CREATOR,
          },
        },
      };
    },
  );
}
