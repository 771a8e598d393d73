/** Request schemas of the dashboard (spec 1 §7): the one call that takes input, marking a notification read. */
import { Type } from '@sinclair/typebox';
import { id, Strict } from './common';

/** POST /physician/update-notification/id=:id (the path names the notification, so `id` is always there). */
export const NotificationIdParams = Type.Object({ id });

/** POST /physician/triage/prepare: no fields (the practice is the caller's). */
export const TriagePrepareBody = Strict({});

/** POST /physician/night-seen: the physician opened this night's review screen (it is seen). */
export const NightSeenBody = Strict({ patient_id: id, recording_id: id });
