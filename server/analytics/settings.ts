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
