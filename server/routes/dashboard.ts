import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DateTime } from 'luxon';
import { actingPhysicianId } from '../auth/users';
import type { AppContext } from '../context';
import { authenticate } from '../context';
import { dashboardUser } from './dashboardUser';
import { notFound } from '../errors';
import { analysisOf, analysisParams, ANALYSIS_VERSION } from '../analytics/analyse';
import { analyticsSettings } from '../analytics/settings';
import { LIVE_SQL, THE_NIGHT_SQL, type RecordingRow } from '../recordings/store';
import type { NightKpis } from '../../engine/detect';
import { flaggedSql } from '../patients/flagged';
import { DAY_MS } from '../../engine/constants';
import { deviceCounts, practiceDevices, silentPatients } from '../devices/status';
import { NightSeenBody, NotificationIdParams } from '../../contract/dashboard';
import { noteAccessOf } from '../audit/trail';

/** Nights a notification is made for: the last week. */
const NOTIFY_DAYS = 7;
/** Nights analysed per generate call, newest first (the analyses are cached for later screens). */
const NOTIFY_BATCH = 50;

/**
 * The dashboard (spec 1 §1 "The dashboard shows", §3 notifications, §7 calls): widget
 * counts and lists, and the physician's notifications, one per night of the last week.
 */
export function dashboardRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  const { db } = ctx;

  app.get('/physician/widgets', { preHandler: auth }, async (request) => {
    const physician = actingPhysicianId(dashboardUser(request));
    const now = Date.now();
    const [counts] = await db.query<Record<string, number>>(
      `select
         (select count(*)::int from patients p where p.physician_id = $1 and ${flaggedSql('p')}) as flagged_patients,
         (select count(*)::int from recordings r join patients p on p.id = r.patient_id
            left join physician_notifications n on n.recording_id = r.id
            where p.physician_id = $1 and r.stop_ms > $2::bigint - $3::bigint and coalesce(n.is_read, 0) = 0 and ${THE_NIGHT_SQL('r')}
              and not exists (select 1 from seen_nights s where s.recording_id = r.id)) as unseen_recordings`,
      [physician, now, NOTIFY_DAYS * DAY_MS],
    );
    // Today's returns: booked allocations whose return date, in the allocation's zone, is today.
    const booked = await db.query<{ device_id: string; patient_id: number; patient_code: string; deallocation_ms: number; timezone: string }>(
      `select d.device_id, p.id as patient_id, p.patient_code, a.deallocation_ms, a.timezone
       from device_allocations a join devices d on d.device_master_id = a.device_master_id join patients p on p.id = a.patient_id
       where a.physician_id = $1 and a.status = 'booked' and a.deallocation_ms between $2::bigint - $3::bigint and $2::bigint + $3::bigint`,
      [physician, now, 2 * DAY_MS],
    );
    const todaysReturns = booked.filter((b) => DateTime.fromMillis(Number(b.deallocation_ms), { zone: b.timezone }).hasSame(DateTime.now().setZone(b.timezone), 'day'));
    const recent = (sinceMs: number, limit: number) =>
      db.query<{ patient_id: number; patient_code: string; night: number; recording_id: number; stop_ms: number }>(
        `select p.id as patient_id, p.patient_code, r.night_key as night, r.id as recording_id, r.stop_ms
         from recordings r join patients p on p.id = r.patient_id
         where p.physician_id = $1 and r.stop_ms > $2::bigint and ${THE_NIGHT_SQL('r')} order by r.stop_ms desc limit $3`,
        [physician, sinceMs, limit],
      );
    // The device counts and the 24-hour panel read the rows the Data Center lists (one status rule).
    const devices = await practiceDevices(db, physician, now);
    return {
      data: {
        ...counts,
        ...deviceCounts(devices),
        todays_returns: todaysReturns.map(({ device_id, patient_id, patient_code }) => ({ device_id, patient_id, patient_code })),
        past_night_recordings: await recent(now - DAY_MS, 50),
        last_recordings: await recent(0, 5),
        no_recent_data: silentPatients(devices, now),
      },
    };
  });

  app.post('/physician/generate-notifications', { preHandler: auth }, async (request) => {
    const physician = actingPhysicianId(dashboardUser(request));
    const nights = await db.query<RecordingRow>(
      `select r.* from recordings r join patients p on p.id = r.patient_id
       where p.physician_id = $1 and r.stop_ms > $2::bigint and ${THE_NIGHT_SQL('r')}
         -- A night still recording gets its notification once it has ended: never a partial night's count.
         and not ${LIVE_SQL('r')}
         and not exists (select 1 from physician_notifications n where n.recording_id = r.id)
       order by r.stop_ms desc limit $3`,
      [physician, Date.now() - NOTIFY_DAYS * DAY_MS, NOTIFY_BATCH],
    );
    if (nights.length === 0) return { data: { created: 0 } };
    const settings = await analyticsSettings(db, physician);
    // The nights' stored KPIs in one query; a night not analysed yet is analysed (and stored) here.
    const stored = new Map(
      (
        await db.query<{ recording_id: number; kpis: NightKpis }>('select recording_id, kpis from night_analyses where recording_id = any($1::int[]) and params = $2 and engine_version = $3 and kpis is not null', [
          nights.map((n) => n.id),
          analysisParams(settings),
          ANALYSIS_VERSION,
        ])
      ).map((r) => [Number(r.recording_id), r.kpis]),
    );
    let created = 0;
    for (const night of nights) {
      const kpis = stored.get(night.id) ?? (await analysisOf(db, night, settings)).kpis;
      const rows = await db.query(
        `insert into physician_notifications (physician_id, patient_id, recording_id, night, apnea_events, is_read)
         values ($1, $2, $3, $4, $5, case when exists (select 1 from seen_nights where recording_id = $3) then 1 else 0 end)
         on conflict (recording_id) do nothing returning id`,
        [physician, night.patient_id, night.id, night.night_key, kpis.apneas + kpis.hypopneas],
      );
      created += rows.length;
    }
    return { data: { created } };
  });

  app.get('/physician/get-notifications', { preHandler: auth }, async (request) => {
    const physician = actingPhysicianId(dashboardUser(request));
    const settings = await analyticsSettings(db, physician);
    // The count the night's summary shows (its stored analysis under today's settings); the
    // count stored with the notification only until that analysis exists.
    const notifications = await db.query(
      `select n.id, n.patient_id, p.patient_code, n.night, n.is_read,
              -- No breathing signal: no count (null, with the basis), never "0 apneas".
              case when a.kpis->>'ahiBasis' = 'no_breathing_signal' then null
                else coalesce((a.kpis->>'apneas')::int + (a.kpis->>'hypopneas')::int, n.apnea_events) end as apnea_events,
              a.kpis->>'ahiBasis' as ahi_basis
       from physician_notifications n join patients p on p.id = n.patient_id
       left join night_analyses a on a.recording_id = n.recording_id and a.params = $2 and a.engine_version = $3
       where n.physician_id = $1
         and (n.recording_id is null or exists (select 1 from recordings r where r.id = n.recording_id and ${THE_NIGHT_SQL('r')}))
       order by n.night desc, n.id desc limit 50`,
      [physician, analysisParams(settings), ANALYSIS_VERSION],
    );
    return { data: { notifications } };
  });

  app.post(
    '/physician/update-notification/id=:id',
    { preHandler: auth, schema: { params: NotificationIdParams } },
    async (request) => {
      const physician = actingPhysicianId(dashboardUser(request));
      const rows = await db.query<{ patient_id: number; recording_id: number }>(
        'update physician_notifications set is_read = 1 where id = $1 and physician_id = $2 returning patient_id, recording_id',
        [request.params.id, physician],
      );
      if (rows.length === 0) throw notFound('notification');
      noteAccessOf(request, rows[0]!.patient_id, rows[0]!.recording_id);
      return { code: 'notification_read' };
    },
  );

  // Opening a night's review screen makes it seen (issue 32.4): its notification is read too.
  app.post('/physician/night-seen', { preHandler: auth, schema: { body: NightSeenBody } }, async (request) => {
    const user = dashboardUser(request);
    const physician = actingPhysicianId(user);
    const { patient_id, recording_id } = request.body;
    await db.transaction(async (tx) => {
      const [night] = await tx.query<{ id: number }>(
        'select r.id from recordings r join patients p on p.id = r.patient_id where r.id = $1 and r.patient_id = $2 and p.physician_id = $3',
        [recording_id, patient_id, physician],
      );
      if (!night) throw notFound('recording');
      await tx.query('insert into seen_nights (recording_id, seen_by) values ($1, $2) on conflict (recording_id) do nothing', [recording_id, user.id]);
      await tx.query('update physician_notifications set is_read = 1 where recording_id = $1 and physician_id = $2', [recording_id, physician]);
    });
    return { code: 'night_seen' };
  });

  app.get('/physician/deallocation-notifications', { preHandler: auth }, async (request) => {
    const physician = actingPhysicianId(dashboardUser(request));
    const now = Date.now();
    const dateOf = (ms: number, zone: string) => DateTime.fromMillis(Number(ms), { zone }).toISODate();
    // Due back today or earlier and not returned; reserved from now to two days ahead.
    const due = await db.query<{ device_id: string; deallocation_ms: number; timezone: string }>(
      `select d.device_id, a.deallocation_ms, a.timezone from device_allocations a join devices d on d.device_master_id = a.device_master_id
       where a.physician_id = $1 and a.status = 'booked' and a.deallocation_ms < $2::bigint order by a.deallocation_ms`,
      [physician, now + DAY_MS],
    );
    const reserved = await db.query<{ device_id: string; allocation_ms: number; timezone: string }>(
      `select d.device_id, a.allocation_ms, a.timezone from device_allocations a join devices d on d.device_master_id = a.device_master_id
       where a.physician_id = $1 and a.status = 'booked' and a.allocation_ms between $2::bigint and $2::bigint + $3::bigint order by a.allocation_ms`,
      [physician, now, 2 * DAY_MS],
    );
    return {
      data: {
        deallocations: due
          .filter((d) => dateOf(d.deallocation_ms, d.timezone)! <= DateTime.now().setZone(d.timezone).toISODate()!)
          .map((d) => ({ device_id: d.device_id, device_deallocation_date: dateOf(d.deallocation_ms, d.timezone) })),
        reserved: reserved.map((r) => ({ device_id: r.device_id, allocated_date: dateOf(r.allocation_ms, r.timezone) })),
      },
    };
  });
}
