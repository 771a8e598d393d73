/** Request schemas of the practice screens: calendar and appointments (issue 17 point 5). */
import { Type, type Static } from '@sinclair/typebox';
import { isoDay, Strict, StringEnum } from './common';

/** GET /practice/calendar: the first and last day shown. */
export const CalendarQuery = Strict({ from: isoDay, to: isoDay });

/** GET /practice/appointments: the check-ups still to come (the default) or those done. */
export const AppointmentsQuery = Strict({ when: Type.Optional(StringEnum(['upcoming', 'past'])) });
export type AppointmentsQuery = Static<typeof AppointmentsQuery>;

/** A practice calendar entry: a check-up, a device's return (end of an allocation) or a booking (an allocation not yet begun). */
export interface CalendarEvent {
  kind: 'checkup' | 'return' | 'booking';
  /** The day in the patient's time zone (YYYY-MM-DD). */
  date: string;
  patient_id: number;
  patient_code: string;
  patient_name: string;
  timezone: string | null;
  /** Check-ups: done or not. */
  completed?: boolean;
  checkup_date_id?: number;
  /** Returns and bookings: the device, the instant, whether it came back already. */
  device_id?: string;
  at_ms?: number;
  returned?: boolean;
}
