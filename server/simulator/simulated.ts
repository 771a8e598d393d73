import { DateTime } from 'luxon';
import type { Db } from '../db/adapter';
import { planNights, simulateNight, truthToEvents, type NightPlan } from './index';
import type { ProfileName } from './types';
import { listRecordings, saveNight } from '../recordings/store';
import { nightKey } from '../recordings/night-key';

export interface SimulateForPatient {
  patientId: number;
  patientCode: string;
  deviceId: string | null;
  timezone: string;
  nights: number;
  profile?: ProfileName;
  /** Seed of the patient's nights (default: the patient code). */
  seed?: string;
  /** Make one night 10 h or longer. */
  longNight?: boolean;
  /** PSG reference channels on every k-th night (0: none). */
  psgEvery?: number;
  /**
   * Last evening to fill, local date (default: the evening before the night in progress at
   * `now`, see lastEndedEvening).
   */
  lastEvening?: string;
  /** The clock the default last evening is read from, ms (default: Date.now()). */
  now?: number;
  createdBy?: number | null;
}

/**
 * The last evening whose simulated night has surely ended at `now` and is not the night in
 * progress: the evening before the night key `now` falls in. A night starts 21:30–23:30 and
 * lasts at most 10.75 h, so it ends before noon, when the night key turns; and a device
 * streaming now records into the night key of now, which this leaves free.
 */
export function lastEndedEvening(now: number, timezone: string): string {
  return DateTime.fromMillis(nightKey(now, timezone) * 1000, { zone: 'UTC' }).minus({ days: 1 }).toISODate()!;
}

/**
 * Simulates and stores up to `nights` nights for a patient, on the most recent evenings up
 * to lastEvening that have no recording yet. Each night is stored in its own transaction.
 * Returns the ids of the stored recordings.
 */
export async function simulateForPatient(db: Db, opts: SimulateForPatient): Promise<number[]> {
  const taken = new Set((await listRecordings(db, opts.patientId)).map((r) => r.night_key));
  const last = opts.lastEvening ?? lastEndedEvening(opts.now ?? Date.now(), opts.timezone);
  // Plan a window wide enough to skip evenings that already have a night.
  const window = opts.nights + taken.size;
  const plans: NightPlan[] = planNights({
    seed: opts.seed ?? opts.patientCode,
    nights: window,
    lastEvening: last,
    timezone: opts.timezone,
    longNight: opts.longNight,
    psgEvery: opts.psgEvery,
  });
  const chosen = plans.filter((p) => !taken.has(nightKey(p.startMs, p.timezone))).slice(-opts.nights);
  // The night's weight readings are the patient's recorded weight (around it), not the profile's.
  const [record] = await db.query<{ weight: number | null }>('select weight from patients where id = $1', [opts.patientId]);
  const weightKg = Number(record?.weight ?? 0);
  const profile = weightKg > 0 ? { base: opts.profile ?? 'healthy', name: opts.profile ?? 'healthy', weightKg } : opts.profile;
  const ids: number[] = [];
  for (const plan of chosen) {
    const night = simulateNight({ ...plan, profile });
    ids.push(
      await saveNight(db, {
        patientId: opts.patientId,
        deviceId: opts.deviceId,
        source: 'simulated',
        createdBy: opts.createdBy ?? null,
        night,
        truth: truthToEvents(night.truth),
        truthDetail: { generator: `nocturne-simulator/${String(night.meta.simulatorVersion ?? '1')}`, truth: night.truth },
      }),
    );
  }
  return ids;
}
