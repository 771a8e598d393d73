import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { DateTime } from 'luxon';
import { DAY_MS } from '../../engine/constants';
import { actingPhysicianId, type UserRow } from '../auth/users';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden } from '../errors';
import { analyticsSettings } from '../analytics/settings';
import { savedLabelMap } from '../recordings/import';
import { AppointmentsQuery, CalendarQuery, type CalendarEvent } from '../../contract/practice';

/** The longest span one calendar request may cover: a month grid of six weeks, with room. */
const CALENDAR_MAX_DAYS = 62;
/** Past check-ups listed at most (newest first). */
const PAST_CHECKUPS_LIMIT = 200;

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

/** Calendar, appointments and settings of the caller's practice (issue 17 point 5). */
export function practiceRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  const { db } = ctx;

  app.get(
    '/practice/calendar',
    { preHandler: auth, schema: { querystring: CalendarQuery } },
    async (request) => {
      const physicianId = actingPhysicianId(member(request));
      const from = dayOf(request.query.from, 'from');
      const to = dayOf(request.query.to, 'to');
      if (to < from) throw new ApiError(400, 'validation_failed', 'to must not be before from.', { fieldRule: { field: 'to', rule: 'order' } });
      if (to.diff(from, 'days').days + 1 > CALENDAR_MAX_DAYS) {
        throw new ApiError(400, 'validation_failed', `A calendar request covers at most ${CALENDAR_MAX_DAYS} days.`, { fieldRule: { field: 'to', rule: 'span' } });
      }
      const fromIso = from.toISODate()!;
      const toIso = to.toISODate()!;
      const checkups = await db.query<{ checkup_date_id: number; date: string; done: number; patient_id: number; patient_code: string; first_name: string; last_name: string; timezone: string | null }>(
        `select c.checkup_date_id, to_char(c.checkup_date, 'YYYY-MM-DD') as date, c.mark_as_complete_flag as done,
                p.id as patient_id, p.patient_code, p.first_name, p.last_name,
                (select a.timezone from device_allocations a where a.patient_id = p.id order by a.allocation_ms desc limit 1) as timezone
         from checkup_dates c join patients p on p.id = c.patient_id
         where p.physician_id = $1 and c.checkup_date between $2::date and $3::date
         order by c.checkup_date, p.patient_code`,
        [physicianId, fromIso, toIso],
      );
      // Instants a day either side of the range, then each kept by its day in its own time zone.
      const lo = from.toMillis() - DAY_MS;
      const hi = to.toMillis() + 2 * DAY_MS;
      const allocations = await db.query<{ allocation_ms: string; deallocation_ms: string; returned_ms: string | null; status: string; timezone: string; device_id: string; patient_id: number; patient_code: string; first_name: string; last_name: string }>(
        `select a.allocation_ms, a.deallocation_ms, a.returned_ms, a.status, a.timezone, d.device_id, p.id as patient_id, p.patient_code, p.first_name, p.last_name
         from device_allocations a join patients p on p.id = a.patient_id join devices d on d.device_master_id = a.device_master_id
         where p.physician_id = $1 and a.status <> 'cancelled'
           and ((coalesce(a.returned_ms, a.deallocation_ms) between $2 and $3) or (a.allocation_ms between $2 and $3))`,
        [physicianId, lo, hi],
      );
      const now = Date.now();
      const inRange = (date: string) => date >= fromIso && date <= toIso;
      const name = (r: { first_name: string; last_name: string }) => `${r.first_name} ${r.last_name}`.trim();
      const events: CalendarEvent[] = checkups.map((c) => ({
        kind: 'checkup',
        date: c.date,
        patient_id: c.patient_id,
        patient_code: c.patient_code,
        patient_name: name(c),
        timezone: c.timezone,
        completed: c.done === 1,
        checkup_date_id: c.checkup_date_id,
      }));
      for (const a of allocations) {
        const localDay = (ms: number) => DateTime.fromMillis(ms, { zone: a.timezone }).toISODate() ?? '';
        const base = { patient_id: a.patient_id, patient_code: a.patient_code, patient_name: name(a), timezone: a.timezone, device_id: a.device_id };
        const end = Number(a.returned_ms ?? a.deallocation_ms);
        const start = Number(a.allocation_ms);
        if (inRange(localDay(end))) events.push({ kind: 'return', date: localDay(end), at_ms: end, returned: a.status === 'returned', ...base });
        if (start > now && inRange(localDay(start))) events.push({ kind: 'booking', date: localDay(start), at_ms: start, ...base });
      }
      events.sort((x, y) => (x.date === y.date ? x.patient_code.localeCompare(y.patient_code) : x.date < y.date ? -1 : 1));
      return { data: { from: fromIso, to: toIso, events } };
    },
  );

  app.get(
    '/practice/appointments',
    { preHandler: auth, schema: { querystring: AppointmentsQuery } },
    async (request) => {
      const physicianId = actingPhysicianId(member(request));
      const past = request.query.when === 'past';
      // The spec's check-up lists: upcoming are not complete (soonest first), past are complete (latest first).
      const rows = await db.query<{ checkup_date_id: number; checkup_date: string; done: number; patient_id: number; patient_code: string; first_name: string; last_name: string }>(
        `select c.checkup_date_id, to_char(c.checkup_date, 'YYYY-MM-DD') as checkup_date, c.mark_as_complete_flag as done,
                p.id as patient_id, p.patient_code, p.first_name, p.last_name
         from checkup_dates c join patients p on p.id = c.patient_id
         where p.physician_id = $1 and c.mark_as_complete_flag = $2
         order by c.checkup_date ${past ? 'desc' : 'asc'}, p.patient_code
         limit ${PAST_CHECKUPS_LIMIT}`,
        [physicianId, past ? 1 : 0],
      );
      return {
        data: rows.map((r) => ({
          checkup_date_id: r.checkup_date_id,
          checkup_date: r.checkup_date,
          completed: r.done === 1,
          patient_id: r.patient_id,
          patient_code: r.patient_code,
          patient_name: `${r.first_name} ${r.last_name}`.trim(),
        })),
      };
    },
  );

  app.get('/practice/settings', { preHandler: auth }, async (request) => {
    const user = member(request);
    const physicianId = actingPhysicianId(user);
    const analytics = await analyticsSettings(db, physicianId);
    const categories = await db.query<{ label_id: number; label: string; color_code: string; type: 'custom' | 'built-in'; code: string | null; version: number; patient_id: number | null; patient_code: string | null }>(
      `select c.label_id, c.label, c.color_code, c.type, c.code, c.version, c.patient_id, p.patient_code
       from annotation_categories c left join patients p on p.id = c.patient_id
       where c.deleted_at is null and (c.type = 'built-in' or p.physician_id = $1)
       order by c.type desc, p.patient_code nulls first, c.label_id`,
      [physicianId],
    );
    return {
      data: {
        desaturation_rule: analytics.desaturationRule,
        rii_divisor: analytics.riiDivisor,
        label_map: await savedLabelMap(db, physicianId),
        categories,
        editable: { analytics: ownsSettings(user), label_map: !user.is_annotator, categories: true },
      },
    };
  });
}
