// Figures of a night shown in more than one place (summary, report, trend, actigraph, the
// dashboard's triage table): one function each, so every place shows the same number, and
// "–" (null) where the night has no data to compute it from.
import type { AhiBasis, NightAnalysis } from '../../engine/detect';
import type { WindowStats } from '../../engine/types';

/** Channels whose whole-night statistics the summary shows (vitals and the recorded weight). */
export const STATS_CODES = ['BR', 'HR', 'SPO2', 'SPO2_PSG', 'PR', 'HRV', 'BRV', 'MOV', 'weight'] as const;

/**
 * The night's SpO2 statistics: the oximeter's (SPO2) where it recorded a valid value, else a
 * PSG's or CPAP's SpO2 channel (SPO2_PSG, an EDF "SpO2"), else whichever is there (all missing).
 */
export function spo2Stats(stats: ReadonlyMap<string, WindowStats>): WindowStats | undefined {
  const oximeter = stats.get('SPO2');
  const psg = stats.get('SPO2_PSG');
  if (oximeter && oximeter.count > 0) return oximeter;
  if (psg && psg.count > 0) return psg;
  return oximeter ?? psg;
}

/** A figure to 2 decimals; null when it is missing or not finite. */
export const round2 = (v: number | null | undefined) => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.round(v * 100) / 100);

/** Whether the night carries sleep/wake data (a CPAP or oximeter night has no staging). */
const isStaged = (a: NightAnalysis) => a.sleep.sleepBands.length > 0 || a.sleep.awakeBands.length > 0;

/**
 * What the night's sleep figures rest on: 'staging' (sleep/wake data: a device's, a hypnogram's),
 * 'no_staging' (none: a CPAP or oximeter night; TST, SE, SOL and WASO are "–" for that reason) or
 * 'no_bed_time' (staged, but no time in bed to measure them in).
 */
export type SleepBasis = 'staging' | 'no_staging' | 'no_bed_time';

export interface SleepFigures {
  basis: SleepBasis;
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
  const basis: SleepBasis = !isStaged(a) ? 'no_staging' : a.sleep.tbtH > 0 ? 'staging' : 'no_bed_time';
  const measured = basis === 'staging';
  const s = a.sleep;
  return {
    basis,
    totalSleepH: measured ? a.kpis.tstH : null,
    efficiency: measured ? s.sleepEfficiency : null,
    wasoMin: measured ? Math.round(s.wasoS / 60) : null,
    solMin: measured && s.solS !== null ? Math.round(s.solS / 60) : null,
    gsdH: codes.includes('SQB') ? a.kpis.gsdH : null,
    tbrH: codes.includes('BR') ? a.kpis.tbrH : null,
  };
}

/** Stage latencies, min, from sleep onset (null without that stage, or without staging; older analyses have none). */
export function stageLatencies(a: Pick<NightAnalysis, 'sleep'>): { deep: number | null; light: number | null; rem: number | null } {
  const l = a.sleep.stageLatencyS;
  const min = (s: number | null | undefined) => (s === null || s === undefined ? null : Math.round(s / 60));
  return { deep: min(l?.deep), light: min(l?.light), rem: min(l?.rem) };
}

/** AHI (or REI without staging), ODI and RII of a night, 2 decimals, with the basis they are per hour of. */
export function indexFigures(a: Pick<NightAnalysis, 'kpis'>) {
  const k = a.kpis;
  // Analyses stored before decision 1033 divided by TST (or the monitoring time) whole.
  const ahiHoursH = k.ahiHoursH ?? ((k.indexBasis ?? 'sleep') === 'sleep' ? k.tstH : (k.monitoringH ?? 0));
  return { ahi: round2(k.ahi), odi: round2(k.odi), rii: round2(k.rii), indexBasis: k.indexBasis ?? 'sleep', ahiBasis: ahiBasisOf(a), monitoringH: k.monitoringH ?? null, ahiHoursH, odiHoursH: k.odiHoursH ?? ahiHoursH };
}

/**
 * Whether AHI/REI and RII rest on a breathing signal: 'no_breathing_signal' (an oximeter-only
 * night) makes them null with that reason everywhere, never 0. Analyses stored before the
 * field existed had a breathing signal exactly when they scored any monitoring time on one.
 */
function ahiBasisOf(a: Pick<NightAnalysis, 'kpis'>): AhiBasis {
  return a.kpis.ahiBasis ?? 'breathing_signal';
}

/** Hours recorded: the recording window (total bed time), h. */
export const hoursRecorded = (a: Pick<NightAnalysis, 'kpis'>) => a.kpis.tbtH;

/**
 * The night's recorded weight, kg: the median of the night's weight readings (the value the
 * trend's box marks and the weight chart shows); null without a reading.
 */
export const recordedWeight = (stats: ReadonlyMap<string, WindowStats>) => statOf(stats, 'weight', 'p50');

/** The night's lowest SpO2, %: the minimum of its SpO2 channel (spo2Stats); null without valid SpO2. */
export const lowestSpo2 = (stats: ReadonlyMap<string, WindowStats>) => valueOf(spo2Stats(stats), 'min');

function statOf(stats: ReadonlyMap<string, WindowStats>, code: string, key: 'p50' | 'min'): number | null {
  return valueOf(stats.get(code), key);
}

const valueOf = (s: WindowStats | undefined, key: 'p50' | 'min') => (s && s.count > 0 ? round2(s[key]) : null);

/**
 * The night's trend indices (spec 2 §9 "Trend-view channels"), 2 decimals: RII, AHI, ODI, SE and
 * SQ (the share of the night with good signal quality, GSD / TBT, %), and the basis AHI, ODI and
 * RII over TST are per hour of. Computed once with the night's analysis and stored beside it
 * (night_analyses.indices), so the trend reads one small row per night.
 */
export interface TrendIndices {
  RII: number | null;
  AHI: number | null;
  ODI: number | null;
  SE: number | null;
  SQ: number | null;
  index_basis: 'sleep' | 'monitoring';
  /** 'no_breathing_signal': AHI and RII are null for want of a breathing signal. */
  ahi_basis: AhiBasis;
  rii_over_tst: boolean;
}

export function trendIndices(a: NightAnalysis): TrendIndices {
  const index = indexFigures(a);
  return {
    RII: index.rii,
    AHI: index.ahi,
    ODI: index.odi,
    SE: round2(sleepFigures(a, []).efficiency),
    // No quality channel (a CPAP or PSG night): no SQ, not 0 % good signal.
    SQ: round2(a.kpis.quality !== false && a.kpis.tbtH > 0 ? (100 * a.kpis.gsdH) / a.kpis.tbtH : null),
    index_basis: index.indexBasis,
    ahi_basis: index.ahiBasis,
    rii_over_tst: a.kpis.riiDivisor === 'TST',
  };
}
