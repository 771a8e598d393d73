import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SMTPServer } from 'smtp-server';
import type { AddressInfo } from 'node:net';
import { createUser, DEMO_ACCOUNTS, DEMO_PASSWORD, startTestServer } from './helpers';

interface Received {
  to: string[];
  raw: string;
}

describe('mail over SMTP', () => {
  const received: Received[] = [];
  let smtp: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      onData(stream, session, done) {
        let raw = '';
        stream.on('data', (c: Buffer) => (raw += c.toString('utf8')));
        stream.on('end', () => {
          received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
          done();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', () => resolve()));
    port = (smtp.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => smtp.close(() => resolve())));

  it('sends the sign-in code through SMTP_URL and keeps no dev outbox', async () => {
    const server = await startTestServer({ SMTP_URL: `smtp://127.0.0.1:${port}?ignoreTLS=true` });
    try {
      const res = await server.call('POST', '/login', { body: { email: DEMO_ACCOUNTS.physician, password: DEMO_PASSWORD } });
      expect(res.statusCode).toBe(200);
      expect(received).toHaveLength(1);
      expect(received[0].to).toEqual([DEMO_ACCOUNTS.physician]);
      const code = /sign-in code is (\d{6})/.exec(received[0].raw)?.[1];
      expect(code).toMatch(/^\d{6}$/);
      expect((await server.call('GET', `/dev/outbox?email=${DEMO_ACCOUNTS.physician}`)).statusCode).toBe(404);
      const otp = await server.call('POST', '/verify-otp', { body: { email: DEMO_ACCOUNTS.physician, otp: code } });
      expect(otp.statusCode).toBe(202);
      const rows = await server.db.query('select * from mail_outbox');
      expect(rows).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('hides the dev outbox in production even without SMTP', async () => {
    const server = await startTestServer({ NODE_ENV: 'production' });
    try {
      // Production seeds no demo accounts: a real one signs in.
      const user = await createUser(server);
      await server.call('POST', '/login', { body: { email: user.email, password: user.password } });
      expect((await server.call('GET', `/dev/outbox?email=${user.email}`)).statusCode).toBe(404);
      const rows = await server.db.query<{ to_email: string }>('select to_email from mail_outbox');
      expect(rows.map((r) => r.to_email)).toEqual([user.email]);
    } finally {
      await server.close();
    }
  });
});
