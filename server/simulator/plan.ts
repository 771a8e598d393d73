/** Laying out a patient's consecutive nights: evening starts, durations, seeds. */
import { DateTime } from 'luxon';
import { HOUR_MS, MINUTE_MS, PLAN } from './constants';
import { stream } from './prng';
import { DEFAULT_TIMEZONE } from './simulate';

/** One planned night; spread it into simulateNight's options. */
export interface NightPlan {
  seed: string;
  startMs: number;
  durationMs: number;
  timezone: string;
  psg: boolean;
}

export interface PlanOptions {
  seed: number | string;
  /** How many consecutive nights. */
  nights: number;
  /** Local date (YYYY-MM-DD) of the first evening; or give lastEvening instead. */
  firstEvening?: string;
  /** Local date (YYYY-MM-DD) of the last evening. */
  lastEvening?: string;
  /** IANA zone of the patient (default 'Europe/Vienna'). */
  timezone?: string;
  /** Make one of the nights (chosen by the seed) 10 h or longer. */
  longNight?: boolean;
  /** Every k-th night (the first of each k) gets the PSG channels; 0 or absent for none. */
  psgEvery?: number;
}

/**
 * Plans `nights` consecutive nights: each starts between 21:30 and 23:30 local time
 * and lasts 6–10 h (one lasts 10–10.75 h with `longNight`); night i gets the seed
 * `${seed}/${i}`. Deterministic from the options. Throws RangeError on a bad date,
 * zone or count.
 */
export function planNights(opts: PlanOptions): NightPlan[] {
  const timezone = opts.timezone ?? DEFAULT_TIMEZONE;
  const count = opts.nights;
  if (!Number.isInteger(count) || count < 0) throw new RangeError('planNights: nights must be a whole number ≥ 0');
  const anchor = opts.firstEvening ?? opts.lastEvening;
  if (!anchor) throw new RangeError('planNights: firstEvening or lastEvening is required');
  let first = DateTime.fromISO(anchor, { zone: timezone });
  if (!first.isValid) throw new RangeError(`planNights: bad date '${anchor}' or zone '${timezone}'`);
  if (!opts.firstEvening) first = first.minus({ days: count - 1 });

  const rng = stream(opts.seed, 'plan');
  const longIndex = opts.longNight && count > 0 ? rng.int(0, count - 1) : -1;
  const plans: NightPlan[] = [];
  for (let i = 0; i < count; i++) {
    const startMin = Math.round(rng.between(PLAN.startWindowMin));
    const hours = rng.between(i === longIndex ? PLAN.longDurationH : PLAN.durationH);
    const evening = first.plus({ days: i }).startOf('day').set({ hour: Math.floor(startMin / 60), minute: startMin % 60 });
    plans.push({
      seed: `${String(opts.seed)}/${i}`,
      startMs: evening.toMillis(),
      durationMs: Math.round((hours * HOUR_MS) / MINUTE_MS) * MINUTE_MS,
      timezone,
      psg: opts.psgEvery ? i % opts.psgEvery === 0 : false,
    });
  }
  return plans;
}
