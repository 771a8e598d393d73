import type { Queryable } from '../db/adapter';

/** The last 50 messages the outbox mailer kept for an address, newest first. */
export function outboxMessages(db: Queryable, email: string) {
  return db.query<{ id: number; to_email: string; subject: string; body: string; code: string | null; created_at: Date }>(
    `select id, to_email, subject, body, code, created_at from mail_outbox where to_email = $1 order by id desc limit 50`,
    [email],
  );
}
