import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { patientsEndpoints } from '../../contract/endpoints/patients';
import type { PatientInfo } from '../../contract/patient-details';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { visiblePatient } from './access';
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
      const [info] = await ctx.db.query<Omit<PatientInfo, 'vital_parameters' | 'is_sample_patient'> & { vital_parameters: unknown }>(
        `select p.id as patient_id, p.patient_code, p.first_name, p.last_name, p.email_id, p.gender,
                to_char(p.date_of_birth, 'YYYY-MM-DD') as date_of_birth, p.at_risk,
                p.height::float8 as height, p.weight::float8 as weight, p.bmi::float8 as bmi,
                p.vital_parameters, p.comment, p.country, p.address, p.tags, p.active_flag,
                p.created_by, p.created_at as "createdAt", p.physician_id, p.phys_device_return_date, p.version,
                coalesce(string_agg(d.disease_description, ',' order by d.disease_id), '') as diseases,
                coalesce(string_agg(d.disease_id::text, ',' order by d.disease_id), '') as "diseaseIds",
                coalesce(dv.device_id, (select r.device_id from recordings r where r.patient_id = p.id order by r.start_ms desc limit 1)) as device_id,
                dv.device_master_id, a.device_user_map_id, a.allocation_ms as device_allocation_date, a.deallocation_ms as device_deallocation_date,
                a.window_start_time, a.window_end_time, a.timezone
         from patients p
         left join lateral (
           select * from device_allocations x where x.patient_id = p.id and x.status = 'booked' order by x.allocation_ms limit 1
         ) a on true
         left join devices dv on dv.device_master_id = a.device_master_id
         left join patient_diseases pd on pd.patient_id = p.id
         left join diseases d on d.disease_id = pd.disease_id
         where p.id = $1
         group by p.id, dv.device_id, dv.device_master_id, a.device_user_map_id, a.allocation_ms, a.deallocation_ms, a.window_start_time, a.window_end_time, a.timezone`,
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
