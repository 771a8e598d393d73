import type { Static } from '@sinclair/typebox';
import type { Queryable } from '../db/adapter';
import type { PatientListRow, UnseenRecording } from '../../contract/patients';
import { DAY_MS } from '../../engine/constants';
import { THE_NIGHT_SQL } from '../recordings/store';
import { flaggedSql } from './flagged';

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

/** The list's query as run: one prepared statement each for current and past patients. */
export function patientListQuery(archive: boolean): { sql: string; name: string } {
  return { sql: `${LIST} and (p.phys_device_return_date is ${archive ? 'not ' : ''}null) order by p.patient_code`, name: archive ? 'patient_archive' : 'patient_list' };
}

/** The physician's current (or, with `archive`, past) patients, by code; `now` (ms) tells which recorded in the last day. */
export function patientList(db: Queryable, physicianId: number, archive: boolean, now: number): Promise<PatientListRow[]> {
  const { sql, name } = patientListQuery(archive);
  return db.query<PatientListRow>(sql, [physicianId, now], name);
}

/** The physician's current patients' nights that ended in the day before `now` (ms), newest first. */
export function unseenRecordings(db: Queryable, physicianId: number, now: number): Promise<Static<typeof UnseenRecording>[]> {
  return db.query<Static<typeof UnseenRecording>>(
    `select p.id as patient_id, p.patient_code, r.night_key as night, r.device_id, r.start_ms as recording_start_time
       from recordings r join patients p on p.id = r.patient_id
       where p.physician_id = $1 and r.stop_ms > $2::bigint - ${DAY_MS} and p.phys_device_return_date is null and ${THE_NIGHT_SQL('r')}
       order by r.stop_ms desc`,
    [physicianId, now],
  );
}
