import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { normaliseEmail } from '../auth/users';
import { ApiError } from '../errors';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { peopleEndpoints } from '../../contract/endpoints/people';
import { outboxMessages } from './repository';

const LOOPBACK = new Set(['127.0.0.1', '::1', '::ffff:127.0.0.1']);

/**
 * True when the request came from this machine: the TCP peer is loopback and no proxy on it
 * forwarded the request for someone else (a proxy on the same host is loopback too).
 */
const fromLoopback = (request: FastifyRequest) =>
  request.socket.remoteAddress !== undefined &&
  LOOPBACK.has(request.socket.remoteAddress) &&
  request.headers['x-forwarded-for'] === undefined &&
  request.headers.forwarded === undefined &&
  request.headers['x-real-ip'] === undefined;

/**
 * GET /dev/outbox?email=…: the messages the outbox mailer kept, newest first. Registered
 * only without SMTP and outside production, so a new user and the tests can sign in; it
 * answers only requests from this machine (anyone else gets 404, as if it did not exist),
 * since it hands out every account's sign-in and reset codes.
 */
export function devRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  app.get('/dev/outbox', { schema: peopleEndpoints['GET /dev/outbox'] }, async (request) => {
    if (!fromLoopback(request)) throw new ApiError(404, 'not_found', 'No such endpoint: GET /api/v1/dev/outbox', { params: { thing: 'endpoint' } });
    const rows = await outboxMessages(ctx.db, normaliseEmail(request.query.email));
    return {
      data: {
        messages: rows.map((r) => ({ id: r.id, to: r.to_email, subject: r.subject, text: r.body, code: r.code, created_at: r.created_at.toISOString() })),
      },
    };
  });
}
