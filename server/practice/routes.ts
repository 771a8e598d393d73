import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DateTime } from 'luxon';
import { DAY_MS } from '../../engine/constants';
import { actingPhysicianId, type UserRow } from '../auth/users';
import type { AppContext } from '../context';
import type { Api } from '../typed-api';
import { allocationsBetween, appointments, checkupsBetween, practiceCategories, type CalendarAllocation, type CalendarCheckup } from './repository';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden } from '../errors';
import { analyticsSettings } from '../analytics/settings';
import { savedLabelMap } from '../recordings/import';
import { type CalendarEvent } from '../../contract/practice';
import { peopleEndpoints } from '../../contract/endpoints/people';

/** The longest span one calendar request may cover: a month grid of six weeks, with room. */
const CALENDAR_MAX_DAYS = 62;

/** The practice screens need a practice: administrators have none. */
function member(request: FastifyRequest): UserRow {
  const user = currentUser(request);
  if (user.role === 'admin') throw forbidden('Administrators have no practice calendar, appointments or settings.');
  return user;
}

/** Only the practice's own physician changes its analytics settings (as POST /physician/update-analytics-settings decides). */
const ownsSettings = (u: UserRow) => u.role === 'physician' && !u.is_annotator && u.physician_id === null && !u.is_secondary_user && !u.is_ternary_user;

const dayOf = (iso: string, field: string): DateTime => {
  const d = DateTime.fromISO(iso, { zone: 'UTC' });
  if (!d.isValid) throw new ApiError(400, 'validation_failed', `${field} must be a calendar day (YYYY-MM-DD).`, { fieldRule: { field, rule: 'date' } });
  return d;
};

const personName = (r: { first_name: string; last_name: string }) => `${r.first_name} ${r.last_name}`.trim();

/** The calendar's events: check-ups, and returns and future bookings on their local day in range, by day then patient. */
function calendarEvents(checkups: CalendarCheckup[], allocations: CalendarAllocation[], fromIso: string, toIso: string, now: number): CalendarEvent[] {
  const inRange = (date: string) => date >= fromIso && date <= toIso;
  const events: CalendarEvent[] = checkups.map((c) => ({
    kind: 'checkup',
    date: c.date,
    patient_id: c.patient_id,
    patient_code: c.patient_code,
    patient_name: personName(c),
    timezone: c.timezone,
    completed: c.done === 1,
    checkup_date_id: c.checkup_date_id,
  }));
  for (const a of allocations) {
    const localDay = (ms: number) => DateTime.fromMillis(ms, { zone: a.timezone }).toISODate() ?? '';
    const base = { patient_id: a.patient_id, patient_code: a.patient_code, patient_name: personName(a), timezone: a.timezone, device_id: a.device_id };
    const end = Number(a.returned_ms ?? a.deallocation_ms);
    const start = Number(a.allocation_ms);
    if (inRange(localDay(end))) events.push({ kind: 'return', date: localDay(end), at_ms: end, returned: a.status === 'returned', ...base });
    if (start > now && inRange(localDay(start))) events.push({ kind: 'booking', date: localDay(start), at_ms: start, ...base });
  }
  return events.sort((x, y) => (x.date === y.date ? x.patient_code.localeCompare(y.patient_code) : x.date < y.date ? -1 : 1));
}

/** The days [from, to] a calendar request asks for, checked: in order and at most CALENDAR_MAX_DAYS. */
function calendarRange(query: { from: string; to: string }): { from: DateTime; to: DateTime } {
  const from = dayOf(query.from, 'from');
  const to = dayOf(query.to, 'to');
  if (to < from) throw new ApiError(400, 'validation_failed', 'to must not be before from.', { fieldRule: { field: 'to', rule: 'order' } });
  if (to.diff(from, 'days').days + 1 > CALENDAR_MAX_DAYS) {
    throw new ApiError(400, 'validation_failed', `A calendar request covers at most ${CALENDAR_MAX_DAYS} days.`, { fieldRule: { field: 'to', rule: 'span' } });
  }
  return { from, to };
}

/** The practice's calendar and its check-up lists. */
function calendarRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  const { db } = ctx;
  app.get('/practice/calendar', { preHandler: auth, schema: peopleEndpoints['GET /practice/calendar'] }, async (request) => {
    const physicianId = actingPhysicianId(member(request));
    const { from, to } = calendarRange(request.query);
    const fromIso = from.toISODate()!;
    const toIso = to.toISODate()!;
    const checkups = await checkupsBetween(db, physicianId, fromIso, toIso);
    // Instants a day either side of the range, then each kept by its day in its own time zone.
    const allocations = await allocationsBetween(db, physicianId, from.toMillis() - DAY_MS, to.toMillis() + 2 * DAY_MS);
    return { data: { from: fromIso, to: toIso, events: calendarEvents(checkups, allocations, fromIso, toIso, Date.now()) } };
  });

  app.get('/practice/appointments', { preHandler: auth, schema: peopleEndpoints['GET /practice/appointments'] }, async (request) => {
    const rows = await appointments(db, actingPhysicianId(member(request)), request.query.when === 'past');
    return {
      data: rows.map((r) => ({
        checkup_date_id: r.checkup_date_id,
        checkup_date: r.checkup_date,
        completed: r.done === 1,
        patient_id: r.patient_id,
        patient_code: r.patient_code,
        patient_name: personName(r),
      })),
    };
  });
}

/** The practice's settings as one page shows them, with what the caller may change. */
function settingsRoutes(app: Api, ctx: AppContext) {
  app.get('/practice/settings', { preHandler: authenticate(ctx), schema: peopleEndpoints['GET /practice/settings'] }, async (request) => {
    const user = member(request);
    const physicianId = actingPhysicianId(user);
    const analytics = await analyticsSettings(ctx.db, physicianId);
    return {
      data: {
        desaturation_rule: analytics.desaturationRule,
        rii_divisor: analytics.riiDivisor,
        label_map: await savedLabelMap(ctx.db, physicianId),
        categories: await practiceCategories(ctx.db, physicianId),
        editable: { analytics: ownsSettings(user), label_map: !user.is_annotator, categories: true },
      },
    };
  });
}

/** Calendar, appointments and settings of the caller's practice (issue 17 point 5). */
export function practiceRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  calendarRoutes(app, ctx);
  settingsRoutes(app, ctx);
}
