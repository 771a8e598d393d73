import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { actingPhysicianId } from '../auth/users';

/** The patient list (the full patient API arrives with patient management). */
export function patientRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get('/physician/patients', { preHandler: authenticate(ctx) }, async (request) => {
    const user = currentUser(request);
    if (user.role === 'admin') return { data: { patients: [] } };
    const patients = await ctx.db.query(
      `select p.id as patient_id, p.patient_code, p.first_name, p.last_name, p.gender,
              to_char(p.date_of_birth, 'YYYY-MM-DD') as date_of_birth, p.at_risk, p.created_by,
              null::text as device_id
       from patients p
       where p.physician_id = $1 and p.phys_device_return_date is null
       order by p.patient_code`,
      [actingPhysicianId(user)],
    );
    return { data: { patients } };
  });
}
