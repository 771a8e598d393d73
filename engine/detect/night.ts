import { detectDesaturations } from './desaturation';
import { monitoringHours, nightKpis, type NightKpis, type RiiDivisor } from './kpis';
import { detectRespiratoryEvents, type EventEdges } from './respiratory';
import type { DetectedEvent, Series } from './series';
import { inSpan, isScoredWake, sleepMetrics, type SleepMetrics } from './sleep';
import { isValidAt, maskSeries, type AnalysisWindow } from './window';

/** The channels of a night the analysis reads (any may be missing). */
export interface NightInput {
  startMs: number;
  stopMs: number;
  channels: Partial<Record<'SPO2' | 'SPO2_PSG' | 'Y_DIST' | 'NC_PSG' | 'THRX_PSG' | 'ABD_PSG' | 'SQB' | 'SLP_STGS' | 'SA' | 'TB' | 'BR' | 'MOV', Series>>;
  desaturationRule?: 3 | 4;
  riiDivisor?: RiiDivisor;
  /** Where respiratory events' edges are read (see RespiratoryOptions.eventEdges). */
  eventEdges?: EventEdges;
  /** The physician's corrections: analyse [bedIn, bedOut) without the invalid spans. */
  window?: AnalysisWindow;
}

export interface NightAnalysis {
  desaturations: DetectedEvent[];
  respiratory: DetectedEvent[];
  /** The breathing channel the respiratory events come from. */
  breathingSource: 'NC_PSG' | 'Y_DIST' | null;
  sleep: SleepMetrics;
  kpis: NightKpis;
  /** The corrected window the night was analysed over; absent when the night has no correction. */
  window?: AnalysisWindow;
}

/**
 * Runs every detector over a night: desaturations on SPO2 (or SPO2_PSG), apneas and
 * hypopneas on NC_PSG (CPAP flow, nasal pressure, thermistor) where present, else Y_DIST,
 * with SQB vetoing radar samples and THRX_PSG/ABD_PSG typing apneas; flow-only hypopneas
 * when the night has no oximetry (no channel, or one that is all missing); sleep metrics;
 * and the indices, over sleep time when there is staging, else over the monitoring time.
 */
export function analyseNight(input: NightInput): NightAnalysis {
  const w = input.window;
  // Corrections apply here, to copies: every detector reads the excluded time as missing samples.
  const n: NightInput = w
    ? { ...input, startMs: w.bedInMs, stopMs: w.bedOutMs, channels: Object.fromEntries(Object.entries(input.channels).map(([code, s]) => [code, maskSeries(s, w)])) }
    : input;
  const c = n.channels;
  // A channel present but all missing (ResMed SA2 without an oximeter attached) is no oximetry.
  const hasData = (s: Series | undefined): s is Series => !!s && s.values.some((v) => Number.isFinite(v));
  const spo2 = hasData(c.SPO2) ? c.SPO2 : hasData(c.SPO2_PSG) ? c.SPO2_PSG : undefined;
  const desaturationRule = n.desaturationRule ?? 3;
  const inWindow = (e: DetectedEvent) => !w || isValidAt(w, e.onsetMs);
  const detectedDesaturations = (spo2 ? detectDesaturations(spo2, { dropPct: desaturationRule }, c.SQB) : []).filter(inWindow);
  const breathingSource = hasData(c.NC_PSG) ? 'NC_PSG' : hasData(c.Y_DIST) ? 'Y_DIST' : null;
  const breathing = breathingSource ? c[breathingSource]! : null;
  // The flow of a PSG cannula or CPAP is not the radar: its quality does not follow SQB.
  const scoredRespiratory = breathing
    ? detectRespiratoryEvents(
        breathing,
        detectedDesaturations,
        { desaturationRule, flowOnlyHypopneas: !spo2, signal: breathingSource === 'Y_DIST' ? 'volume' : 'flow', eventEdges: n.eventEdges, oximetry: spo2, thorax: hasData(c.THRX_PSG) ? c.THRX_PSG : undefined, abdomen: hasData(c.ABD_PSG) ? c.ABD_PSG : undefined },
        breathingSource === 'Y_DIST' ? c.SQB : undefined,
      ).filter(inWindow)
    : [];
  const sleep = sleepMetrics({ startMs: n.startMs, stopMs: n.stopMs, stages: c.SLP_STGS, sa: c.SA, tb: c.TB, excluded: w?.invalid, fixedBedTimes: w?.bedTimesCorrected });
  // AASM: events are scored during sleep only. With sleep/wake data (staging, or the radar's SA)
  // an event counts when its middle lies in a sleep epoch, not in wake, out of bed or an unscored
  // epoch: the same time the indices are per hour of (decision 1033). Staged all wake: none.
  const middle = (e: DetectedEvent) => e.onsetMs + e.durationMs / 2;
  const asleep = sleep.tstS > 0 ? (e: DetectedEvent) => inSpan(sleep.sleepBands, middle(e)) : c.SLP_STGS ? (e: DetectedEvent) => !isScoredWake(c.SLP_STGS!, middle(e)) : () => true;
  const respiratory = scoredRespiratory.filter(asleep);
  const desaturations = detectedDesaturations.filter(asleep);
  const monitoringH = breathing || spo2 ? monitoringHours(breathing ?? undefined, spo2, breathingSource === 'Y_DIST' ? c.SQB : undefined) : 0;
  // Each index per hour of the time its own signal was recorded in: the sleep with a valid breathing
  // signal (AHI) or SpO2 (ODI) on staged nights; without staging, the monitoring time (AHI) and the
  // time with a valid SpO2 (ODI) (decision 1033).
  const staged = sleep.tstS > 0;
  const quality = breathingSource === 'Y_DIST' ? c.SQB : undefined;
  const sleepBreathingH = staged && breathing ? monitoringHours(breathing, undefined, quality, sleep.sleepBands) : 0;
  const odiHoursH = spo2 ? monitoringHours(undefined, spo2, undefined, staged ? sleep.sleepBands : undefined) : 0;
  const kpis = nightKpis({ events: [...respiratory, ...desaturations], sleep, sqb: c.SQB, br: c.BR, divisor: n.riiDivisor, monitoringH, oximetry: spo2 !== undefined, breathing: breathing !== null, sleepBreathingH, odiHoursH });
  return { desaturations, respiratory, breathingSource, sleep, kpis, ...(w ? { window: w } : {}) };
}
