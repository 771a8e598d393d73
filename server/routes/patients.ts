import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { actingPhysicianId } from '../auth/users';
import { flaggedSql } from '../patients/flagged';

const LIST = `
  select p.id as patient_id, p.patient_code, p.first_name, p.last_name, p.email_id, p.gender,
         to_char(p.date_of_birth, 'YYYY-MM-DD') as date_of_birth, p.at_risk, p.created_by, p.active_flag,
         p.unread_data_nights, p.phys_device_return_date, p.country, ${flaggedSql('p')} as flagged,
         d.device_id, d.device_master_id, a.device_user_map_id, a.allocation_ms as device_allocation_date,
         a.deallocation_ms as device_deallocation_date, a.window_start_time, a.window_end_time, a.timezone,
         (select max(r.night_key) from recordings r where r.patient_id = p.id) as last_night,
         exists (select 1 from recordings r where r.patient_id = p.id and r.stop_ms > $2::bigint - 86400000) as recorded_last_night,
         -- Archive ready: the device came back (or the booking ran out) and nothing is booked.
         (a.device_user_map_id is null and exists (select 1 from device_allocations y where y.patient_id = p.id and y.status = 'returned')) as archive_ready
  from patients p
  left join lateral (
    select * from device_allocations x where x.patient_id = p.id and x.status = 'booked' order by x.allocation_ms limit 1
  ) a on true
  left join devices d on d.device_master_id = a.device_master_id
  where p.physician_id = $1`;

/** The patient list and the past-patients archive (spec 1 §2). */
export function patientRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Querystring: { archive?: boolean } }>(
    '/physician/patients',
    { preHandler: authenticate(ctx), schema: { querystring: { type: 'object', properties: { archive: { type: 'boolean' }, user_id: { type: 'integer' } } } } },
    async (request) => {
      const user = currentUser(request);
      if (user.role === 'admin') return { data: { patients: [] } };
      const archive = request.query.archive === true;
      const patients = await ctx.db.query(`${LIST} and (p.phys_device_return_date is ${archive ? 'not ' : ''}null) order by p.patient_code`, [actingPhysicianId(user), Date.now()]);
      return { data: { patients } };
    },
  );

  app.get('/physician/patients/unseen-recordings', { preHandler: authenticate(ctx) }, async (request) => {
    const user = currentUser(request);
    const rows = await ctx.db.query(
      `select p.id as patient_id, p.patient_code, r.night_key as night, r.device_id, r.start_ms as recording_start_time
       from recordings r join patients p on p.id = r.patient_id
       where p.physician_id = $1 and r.stop_ms > $2::bigint - 86400000 and p.phys_device_return_date is null
       order by r.stop_ms desc`,
      [actingPhysicianId(user), Date.now()],
    );
    return { data: { recordings: rows } };
  });
}
