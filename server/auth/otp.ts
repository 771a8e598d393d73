import type { Queryable } from '../db/adapter';
import { digest, matchesDigest, newOtp } from './secrets';

export type OtpPurpose = 'login' | 'password_reset';

export const OTP_TTL_MS = 10 * 60_000;
/** Wrong tries after which a code is dead. */
export const OTP_MAX_ATTEMPTS = 5;

/** Creates a code for the user and purpose, killing any earlier live one. Returns the code. */
export async function issueOtp(db: Queryable, userId: number, purpose: OtpPurpose): Promise<string> {
  const code = newOtp();
  await db.query(
    `update one_time_codes set consumed_at = now()
     where user_id = $1 and purpose = $2 and consumed_at is null`,
    [userId, purpose],
  );
  await db.query(
    `insert into one_time_codes (user_id, purpose, code_hash, expires_at) values ($1, $2, $3, $4)`,
    [userId, purpose, digest(code), new Date(Date.now() + OTP_TTL_MS)],
  );
  return code;
}

/** True when the user has a code of the purpose that can still be used (unexpired, tries left). */
export async function hasLiveOtp(db: Queryable, userId: number, purpose: OtpPurpose): Promise<boolean> {
  const rows = await db.query(
    `select 1 from one_time_codes
     where user_id = $1 and purpose = $2 and consumed_at is null and expires_at > now() and attempts < $3 limit 1`,
    [userId, purpose, OTP_MAX_ATTEMPTS],
  );
  return rows.length > 0;
}

/**
 * Checks a code: true exactly once for the live code of the user and purpose. Every guess
 * first takes one of the code's OTP_MAX_ATTEMPTS tries in a single guarded update, so
 * concurrent guesses cannot compare more than that many times (the row lock serialises
 * them and the guard re-reads the count); the try that uses up the last one kills the code.
 */
export async function consumeOtp(db: Queryable, userId: number, purpose: OtpPurpose, code: string): Promise<boolean> {
  const [live] = await db.query<{ id: number; code_hash: string; attempts: number }>(
    `update one_time_codes set attempts = attempts + 1
     where id = (select id from one_time_codes
                 where user_id = $1 and purpose = $2 and consumed_at is null and expires_at > now()
                 order by id desc limit 1)
       and consumed_at is null and attempts < $3
     returning id, code_hash, attempts`,
    [userId, purpose, OTP_MAX_ATTEMPTS],
  );
  if (!live) return false;
  if (!matchesDigest(code, live.code_hash)) {
    if (live.attempts >= OTP_MAX_ATTEMPTS) await db.query('update one_time_codes set consumed_at = now() where id = $1 and consumed_at is null', [live.id]);
    return false;
  }
  // The guard on consumed_at makes two simultaneous uses of one code succeed only once.
  const used = await db.query('update one_time_codes set consumed_at = now() where id = $1 and consumed_at is null returning id', [
    live.id,
  ]);
  return used.length === 1;
}
