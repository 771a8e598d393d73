import type { Queryable } from '../db/adapter';
import type { PhysicianNotification } from '../../contract/dashboard';
import { LIVE_SQL, THE_NIGHT_SQL, type RecordingRow } from '../recordings/store';
import type { NightKpis } from '../../engine/detect';
import { flaggedSql } from '../patients/flagged';
import { DAY_MS } from '../../engine/constants';
import { ENGINE_VERSION } from '../../engine/index';
import { ANALYSIS_VERSION } from '../analytics/analyse';
import { TRIAGE_NIGHTS, type TriageNightRow } from '../analytics/triage';

const DAY_S = 86_400;

/** The widget counts: flagged patients, and nights of the last `days` neither read nor seen. */
export async function widgetCounts(db: Queryable, physicianId: number, now: number, days: number): Promise<{ flagged_patients: number; unseen_recordings: number }> {
  const [counts] = await db.query<{ flagged_patients: number; unseen_recordings: number }>(
    `select
       (select count(*)::int from patients p where p.physician_id = $1 and ${flaggedSql('p')}) as flagged_patients,
       (select count(*)::int from recordings r join patients p on p.id = r.patient_id
          left join physician_notifications n on n.recording_id = r.id
          where p.physician_id = $1 and r.stop_ms > $2::bigint - $3::bigint and coalesce(n.is_read, 0) = 0 and ${THE_NIGHT_SQL('r')}
            and not exists (select 1 from seen_nights s where s.recording_id = r.id)) as unseen_recordings`,
    [physicianId, now, days * DAY_MS],
  );
  return counts;
}

/** Booked allocations due back within two days of now, either side. */
export function returnsAround(db: Queryable, physicianId: number, now: number) {
  return db.query<{ device_id: string; patient_id: number; patient_code: string; deallocation_ms: number; timezone: string }>(
    `select d.device_id, p.id as patient_id, p.patient_code, a.deallocation_ms, a.timezone
     from device_allocations a join devices d on d.device_master_id = a.device_master_id join patients p on p.id = a.patient_id
     where a.physician_id = $1 and a.status = 'booked' and a.deallocation_ms between $2::bigint - $3::bigint and $2::bigint + $3::bigint`,
    [physicianId, now, 2 * DAY_MS],
  );
}

/** The practice's latest nights that ended after sinceMs, newest first. */
export function recentNights(db: Queryable, physicianId: number, sinceMs: number, limit: number) {
  return db.query<{ patient_id: number; patient_code: string; night: number; recording_id: number; stop_ms: number }>(
    `select p.id as patient_id, p.patient_code, r.night_key as night, r.id as recording_id, r.stop_ms
     from recordings r join patients p on p.id = r.patient_id
     where p.physician_id = $1 and r.stop_ms > $2::bigint and ${THE_NIGHT_SQL('r')} order by r.stop_ms desc limit $3`,
    [physicianId, sinceMs, limit],
  );
}

/** Ended nights since sinceMs that have no notification yet, newest first. */
export function nightsToNotify(db: Queryable, physicianId: number, sinceMs: number, limit: number) {
  return db.query<RecordingRow>(
    `select r.* from recordings r join patients p on p.id = r.patient_id
     where p.physician_id = $1 and r.stop_ms > $2::bigint and ${THE_NIGHT_SQL('r')}
       -- A night still recording gets its notification once it has ended: never a partial night's count.
       and not ${LIVE_SQL('r')}
       and not exists (select 1 from physician_notifications n where n.recording_id = r.id)
     order by r.stop_ms desc limit $3`,
    [physicianId, sinceMs, limit],
  );
}

/** The stored KPIs of these nights under the analysis parameters and engine version, by recording id. */
export async function storedKpis(db: Queryable, recordingIds: number[], params: string, engineVersion: string): Promise<Map<number, NightKpis>> {
  const rows = await db.query<{ recording_id: number; kpis: NightKpis }>('select recording_id, kpis from night_analyses where recording_id = any($1::int[]) and params = $2 and engine_version = $3 and kpis is not null', [
    recordingIds,
    params,
    engineVersion,
  ]);
  return new Map(rows.map((r) => [Number(r.recording_id), r.kpis]));
}

/** Adds a night's notification (read already when the night was seen); how many were added (0 or 1). */
export async function addNotification(db: Queryable, physicianId: number, night: RecordingRow, apneaEvents: number): Promise<number> {
  const rows = await db.query(
    `insert into physician_notifications (physician_id, patient_id, recording_id, night, apnea_events, is_read)
     values ($1, $2, $3, $4, $5, case when exists (select 1 from seen_nights where recording_id = $3) then 1 else 0 end)
     on conflict (recording_id) do nothing returning id`,
    [physicianId, night.patient_id, night.id, night.night_key, apneaEvents],
  );
  return rows.length;
}

/**
 * The physician's latest 50 notifications with the count the night's summary shows (its stored
 * analysis under today's settings); the count stored with the notification only until that analysis exists.
 */
