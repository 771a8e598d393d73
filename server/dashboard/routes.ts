import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DateTime } from 'luxon';
import { actingPhysicianId } from '../auth/users';
import type { AppContext } from '../context';
import { authenticate } from '../context';
import type { Api } from '../typed-api';
import { dashboardUser } from './dashboardUser';
import { notFound } from '../errors';
import { analysisOf, analysisParams, ANALYSIS_VERSION } from '../analytics/analyse';
import { analyticsSettings } from '../analytics/settings';
import { DAY_MS } from '../../engine/constants';
import { deviceCounts, practiceDevices, silentPatients } from '../devices/status';
import { patientsEndpoints } from '../../contract/endpoints/patients';
import { noteAccessOf } from '../audit/trail';
import { addNotification, dueAllocations, latestNotifications, markNightSeen, markNotificationRead, nightsToNotify, practiceNightExists, recentNights, reservedAllocations, returnsAround, storedKpis, widgetCounts } from './repository';

/** Nights a notification is made for: the last week. */
const NOTIFY_DAYS = 7;
/** Nights analysed per generate call, newest first (the analyses are cached for later screens). */
const NOTIFY_BATCH = 50;

/** The calendar day of an instant in a zone. */
const dateOf = (ms: number, zone: string) => DateTime.fromMillis(Number(ms), { zone }).toISODate();

/** The widgets' counts and lists. */
function widgetRoutes(app: Api, ctx: AppContext) {
  const { db } = ctx;
  app.get('/physician/widgets', { preHandler: authenticate(ctx), schema: patientsEndpoints['GET /physician/widgets'] }, async (request) => {
    const physician = actingPhysicianId(dashboardUser(request));
    const now = Date.now();
    const counts = await widgetCounts(db, physician, now, NOTIFY_DAYS);
    // Today's returns: booked allocations whose return date, in the allocation's zone, is today.
    const booked = await returnsAround(db, physician, now);
    const todaysReturns = booked.filter((b) => DateTime.fromMillis(Number(b.deallocation_ms), { zone: b.timezone }).hasSame(DateTime.now().setZone(b.timezone), 'day'));
    // The device counts and the 24-hour panel read the rows the Data Center lists (one status rule).
    const devices = await practiceDevices(db, physician, now);
    return {
      data: {
        ...counts,
        ...deviceCounts(devices),
        todays_returns: todaysReturns.map(({ device_id, patient_id, patient_code }) => ({ device_id, patient_id, patient_code })),
        past_night_recordings: await recentNights(db, physician, now - DAY_MS, 50),
        last_recordings: await recentNights(db, physician, 0, 5),
        no_recent_data: silentPatients(devices, now),
      },
    };
  });
}

/** Makes the notifications of the last week's ended nights that have none yet; how many it made. */
async function generateNotifications(ctx: AppContext, physician: number): Promise<number> {
  const { db } = ctx;
  const nights = await nightsToNotify(db, physician, Date.now() - NOTIFY_DAYS * DAY_MS, NOTIFY_BATCH);
  if (nights.length === 0) return 0;
  const settings = await analyticsSettings(db, physician);
  // The nights' stored KPIs in one query; a night not analysed yet is analysed (and stored) here.
  const stored = await storedKpis(db, nights.map((n) => n.id), analysisParams(settings), ANALYSIS_VERSION);
  let created = 0;
  for (const night of nights) {
    const kpis = stored.get(night.id) ?? (await analysisOf(db, night, settings)).kpis;
    created += await addNotification(db, physician, night, kpis.apneas + kpis.hypopneas);
  }
  return created;
}

/** The physician's notifications, one per night of the last week: made, listed, read. */
function notificationRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  const { db } = ctx;
  app.post('/physician/generate-notifications', { preHandler: auth, schema: patientsEndpoints['POST /physician/generate-notifications'] }, async (request) => ({
    data: { created: await generateNotifications(ctx, actingPhysicianId(dashboardUser(request))) },
  }));

  app.get('/physician/get-notifications', { preHandler: auth, schema: patientsEndpoints['GET /physician/get-notifications'] }, async (request) => {
    const physician = actingPhysicianId(dashboardUser(request));
    const settings = await analyticsSettings(db, physician);
    return { data: { notifications: await latestNotifications(db, physician, analysisParams(settings), ANALYSIS_VERSION) } };
  });

  app.post('/physician/update-notification/id=:id', { preHandler: auth, schema: patientsEndpoints['POST /physician/update-notification/id=:id'] }, async (request) => {
    const row = await markNotificationRead(db, request.params.id, actingPhysicianId(dashboardUser(request)));
    if (!row) throw notFound('notification');
    noteAccessOf(request, row.patient_id, row.recording_id);
    return { code: 'notification_read' };
  });

  // Opening a night's review screen makes it seen (issue 32.4): its notification is read too.
  app.post('/physician/night-seen', { preHandler: auth, schema: patientsEndpoints['POST /physician/night-seen'] }, async (request) => {
    const user = dashboardUser(request);
    const physician = actingPhysicianId(user);
    const { patient_id, recording_id } = request.body;
    await db.transaction(async (tx) => {
      if (!(await practiceNightExists(tx, recording_id, patient_id, physician))) throw notFound('recording');
      await markNightSeen(tx, recording_id, user.id, physician);
    });
    return { code: 'night_seen' };
  });
}

/** Devices due back (today or earlier, not returned) and reserved from now to two days ahead. */
function deallocationRoutes(app: Api, ctx: AppContext) {
  app.get('/physician/deallocation-notifications', { preHandler: authenticate(ctx), schema: patientsEndpoints['GET /physician/deallocation-notifications'] }, async (request) => {
    const physician = actingPhysicianId(dashboardUser(request));
    const now = Date.now();
    const due = await dueAllocations(ctx.db, physician, now + DAY_MS);
    const reserved = await reservedAllocations(ctx.db, physician, now);
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

/**
 * The dashboard (spec 1 §1 "The dashboard shows", §3 notifications, §7 calls): widget
 * counts and lists, and the physician's notifications, one per night of the last week.
 */
export function dashboardRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  widgetRoutes(app, ctx);
  notificationRoutes(app, ctx);
  deallocationRoutes(app, ctx);
}
