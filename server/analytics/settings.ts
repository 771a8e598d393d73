import type { Queryable } from '../db/adapter';
import type { RiiDivisor } from '../../engine/detect';

export interface AnalyticsSettings {
  desaturationRule: 3 | 4;
  riiDivisor: RiiDivisor;
}

/** A physician's analytics settings (defaults: 3% rule, RII over TBT). */
export async function analyticsSettings(db: Queryable, physicianId: number): Promise<AnalyticsSettings> {
  const [row] = await db.query<{ desaturation_rule: number; rii_divisor: RiiDivisor }>('select desaturation_rule, rii_divisor from physician_preferences where physician_id = $1', [physicianId]);
  return { desaturationRule: row?.desaturation_rule === 4 ? 4 : 3, riiDivisor: row?.rii_divisor ?? 'TBT' };
}

/** Saves a physician's analytics settings. */
export async function saveAnalyticsSettings(db: Queryable, physicianId: number, settings: AnalyticsSettings, userId: number): Promise<void> {
  await db.query(
    `insert into physician_preferences (physician_id, desaturation_rule, rii_divisor, updated_by) values ($1, $2, $3, $4)
     on conflict (physician_id) do update set desaturation_rule = excluded.desaturation_rule, rii_divisor = excluded.rii_divisor, updated_by = excluded.updated_by, updated_at = now()`,
    [physicianId, settings.desaturationRule, settings.riiDivisor, userId],
  );
}
