// Sleep figures shown in more than one place (summary, report, trend): one function, so a
// night without sleep data reads "–" everywhere instead of 0:00 and 0.0 %.
import type { NightAnalysis } from '../../engine/detect';

/** Total sleep time (h) and sleep efficiency (%) of a night; null when no bed time could be measured. */
export function sleepFigures(a: NightAnalysis): { totalSleepH: number | null; efficiency: number | null } {
  const measured = a.sleep.tbtH > 0;
  return { totalSleepH: measured ? a.kpis.tstH : null, efficiency: measured ? a.sleep.sleepEfficiency : null };
}
