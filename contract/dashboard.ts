/** Request and answer schemas of the dashboard (spec 1 §7): widgets, notifications, device notices, triage. */
import { Type, type Static } from '@sinclair/typebox';
import { id, Nullable, Strict } from './common';

/** POST /physician/update-notification/id=:id (the path names the notification, so `id` is always there). */
export const NotificationIdParams = Type.Object({ id });

/** POST /physician/triage/prepare: no fields (the practice is the caller's). */
export const TriagePrepareBody = Strict({});

/** POST /physician/night-seen: the physician opened this night's review screen (it is seen). */
export const NightSeenBody = Strict({ patient_id: id, recording_id: id });

// ---- Answers ----

const Str = Type.String();
const Int = Type.Integer();

/** A night of the practice in the widgets' lists. */
export const NightRef = Type.Object({
  patient_id: Int,
  patient_code: Str,
  /** Night key, Unix seconds. */
  night: Type.Number(),
  recording_id: Int,
  /** When the night ended, ms. */
  stop_ms: Type.Number(),
});
export type NightRef = Static<typeof NightRef>;

/** GET /physician/widgets: the dashboard's counts and lists (spec 1 §1). */
export const Widgets = Type.Object({
  flagged_patients: Int,
  unseen_recordings: Int,
  deployed_devices: Int,
  available_devices: Int,
  overdue_devices: Int,
  todays_returns: Type.Array(Type.Object({ device_id: Str, patient_id: Int, patient_code: Str })),
  past_night_recordings: Type.Array(NightRef),
  last_recordings: Type.Array(NightRef),
  /** Devices out for more than a day whose patient has no night that ended in the last 24 hours (last_stop_ms null: no night at all). */
  no_recent_data: Type.Array(Type.Object({ patient_id: Int, patient_code: Str, last_stop_ms: Nullable(Type.Number()) })),
});
export type Widgets = Static<typeof Widgets>;

/** One night's notification (spec 1 §3 "Physician notification"). */
export const PhysicianNotification = Type.Object({
  id: Int,
  patient_id: Int,
  patient_code: Str,
  night: Type.Number(),
  /** 1 once read. */
  is_read: Int,
  /** Apneas and hypopneas of the night; null when it has no breathing signal (ahi_basis 'no_breathing_signal', or none during its sleep): no count. */
  apnea_events: Nullable(Int),
  /** The stored analysis's basis ('breathing_signal', 'no_breathing_signal', 'no_breathing_signal_in_sleep'); null before the night is analysed under today's settings. */
  ahi_basis: Nullable(Str),
});
export type PhysicianNotification = Static<typeof PhysicianNotification>;

/** GET /physician/get-notifications: the latest 50. */
export const NotificationsAnswer = Type.Object({ notifications: Type.Array(PhysicianNotification) });

/** POST /physician/generate-notifications: how many were made. */
export const NotificationsMade = Type.Object({ created: Int });

/** GET /physician/deallocation-notifications: devices due back (today or earlier) and reserved within two days, days in the booking's zone (YYYY-MM-DD). */
export const DeviceNotices = Type.Object({
  deallocations: Type.Array(Type.Object({ device_id: Str, device_deallocation_date: Nullable(Str) })),
  reserved: Type.Array(Type.Object({ device_id: Str, allocated_date: Nullable(Str) })),
});
export type DeviceNotices = Static<typeof DeviceNotices>;
