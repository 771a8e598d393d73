/** Request schemas of the practice screens: calendar and appointments (issue 17 point 5). */
import { Type, type Static } from '@sinclair/typebox';
import { isoDay, Strict, StringEnum } from './common';

/** GET /practice/calendar: the first and last day shown. */
export const CalendarQuery = Strict({ from: isoDay, to: isoDay });

/** GET /practice/appointments: the check-ups still to come (the default) or those done. */
export const AppointmentsQuery = Strict({ when: Type.Optional(StringEnum(['upcoming', 'past'])) });
export type AppointmentsQuery = Static<typeof AppointmentsQuery>;
