// Sleep figures shown in more than one place (summary, report, trend): one function, so a
// night without sleep data reads "–" everywhere instead of 0:00 and 0.0 %.
import type { NightAnalysis } from '../../engine/detect';

/**
 * Total sleep time (h) and sleep efficiency (%) of a night; null when they cannot be measured:
 * no bed time, or no sleep/wake data at all (a CPAP or oximeter night has no staging, and its
 * 0 h of sleep is unknown, not zero).
 */
export function sleepFigures(a: NightAnalysis): { totalSleepH: number | null; efficiency: number | null } {
  const staged = a.sleep.sleepBands.length > 0 || a.sleep.awakeBands.length > 0;
  const measured = a.sleep.tbtH > 0 && staged;
  return { totalSleepH: measured ? a.kpis.tstH : null, efficiency: measured ? a.sleep.sleepEfficiency : null };
}
