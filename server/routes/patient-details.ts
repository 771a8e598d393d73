import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { visiblePatient } from '../patients/access';

/** The user id of the system account whose patients are sample patients (spec 1 §2, spec 2 §2). */
export const SAMPLE_PATIENT_CREATOR = 2112;

/** GET /patient/details?patient_id: the patient_info of one visible patient. */
export function patientDetailRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Querystring: { patient_id: number } }>(
    '/patient/details',
    {
      preHandler: authenticate(ctx),
      schema: { querystring: { type: 'object', required: ['patient_id'], properties: { patient_id: { type: 'integer', minimum: 1 } } } },
    },
    async (request) => {
      const patient = await visiblePatient(ctx.db, currentUser(request), request.query.patient_id);
      const [info] = await ctx.db.query<Record<string, unknown>>(
        `select p.id as patient_id, p.patient_code, p.first_name, p.last_name, p.email_id, p.gender,
                to_char(p.date_of_birth, 'YYYY-MM-DD') as date_of_birth, p.at_risk,
                p.height::float8 as height, p.weight::float8 as weight, p.bmi::float8 as bmi,
                p.vital_parameters, p.comment, p.country, p.address, p.tags, p.active_flag,
                p.created_by, p.created_at as "createdAt", p.physician_id, p.phys_device_return_date,
                coalesce(string_agg(d.disease_description, ',' order by d.disease_id), '') as diseases,
                coalesce(string_agg(d.disease_id::text, ',' order by d.disease_id), '') as "diseaseIds",
                (select r.device_id from recordings r where r.patient_id = p.id order by r.start_ms desc limit 1) as device_id
         from patients p
         left join patient_diseases pd on pd.patient_id = p.id
         left join diseases d on d.disease_id = pd.disease_id
         where p.id = $1
         group by p.id`,
        [patient.id],
      );
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