export function latestNotifications(db: Queryable, physicianId: number, params: string, engineVersion: string) {
  return db.query<PhysicianNotification>(
    `select n.id, n.patient_id, p.patient_code, n.night, n.is_read,
            -- No breathing signal: no count (null, with the basis), never "0 apneas".
            case when a.kpis->>'ahiBasis' in ('no_breathing_signal', 'no_breathing_signal_in_sleep') then null
              else coalesce((a.kpis->>'apneas')::int + (a.kpis->>'hypopneas')::int, n.apnea_events) end as apnea_events,
            a.kpis->>'ahiBasis' as ahi_basis
     from physician_notifications n join patients p on p.id = n.patient_id
     left join night_analyses a on a.recording_id = n.recording_id and a.params = $2 and a.engine_version = $3
     where n.physician_id = $1
       and (n.recording_id is null or exists (select 1 from recordings r where r.id = n.recording_id and ${THE_NIGHT_SQL('r')}))
     order by n.night desc, n.id desc limit 50`,
    [physicianId, params, engineVersion],
  );
}

/** Marks one of the physician's notifications read; the patient and night it was about, if it exists. */
export async function markNotificationRead(db: Queryable, id: number, physicianId: number) {
  const [row] = await db.query<{ patient_id: number; recording_id: number }>(
    'update physician_notifications set is_read = 1 where id = $1 and physician_id = $2 returning patient_id, recording_id',
    [id, physicianId],
  );
  return row;
}

/** Whether a night of the physician's practice is this patient's. */
export async function practiceNightExists(tx: Queryable, recordingId: number, patientId: number, physicianId: number): Promise<boolean> {
  const rows = await tx.query<{ id: number }>(
    'select r.id from recordings r join patients p on p.id = r.patient_id where r.id = $1 and r.patient_id = $2 and p.physician_id = $3',
    [recordingId, patientId, physicianId],
  );
  return rows.length > 0;
}

/** Marks a night seen by this user (the first seeing counts) and its notification read. */
export async function markNightSeen(tx: Queryable, recordingId: number, userId: number, physicianId: number): Promise<void> {
  await tx.query('insert into seen_nights (recording_id, seen_by) values ($1, $2) on conflict (recording_id) do nothing', [recordingId, userId]);
  await tx.query('update physician_notifications set is_read = 1 where recording_id = $1 and physician_id = $2', [recordingId, physicianId]);
}

/** Booked allocations due back before `before`, by return date. */
export function dueAllocations(db: Queryable, physicianId: number, before: number) {
  return db.query<{ device_id: string; deallocation_ms: number; timezone: string }>(
    `select d.device_id, a.deallocation_ms, a.timezone from device_allocations a join devices d on d.device_master_id = a.device_master_id
     where a.physician_id = $1 and a.status = 'booked' and a.deallocation_ms < $2::bigint order by a.deallocation_ms`,
    [physicianId, before],
  );
}

/** Booked allocations that begin between now and two days ahead, by start. */
export function reservedAllocations(db: Queryable, physicianId: number, now: number) {
  return db.query<{ device_id: string; allocation_ms: number; timezone: string }>(
    `select d.device_id, a.allocation_ms, a.timezone from device_allocations a join devices d on d.device_master_id = a.device_master_id
     where a.physician_id = $1 and a.status = 'booked' and a.allocation_ms between $2::bigint and $2::bigint + $3::bigint order by a.allocation_ms`,
    [physicianId, now, 2 * DAY_MS],
  );
}

/**
 * Every night of the table in one query: the practice's patients under care, each night of
 * the last TRIAGE_NIGHTS days up to the patient's last ended one, with its stored analysis's KPIs
 * and its stored statistics of both SpO2 channels (null where not stored yet).
 */
const TRIAGE_SQL = `
  select p.id as patient_id, p.patient_code, p.first_name, p.last_name, ${flaggedSql('p')} as flagged,
         r.id as recording_id, r.night_key, a.kpis, s.stats as spo2_stats, sp.stats as spo2_psg_stats,
         exists (select 1 from recording_channels c where c.recording_id = r.id and c.code = 'SPO2') as has_spo2,
         exists (select 1 from recording_channels c where c.recording_id = r.id and c.code = 'SPO2_PSG') as has_spo2_psg
  from patients p
  left join lateral (select max(x.night_key) as last from recordings x where x.patient_id = p.id and not ${LIVE_SQL('x')}) l on true
  left join recordings r on r.patient_id = p.id and r.night_key > l.last - $4::bigint and not ${LIVE_SQL('r')} and ${THE_NIGHT_SQL('r')}
  left join night_analyses a on a.recording_id = r.id and a.params = $2 and a.engine_version = $3
  left join night_channel_stats s on s.recording_id = r.id and s.code = 'SPO2' and s.engine_version = $5
  left join night_channel_stats sp on sp.recording_id = r.id and sp.code = 'SPO2_PSG' and sp.engine_version = $5
  where p.physician_id = $1 and p.phys_device_return_date is null
  order by p.id, r.night_key`;

/** The triage table's nights of a physician's practice, with their analyses stored under `params` (TRIAGE_SQL). */
export function triageNights(db: Queryable, physicianId: number, params: string): Promise<TriageNightRow[]> {
  return db.query<TriageNightRow>(TRIAGE_SQL, [physicianId, params, ANALYSIS_VERSION, (TRIAGE_NIGHTS - 1) * DAY_S + 1, ENGINE_VERSION]);
}
