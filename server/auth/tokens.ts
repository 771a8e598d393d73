import type { Db, Queryable } from '../db/adapter';
import { digest, newToken } from './secrets';
import type { UserRow } from './users';

export type TokenKind = 'session' | 'password_reset';

const HOUR = 3_600_000;
/** A session ends after 8 hours unused (as the client's idle sign-out) or 7 days in all. */
const SESSION_IDLE_MS = 8 * HOUR;
const SESSION_MAX_MS = 7 * 24 * HOUR;
const RESET_TOKEN_MS = 15 * 60_000;
/** Sliding expiry is written at most this often, not on every request. */
const TOUCH_EVERY_MS = 60_000;

/** Issues a token; only its digest is stored. */
export async function issueToken(db: Queryable, userId: number, kind: TokenKind): Promise<string> {
  const token = newToken();
  const now = Date.now();
  const idle = kind === 'session' ? SESSION_IDLE_MS : RESET_TOKEN_MS;
  const max = kind === 'session' ? SESSION_MAX_MS : RESET_TOKEN_MS;
  await db.query(
    `insert into auth_tokens (user_id, kind, token_hash, expires_at, absolute_expires_at) values ($1, $2, $3, $4, $5)`,
    [userId, kind, digest(token), new Date(now + idle), new Date(now + max)],
  );
  return token;
}

/** A session token's idle expiry slides, written at most once a minute. */
async function slide(db: Queryable, tokenId: number, expiresAt: Date): Promise<void> {
  if (expiresAt.getTime() - Date.now() >= SESSION_IDLE_MS - TOUCH_EVERY_MS) return;
  await db.query('update auth_tokens set expires_at = least(now() + $2::interval, absolute_expires_at) where id = $1', [
    tokenId,
    `${SESSION_IDLE_MS / 1000} seconds`,
  ]);
}

/** The user a live token of the kind belongs to, or null; a session token's idle expiry slides. */
export async function checkToken(db: Queryable, token: string, kind: TokenKind): Promise<{ userId: number; tokenId: number } | null> {
  const [row] = await db.query<{ id: number; user_id: number; expires_at: Date }>(
    `select id, user_id, expires_at from auth_tokens where token_hash = $1 and kind = $2 and revoked_at is null and expires_at > now() and absolute_expires_at > now()`,
    [digest(token), kind],
  );
  if (!row) return null;
  if (kind === 'session') await slide(db, row.id, row.expires_at);
  return { userId: row.user_id, tokenId: row.id };
}

/**
 * The user of a live session token and the token's id, in one prepared query (every
 * authenticated request runs it), or null. The idle expiry slides as in checkToken.
 */
export async function checkSession(db: Queryable, token: string): Promise<{ user: UserRow; tokenId: number } | null> {
  const [row] = await db.query<UserRow & { session_token_id: number; session_expires_at: Date }>(
    `select u.*, t.id as session_token_id, t.expires_at as session_expires_at
     from auth_tokens t join users u on u.id = t.user_id
     where t.token_hash = $1 and t.kind = 'session' and t.revoked_at is null
       and t.expires_at > now() and t.absolute_expires_at > now()`,
    [digest(token)],
    'check_session',
  );
  if (!row) return null;
  await slide(db, row.session_token_id, row.session_expires_at);
  const { session_token_id: tokenId, session_expires_at: _expires, ...user } = row;
  return { user, tokenId };
}

export async function revokeToken(db: Queryable, tokenId: number): Promise<void> {
  await db.query('update auth_tokens set revoked_at = now() where id = $1 and revoked_at is null', [tokenId]);
}

/** Ends every live token of a user (after a password reset). */
export async function revokeAllTokens(db: Queryable, userId: number): Promise<void> {
  await db.query('update auth_tokens set revoked_at = now() where user_id = $1 and revoked_at is null', [userId]);
}

/**
 * NOTIFY channel: sessions ended (payload {"t": tokenId} at sign-out, {"u": userId} when all
 * of a user's were revoked), so open real-time sockets close at once on every process.
 */
const SESSIONS_CHANNEL = 'nocturne_sessions';

/** Which sessions ended: one token's (`t`, a sign-out) or every one of a user's (`u`). */
export type EndedSessions = { t?: number; u?: number };

/** Tells every server process that sessions ended, so their real-time sockets close. */
export function announceSessionsEnded(db: Db, ended: EndedSessions): Promise<void> {
  return db.notify(SESSIONS_CHANNEL, JSON.stringify(ended));
}

/** Calls `onEnded` whenever sessions end, on any process; resolves to a function that stops listening. */
export function onSessionsEnded(db: Db, onEnded: (ended: EndedSessions) => void): Promise<() => Promise<void>> {
  return db.listen(SESSIONS_CHANNEL, (payload) => onEnded(JSON.parse(payload) as EndedSessions));
}

/** Until when (ms UTC) a session stays valid, without sliding it; null when it is over (expired, revoked, user not active). */
export async function sessionValidUntil(db: Queryable, tokenId: number): Promise<number | null> {
  const [row] = await db.query<{ until: Date | string }>(
    `select least(t.expires_at, t.absolute_expires_at) as until from auth_tokens t join users u on u.id = t.user_id
     where t.id = $1 and t.kind = 'session' and t.revoked_at is null and u.status = 'active' and t.expires_at > now() and t.absolute_expires_at > now()`,
    [tokenId],
  );
  return row ? new Date(row.until).getTime() : null;
}
