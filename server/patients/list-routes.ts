import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { actingPhysicianId } from '../auth/users';
import { flaggedSql } from './flagged';
import { PatientListQuery } from '../../contract/patients';
import { DAY_MS } from '../../engine/constants';
import { THE_NIGHT_SQL } from '../recordings/store';

const LIST = `
  select p.id as patient_id, p.patient_code, p.first_name, p.last_name, p.email_id, p.gender,
         to_char(p.date_of_birth, 'YYYY-MM-DD') as date_of_birth, p.at_risk, p.created_by, p.active_flag,
         p.unread_data_nights, p.phys_device_return_date, p.country, ${flaggedSql('p')} as flagged,
         d.device_id, d.device_master_id, a.device_user_map_id, a.allocation_ms as device_allocation_date,
         a.deallocation_ms as device_deallocation_date, a.window_start_time, a.window_end_time, a.timezone,
         (select max(r.night_key) from recordings r where r.patient_id = p.id) as last_night,
         exists (select 1 from recordings r where r.patient_id = p.id and r.stop_ms > $2::bigint - ${DAY_MS}) as recorded_last_night,
         -- Archive ready: the device came back (or the booking ran out) and nothing is booked.
         (a.device_user_map_id is null and exists (select 1 from device_allocations y where y.patient_id = p.id and y.status = 'returned')) as archive_ready
  from patients p
  left join lateral (
    select * from device_allocations x where x.patient_id = p.id and x.status = 'booked' order by x.allocation_ms limit 1
  ) a on true
  left join devices d on d.device_master_id = a.device_master_id
  where p.physician_id = $1`;

const int = { type: ['integer', 'null'] };
const str = { type: ['string', 'null'] };
/**
 * One row of the list, for fast-json-stringify (the list is the most requested call). Every
 * column of LIST is named; a column added to LIST and not here is still sent (as JSON.stringify would).
 */
const PATIENT_ROW = {
  type: 'object',
  additionalProperties: true,
  properties: {
    patient_id: { type: 'integer' },
    patient_code: { type: 'string' },
    first_name: { type: 'string' },
    last_name: { type: 'string' },
    email_id: { type: 'string' },
    gender: str,
    date_of_birth: str,
    at_risk: int,
    created_by: { type: 'integer' },
    active_flag: { type: 'boolean' },
    unread_data_nights: { type: 'integer' },
    phys_device_return_date: { type: ['string', 'null'], format: 'date-time' },
    country: str,
    device_id: str,
    device_master_id: int,
    device_user_map_id: int,
    device_allocation_date: int,
    device_deallocation_date: int,
    window_start_time: str,
    window_end_time: str,
    timezone: str,
    last_night: int,
    recorded_last_night: { type: 'boolean' },
    archive_ready: { type: ['boolean', 'null'] },
  },
};

/** The list's query as run: one prepared statement each for current and past patients. */
export function patientListQuery(archive: boolean): { sql: string; name: string } {
  return { sql: `${LIST} and (p.phys_device_return_date is ${archive ? 'not ' : ''}null) order by p.patient_code`, name: archive ? 'patient_archive' : 'patient_list' };
}

/** The patient list and the past-patients archive (spec 1 §2). */
export function patientRoutes(app: FastifyInstance, ctx: AppContext) {
  app.get<{ Querystring: PatientListQuery }>(
    '/physician/patients',
    {
      preHandler: authenticate(ctx),
      schema: {
        querystring: PatientListQuery,
        response: { 200: { type: 'object', properties: { data: { type: 'object', properties: { patients: { type: 'array', items: PATIENT_ROW } } } } } },
      },
    },
    async (request) => {
      const user = currentUser(request);
      if (user.role === 'admin') return { data: { patients: [] } };
      const { sql, name } = patientListQuery(request.query.archive === true);
      const patients = await ctx.db.query(sql, [actingPhysicianId(user), Date.now()], name);
      return { data: { patients } };
    },
  );

  app.get('/physician/patients/unseen-recordings', { preHandler: authenticate(ctx) }, async (request) => {
    const user = currentUser(request);
    const rows = await ctx.db.query(
      `select p.id as patient_id, p.patient_code, r.night_key as night, r.device_id, r.start_ms as recording_start_time
       from recordings r join patients p on p.id = r.patient_id
       where p.physician_id = $1 and r.stop_ms > $2::bigint - ${DAY_MS} and p.phys_device_return_date is null and ${THE_NIGHT_SQL('r')}
       order by r.stop_ms desc`,
      [actingPhysicianId(user), Date.now()],
    );
    return { data: { recordings: rows } };
  });
}
