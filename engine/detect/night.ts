import { detectDesaturations } from './desaturation';
import { nightKpis, type NightKpis, type RiiDivisor } from './kpis';
import { detectRespiratoryEvents } from './respiratory';
import type { DetectedEvent, Series } from './series';
import { sleepMetrics, type SleepMetrics } from './sleep';

/** The channels of a night the analysis reads (any may be missing). */
export interface NightInput {
  startMs: number;
  stopMs: number;
  channels: Partial<Record<'SPO2' | 'SPO2_PSG' | 'Y_DIST' | 'NC_PSG' | 'SQB' | 'SLP_STGS' | 'SA' | 'TB' | 'BR' | 'MOV', Series>>;
  desaturationRule?: 3 | 4;
  riiDivisor?: RiiDivisor;
}

export interface NightAnalysis {
  desaturations: DetectedEvent[];
  respiratory: DetectedEvent[];
  /** The breathing channel the respiratory events come from. */
  breathingSource: 'NC_PSG' | 'Y_DIST' | null;
  sleep: SleepMetrics;
  kpis: NightKpis;
}

/**
 * Runs every detector over a night: desaturations on SPO2 (or SPO2_PSG), apneas and
 * hypopneas on NC_PSG where present, else Y_DIST, with SQB vetoing radar samples; sleep
 * metrics; and the indices.
 */
export function analyseNight(n: NightInput): NightAnalysis {
  const c = n.channels;
  const spo2 = c.SPO2 ?? c.SPO2_PSG;
  const desaturations = spo2 ? detectDesaturations(spo2, { dropPct: n.desaturationRule ?? 3 }, c.SQB) : [];
  const breathingSource = c.NC_PSG ? 'NC_PSG' : c.Y_DIST ? 'Y_DIST' : null;
  const breathing = breathingSource ? c[breathingSource]! : null;
  // The flow of a PSG cannula is not the radar: its quality does not follow SQB.
  const respiratory = breathing ? detectRespiratoryEvents(breathing, desaturations, {}, breathingSource === 'Y_DIST' ? c.SQB : undefined) : [];
  const sleep = sleepMetrics({ startMs: n.startMs, stopMs: n.stopMs, stages: c.SLP_STGS, sa: c.SA, tb: c.TB });
  const kpis = nightKpis({ events: [...respiratory, ...desaturations], sleep, sqb: c.SQB, br: c.BR, divisor: n.riiDivisor });
  return { desaturations, respiratory, breathingSource, sleep, kpis };
}
