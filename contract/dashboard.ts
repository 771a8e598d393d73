/** Request schemas of the dashboard (spec 1 §7): the one call that takes input, marking a notification read. */
import { Type } from '@sinclair/typebox';
import { id } from './common';

/** POST /physician/update-notification/id=:id (the path names the notification, so `id` is always there). */
export const NotificationIdParams = Type.Object({ id });
