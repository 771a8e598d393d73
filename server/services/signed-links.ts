import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { Queryable } from '../db/adapter';

const SECRET_KEY = 'link_secret';
/** How long a data link works. */
export const LINK_TTL_MS = 15 * 60_000;

/** The installation's secret for signed links, made once and kept in app_meta. */
export async function linkSecret(db: Queryable): Promise<Buffer> {
  await db.query(`insert into app_meta (key, value) values ($1, $2) on conflict (key) do nothing`, [SECRET_KEY, randomBytes(32).toString('base64')]);
  const [row] = await db.query<{ value: string }>('select value from app_meta where key = $1', [SECRET_KEY]);
  return Buffer.from(row.value, 'base64');
}

const mac = (secret: Buffer, subject: string, expires: number) => createHmac('sha256', secret).update(`${subject}|${expires}`).digest('base64url');

/** Query string that proves the server handed out a link to `subject` until `expires`. */
export function signLink(secret: Buffer, subject: string, now = Date.now()): string {
  const expires = now + LINK_TTL_MS;
  return `exp=${expires}&sig=${mac(secret, subject, expires)}`;
}

/** Clock difference between server processes tolerated on a link's expiry. */
const CLOCK_SKEW_MS = 60_000;

/**
 * True when sig was made by signLink for this subject and has not expired. The lifetime is
 * capped here too: a link claiming to live longer than LINK_TTL_MS from now is refused even
 * with a valid signature (one leaked from a longer-lived version, or a changed TTL).
 */
export function verifyLink(secret: Buffer, subject: string, expires: number, sig: string, now = Date.now()): boolean {
  if (!Number.isFinite(expires) || expires < now || expires > now + LINK_TTL_MS + CLOCK_SKEW_MS) return false;
  const a = Buffer.from(mac(secret, subject, expires));
  const b = Buffer.from(sig);
  return a.length === b.length && timingSafeEqual(a, b);
}
