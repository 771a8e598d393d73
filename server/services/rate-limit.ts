import type { Queryable } from '../db/adapter';
import { ApiError } from '../errors';

/** How many hits a bucket may take per window. */
export interface Limit {
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;

/** Limits per account and per client address, each in a fixed window. */
export const LIMITS = {
  loginAccount: { max: 10, windowMs: 15 * MINUTE },
  loginAddress: { max: 50, windowMs: 15 * MINUTE },
  otpAccount: { max: 10, windowMs: 15 * MINUTE },
  otpAddress: { max: 50, windowMs: 15 * MINUTE },
  forgotAccount: { max: 5, windowMs: 60 * MINUTE },
  forgotAddress: { max: 20, windowMs: 15 * MINUTE },
  signupAddress: { max: 10, windowMs: 60 * MINUTE },
} as const satisfies Record<string, Limit>;

/**
 * Counts one hit in each bucket (kept in the database, so limits survive restarts and
 * hold across server processes) and throws 429 when any bucket is over its limit.
 */
export async function hit(db: Queryable, buckets: Array<[string, Limit]>): Promise<void> {
  const now = Date.now();
  let retryMs = 0;
  for (const [bucket, limit] of buckets) {
    const windowStart = Math.floor(now / limit.windowMs) * limit.windowMs;
    const [row] = await db.query<{ hits: number }>(
      `insert into rate_limit_hits (bucket, window_start, hits) values ($1, $2, 1)
       on conflict (bucket, window_start) do update set hits = rate_limit_hits.hits + 1
       returning hits`,
      [bucket, new Date(windowStart)],
    );
    if (row.hits > limit.max) retryMs = Math.max(retryMs, windowStart + limit.windowMs - now);
  }
  if (retryMs > 0) {
    const minutes = Math.max(1, Math.ceil(retryMs / MINUTE));
    throw new ApiError(429, 'rate_limited', `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`);
  }
}

/** Drops windows that ended more than a day ago. */
export async function pruneRateLimits(db: Queryable): Promise<void> {
  await db.query(`delete from rate_limit_hits where window_start < now() - interval '1 day'`);
}
