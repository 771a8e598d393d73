/** Request schema of the development mail outbox (server/dev/routes.ts; never in production). */
import { Type, type Static } from '@sinclair/typebox';

/** GET /dev/outbox: the address whose mails are listed. */
export const OutboxQuery = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) });
export type OutboxQuery = Static<typeof OutboxQuery>;
