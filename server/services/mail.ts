import nodemailer from 'nodemailer';
import type { Queryable } from '../db/adapter';

interface Mail {
  to: string;
  subject: string;
  text: string;
  /** The one-time code the message carries, kept in the dev outbox for convenience. */
  code?: string;
}

export interface Mailer {
  readonly kind: 'smtp' | 'outbox';
  send(mail: Mail): Promise<void>;
}

/** Sends through an SMTP server given as smtp(s)://user:pass@host:port. */
export function smtpMailer(url: string, from: string): Mailer {
  const transport = nodemailer.createTransport(url);
  return {
    kind: 'smtp',
    async send(mail) {
      await transport.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text });
    },
  };
}

/**
 * Keeps messages in the mail_outbox table and prints them: for machines without SMTP.
 * With showCodes false (production) the printed line never carries the one-time code.
 * The line is for the person at the terminal (plain text, like the start-up lines), not the
 * server's log: a development server shows its codes there on purpose.
 */
export function outboxMailer(db: Queryable, print: (line: string) => void = (line) => console.log(line), showCodes = true): Mailer {
  return {
    kind: 'outbox',
    async send(mail) {
      await db.query('insert into mail_outbox (to_email, subject, body, code) values ($1, $2, $3, $4)', [
        mail.to,
        mail.subject,
        mail.text,
        mail.code ?? null,
      ]);
      print(`[mail] to ${mail.to}: ${mail.subject}${mail.code && showCodes ? ` (code ${mail.code})` : ''}`);
    },
  };
}
