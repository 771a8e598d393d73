import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from './config';
import type { Db } from './db/adapter';
import type { Mailer } from './services/mail';
import { checkSession } from './auth/tokens';
import type { UserRow } from './auth/users';
import { unauthorized } from './errors';
import type { NightStatsQueue } from './analytics/nightStats';
import type { AnswerCache } from './analytics/answerCache';
import type { Logger } from 'pino';

/** What every route module gets. */
export interface AppContext {
  db: Db;
  config: Config;
  mailer: Mailer;
  /** Nights whose stored statistics are to be (re)computed after a change (buildApp makes it). */
  nightStats?: NightStatsQueue;
  /** Serialised trend and triage answers kept under their revision (buildApp makes it). */
  answers?: AnswerCache;
  /** The server's one pino logger (buildApp makes it from the config unless given one; modules take children of it). */
  log?: Logger;
}

declare module 'fastify' {
  interface FastifyInstance {
    nightStats: NightStatsQueue;
    answers: AnswerCache;
  }
  interface FastifyRequest {
    user: UserRow | null;
    tokenId: number | null;
  }
}

/** preHandler: the request must carry a live session token of an active user. */
export function authenticate(ctx: AppContext) {
  return async (request: FastifyRequest, _reply: FastifyReply) => {
    const header = request.headers.authorization ?? '';
    const match = /^Bearer\s+(\S+)$/i.exec(header);
    if (!match) throw unauthorized();
    const session = await checkSession(ctx.db, match[1]);
    if (!session || session.user.status !== 'active') throw unauthorized();
    request.user = session.user;
    request.tokenId = session.tokenId;
  };
}

/** The signed-in user of a route behind authenticate(). */
export function currentUser(request: FastifyRequest): UserRow {
  if (!request.user) throw unauthorized();
  return request.user;
}
