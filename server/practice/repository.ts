import type { Queryable } from '../db/adapter';

/** Past check-ups listed at most (newest first). */
const PAST_CHECKUPS_LIMIT = 200;

/** A check-up of the calendar, with its patient and the zone of their latest allocation. */
export interface CalendarCheckup {
  checkup_date_id: number;
  date: string;
  done: number;
  patient_id: number;
  patient_code: string;
  first_name: string;
  last_name: string;
  timezone: string | null;
}

/** An allocation of the calendar, with its device and patient. */
export interface CalendarAllocation {
  allocation_ms: string;
  deallocation_ms: string;
  returned_ms: string | null;
  status: string;
  timezone: string;
  device_id: string;
  patient_id: number;
  patient_code: string;
  first_name: string;
  last_name: string;
}

/** The practice's check-ups on the days [from, to] (YYYY-MM-DD). */
export function checkupsBetween(db: Queryable, physicianId: number, fromIso: string, toIso: string) {
  return db.query<CalendarCheckup>(
    `select c.checkup_date_id, to_char(c.checkup_date, 'YYYY-MM-DD') as date, c.mark_as_complete_flag as done,
            p.id as patient_id, p.patient_code, p.first_name, p.last_name,
            (select a.timezone from device_allocations a where a.patient_id = p.id order by a.allocation_ms desc limit 1) as timezone
     from checkup_dates c join patients p on p.id = c.patient_id
     where p.physician_id = $1 and c.checkup_date between $2::date and $3::date
     order by c.checkup_date, p.patient_code`,
    [physicianId, fromIso, toIso],
  );
}

/** The practice's allocations (not cancelled) that begin or end (are returned) between lo and hi (ms). */
export function allocationsBetween(db: Queryable, physicianId: number, lo: number, hi: number) {
  return db.query<CalendarAllocation>(
    `select a.allocation_ms, a.deallocation_ms, a.returned_ms, a.status, a.timezone, d.device_id, p.id as patient_id, p.patient_code, p.first_name, p.last_name
     from device_allocations a join patients p on p.id = a.patient_id join devices d on d.device_master_id = a.device_master_id
     where p.physician_id = $1 and a.status <> 'cancelled'
       and ((coalesce(a.returned_ms, a.deallocation_ms) between $2 and $3) or (a.allocation_ms between $2 and $3))`,
    [physicianId, lo, hi],
  );
}

/** The spec's check-up lists: upcoming are not complete (soonest first), past are complete (latest first). */
export function appointments(db: Queryable, physicianId: number, past: boolean) {
  return db.query<{ checkup_date_id: number; checkup_date: string; done: number; patient_id: number; patient_code: string; first_name: string; last_name: string }>(
    `select c.checkup_date_id, to_char(c.checkup_date, 'YYYY-MM-DD') as checkup_date, c.mark_as_complete_flag as done,
            p.id as patient_id, p.patient_code, p.first_name, p.last_name
     from checkup_dates c join patients p on p.id = c.patient_id
     where p.physician_id = $1 and c.mark_as_complete_flag = $2
     order by c.checkup_date ${past ? 'desc' : 'asc'}, p.patient_code
     limit ${PAST_CHECKUPS_LIMIT}`,
    [physicianId, past ? 1 : 0],
  );
}

/** The built-in categories and those of the practice's patients. */
export function practiceCategories(db: Queryable, physicianId: number) {
  return db.query<{ label_id: number; label: string; color_code: string; type: 'custom' | 'built-in'; code: string | null; version: number; patient_id: number | null; patient_code: string | null }>(
    `select c.label_id, c.label, c.color_code, c.type, c.code, c.version, c.patient_id, p.patient_code
     from annotation_categories c left join patients p on p.id = c.patient_id
     where c.deleted_at is null and (c.type = 'built-in' or p.physician_id = $1)
     order by c.type desc, p.patient_code nulls first, c.label_id`,
    [physicianId],
  );
}
