// Figures of a night shown in more than one place (summary, report, trend, actigraph, the
// dashboard's triage table): one function each, so every place shows the same number, and
// "–" (null) where the night has no data to compute it from.
import type { NightAnalysis } from '../../engine/detect';
import type { WindowStats } from '../../engine/types';

/** Channels whose whole-night statistics the summary shows (vitals and the recorded weight). */
export const STATS_CODES = ['BR', 'HR', 'SPO2', 'PR', 'HRV', 'BRV', 'MOV', 'weight'] as const;

const round2 = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 100) / 100);

/** Whether the night carries sleep/wake data (a CPAP or oximeter night has no staging). */
const isStaged = (a: NightAnalysis) => a.sleep.sleepBands.length > 0 || a.sleep.awakeBands.length > 0;

export interface SleepFigures {
  /** Total sleep time, h. */
  totalSleepH: number | null;
  /** Sleep efficiency, %. */
  efficiency: number | null;
  /** Wake after sleep onset, min. */
  wasoMin: number | null;
  /** Sleep onset latency, min. */
  solMin: number | null;
  /** Good signal duration (SQB good), h: null without an SQB channel. */
  gsdH: number | null;
  /** Total breathing time (valid BR), h: null without a BR channel. */
  tbrH: number | null;
}

/**
 * The night's sleep figures; null where they cannot be measured: no bed time or no sleep/wake
 * data (TST, efficiency, WASO, SOL: a night's unknown sleep is not 0 h of sleep), no quality
 * channel (GSD), no breathing-rate channel (TBR). `codes` are the night's channel codes.
 */
export function sleepFigures(a: NightAnalysis, codes: readonly string[]): SleepFigures {
  const measured = a.sleep.tbtH > 0 && isStaged(a);
  const s = a.sleep;
  return {
    totalSleepH: measured ? a.kpis.tstH : null,
    efficiency: measured ? s.sleepEfficiency : null,
    wasoMin: measured ? Math.round(s.wasoS / 60) : null,
    solMin: measured && s.solS !== null ? Math.round(s.solS / 60) : null,
    gsdH: codes.includes('SQB') ? a.kpis.gsdH : null,
    tbrH: codes.includes('BR') ? a.kpis.tbrH : null,
  };
}

/** AHI (or REI without staging), ODI and RII of a night, 2 decimals, with the basis they are per hour of. */
export function indexFigures(a: Pick<NightAnalysis, 'kpis'>) {
  return { ahi: round2(a.kpis.ahi), odi: round2(a.kpis.odi), rii: round2(a.kpis.rii), indexBasis: a.kpis.indexBasis ?? 'sleep', monitoringH: a.kpis.monitoringH ?? null };
}

/** Hours recorded: the recording window (total bed time), h. */
export const hoursRecorded = (a: Pick<NightAnalysis, 'kpis'>) => a.kpis.tbtH;

/**
 * The night's recorded weight, kg: the median of the night's weight readings (the value the
 * trend's box marks and the weight chart shows); null without a reading.
 */
export const recordedWeight = (stats: ReadonlyMap<string, WindowStats>) => statOf(stats, 'weight', 'p50');

/** The night's lowest SpO2, %: the minimum of the SPO2 channel; null without valid SpO2. */
export const lowestSpo2 = (stats: ReadonlyMap<string, WindowStats>) => statOf(stats, 'SPO2', 'min');

function statOf(stats: ReadonlyMap<string, WindowStats>, code: string, key: 'p50' | 'min'): number | null {
  const s = stats.get(code);
  return s && s.count > 0 ? round2(s[key]) : null;
}
