/** Schemas of the development mail outbox (server/dev/routes.ts; never in production). */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './common';

/** GET /dev/outbox: the address whose mails are listed. */
export const OutboxQuery = Type.Object({ email: Type.String({ minLength: 1, maxLength: 254 }) });
export type OutboxQuery = Static<typeof OutboxQuery>;

/** A message the outbox mailer kept. */
export const OutboxMessage = Type.Object({
  id: Type.Integer(),
  to: Type.String(),
  subject: Type.String(),
  text: Type.String(),
  /** The one-time code the message carries (sign-in or reset), null for other mail. */
  code: Nullable(Type.String()),
  /** ISO instant. */
  created_at: Type.String(),
});
export type OutboxMessage = Static<typeof OutboxMessage>;

/** GET /dev/outbox: the address's last 50 messages, newest first. */
export const OutboxAnswer = Type.Object({ messages: Type.Array(OutboxMessage) });
