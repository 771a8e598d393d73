/** Schemas of the practice screens: calendar, appointments and settings (issue 17 point 5). */
import { Type, type Static } from '@sinclair/typebox';
import { Enum, isoDay, Nullable, Strict, StringEnum } from './common';

/** GET /practice/calendar: the first and last day shown. */
export const CalendarQuery = Strict({ from: isoDay, to: isoDay });

/** GET /practice/appointments: the check-ups still to come (the default) or those done. */
export const AppointmentsQuery = Strict({ when: Type.Optional(StringEnum(['upcoming', 'past'])) });
export type AppointmentsQuery = Static<typeof AppointmentsQuery>;

const Str = Type.String();
const Int = Type.Integer();

/** A practice calendar entry: a check-up, a device's return (end of an allocation) or a booking (an allocation not yet begun). */
export const CalendarEvent = Type.Object({
  kind: Enum(['checkup', 'return', 'booking']),
  /** The day in the patient's time zone (YYYY-MM-DD). */
  date: Str,
  patient_id: Int,
  patient_code: Str,
  patient_name: Str,
  /** A check-up's: the zone of the patient's latest allocation, null without any. */
  timezone: Nullable(Str),
  /** Check-ups: done or not. */
  completed: Type.Optional(Type.Boolean()),
  checkup_date_id: Type.Optional(Int),
  /** Returns and bookings: the device, the instant (ms), whether it came back already. */
  device_id: Type.Optional(Str),
  at_ms: Type.Optional(Int),
  returned: Type.Optional(Type.Boolean()),
});
export type CalendarEvent = Static<typeof CalendarEvent>;

/** GET /practice/calendar: the days shown and their events, by day then patient. */
export const CalendarAnswer = Type.Object({ from: Str, to: Str, events: Type.Array(CalendarEvent) });

/** A check-up of GET /practice/appointments. */
export const Appointment = Type.Object({
  checkup_date_id: Int,
  /** YYYY-MM-DD. */
  checkup_date: Str,
  completed: Type.Boolean(),
  patient_id: Int,
  patient_code: Str,
  patient_name: Str,
});
export type Appointment = Static<typeof Appointment>;

export const RiiDivisor = Enum(['GSD', 'TST', 'TBT', 'TBR']);
export type RiiDivisor = Static<typeof RiiDivisor>;

/** An annotation category: the built-in ones and those of the practice's patients. */
export const PracticeCategory = Type.Object({
  label_id: Int,
  label: Str,
  color_code: Str,
  type: Enum(['custom', 'built-in']),
  /** A built-in category's code ('apnea', …); null for custom ones. */
  code: Nullable(Str),
  version: Int,
  patient_id: Nullable(Int),
  patient_code: Nullable(Str),
});
export type PracticeCategory = Static<typeof PracticeCategory>;

/** GET /practice/settings: every setting of the practice, and what the caller may change. */
export const PracticeSettings = Type.Object({
  desaturation_rule: Enum([3, 4]),
  rii_divisor: RiiDivisor,
  /** File label → channel code. */
  label_map: Type.Record(Str, Str),
  categories: Type.Array(PracticeCategory),
  editable: Type.Object({ analytics: Type.Boolean(), label_map: Type.Boolean(), categories: Type.Boolean() }),
});
export type PracticeSettings = Static<typeof PracticeSettings>;
