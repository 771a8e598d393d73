/** Request schemas of the practice screens: calendar and appointments (issue 17 point 5). */
import { Type, type Static } from '@sinclair/typebox';
import { Strict, StringEnum } from './common';

/** A calendar day as the query names it; the route checks that it exists. */
const isoDay = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** GET /practice/calendar: the first and last day shown. */
export const CalendarQuery = Strict({ from: isoDay, to: isoDay });

/** GET /practice/appointments: the check-ups still to come (the default) or those done. */
export const AppointmentsQuery = Strict({ when: Type.Optional(StringEnum(['upcoming', 'past'])) });
export type AppointmentsQuery = Static<typeof AppointmentsQuery>;
