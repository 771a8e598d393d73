import type { Db, Queryable } from '../db/adapter';
import { ApiError } from '../errors';

/** How many hits a bucket may take in any window of windowMs (a sliding window). */
export interface Limit {
  max: number;
  windowMs: number;
}

const MINUTE = 60_000;
/** Hits are kept per minute; a bucket's count is the sum of its minutes inside the window. */
const SLOT_MS = MINUTE;
/** The longest window of LIMITS, plus a margin: older rows can never count again. */
const KEEP_MS = 2 * 60 * MINUTE;

/**
 * Limits. Sign-in failures count per account-and-address pair and per address, never per
 * account alone: wrong passwords sent from elsewhere cannot lock the real user out, and the
 * correct password from a clean address always gets its code (issue 13 point 5).
 */
export const LIMITS = {
  loginPair: { max: 10, windowMs: 15 * MINUTE },
  loginAddress: { max: 50, windowMs: 15 * MINUTE },
  otpPair: { max: 10, windowMs: 15 * MINUTE },
  otpAddress: { max: 50, windowMs: 15 * MINUTE },
  forgotPair: { max: 5, windowMs: 60 * MINUTE },
  forgotAddress: { max: 20, windowMs: 15 * MINUTE },
  /**
   * Reset mails per account. Not a refusal: past it the answer is the same and no new mail
   * goes out, because the newest mail (sent inside the window, shorter than a code's life)
   * still holds a live code. So requests from elsewhere bound the owner's mail, never jam it.
   */
  forgotAccountMail: { max: 3, windowMs: 8 * MINUTE },
  signupAddress: { max: 10, windowMs: 60 * MINUTE },
  /** Wrong current passwords in the profile form, per account (its session is already signed in). */
  profilePassword: { max: 10, windowMs: 15 * MINUTE },
} as const satisfies Record<string, Limit>;

export type Bucket = [name: string, limit: Limit];

/** How long (ms) until every bucket is below its limit again in the sliding window; 0 when none is full. */
async function msUntilFree(db: Queryable, buckets: Bucket[], now: number): Promise<number> {
  let retryMs = 0;
  for (const [bucket, limit] of buckets) {
    // A minute slot counts while any part of it lies in the window: never fewer hits than happened.
    const since = new Date(now - limit.windowMs - SLOT_MS);
    const [row] = await db.query<{ hits: number | null; oldest: Date | null }>(
      `select sum(hits)::int as hits, min(window_start) as oldest from rate_limit_hits where bucket = $1 and window_start > $2`,
      [bucket, since],
    );
    if ((row?.hits ?? 0) >= limit.max && row?.oldest) {
      retryMs = Math.max(retryMs, 1, new Date(row.oldest).getTime() + SLOT_MS + limit.windowMs - now);
    }
  }
  return retryMs;
}

/**
 * Throws 429 when any bucket already holds its limit of hits in the sliding window ending
 * now. Counts only; a refused request adds nothing (so refusals cannot grow the table).
 */
export async function check(db: Queryable, buckets: Bucket[], now = Date.now()): Promise<void> {
  const retryMs = await msUntilFree(db, buckets, now);
  if (retryMs > 0) {
    const minutes = Math.max(1, Math.ceil(retryMs / MINUTE));
    throw new ApiError(429, 'rate_limited', `Too many attempts. Please try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`, { params: { minutes } });
  }
}

/** True when any bucket holds its limit of hits in the sliding window ending now. */
export async function isFull(db: Queryable, buckets: Bucket[], now = Date.now()): Promise<boolean> {
  return (await msUntilFree(db, buckets, now)) > 0;
}

/** Adds one hit to each bucket in the current minute slot; returns the slot. */
async function addHits(db: Queryable, buckets: Bucket[], now: number): Promise<Date> {
  const slot = new Date(Math.floor(now / SLOT_MS) * SLOT_MS);
  for (const [bucket] of buckets) {
    await db.query(
      `insert into rate_limit_hits (bucket, window_start, hits) values ($1, $2, 1)
       on conflict (bucket, window_start) do update set hits = rate_limit_hits.hits + 1`,
      [bucket, slot],
    );
  }
  return slot;
}

/**
 * Counts one hit in each bucket (kept in the database, so limits survive restarts and hold
 * across server processes), and drops rows too old to count, so the table stays small.
 */
export async function record(db: Queryable, buckets: Bucket[], now = Date.now()): Promise<void> {
  await addHits(db, buckets, now);
  await pruneRateLimits(db, now);
}

/** One counted attempt: `refund` takes it back (an attempt that turned out not to be a failure). */
export interface Attempt {
  refund(): Promise<void>;
}

/**
 * Locks the buckets (transaction-scoped advisory locks, in a fixed order so two callers
 * never deadlock): concurrent callers on any server process then count one after another.
 */
export async function lockBuckets(tx: Queryable, buckets: Bucket[]): Promise<void> {
  for (const name of buckets.map(([b]) => b).sort()) await tx.query('select pg_advisory_xact_lock(hashtextextended($1, 0))', [name]);
}

/**
 * Counts an attempt BEFORE it is verified, atomically: under the buckets' locks, refuses (429,
 * adding nothing) when any bucket is full, else adds one hit to each. A burst of N requests
 * sent at once therefore gets at most each limit through to the check (issue 33 point 1); the
 * caller refunds the attempt when it was not a failure.
 */
export async function take(db: Db, buckets: Bucket[], now = Date.now()): Promise<Attempt> {
  const slot = await db.transaction(async (tx) => {
    await lockBuckets(tx, buckets);
    await check(tx, buckets, now);
    return addHits(tx, buckets, now);
  });
  await pruneRateLimits(db, now);
  return {
    async refund() {
      for (const [bucket] of buckets) {
        await db.query('update rate_limit_hits set hits = hits - 1 where bucket = $1 and window_start = $2 and hits > 0', [bucket, slot]);
      }
    },
  };
}

/** check, then record, as one atomic step: for calls where every request counts (mail sending, sign-up). */
export async function hit(db: Db, buckets: Bucket[], now = Date.now()): Promise<void> {
  await take(db, buckets, now);
}

/** Drops rows older than any window. */
export async function pruneRateLimits(db: Queryable, now = Date.now()): Promise<void> {
  await db.query(`delete from rate_limit_hits where window_start < $1`, [new Date(now - KEEP_MS)]);
}
