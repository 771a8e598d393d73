/** Event detection and night metrics: plain TypeScript shared by the worker and the server. */
/**
 * Version of the detectors' rules; bump it when a detector's output changes so that cached
 * analyses (server night_analyses) are recomputed. 2: breath-by-breath peak-to-peak scoring,
 * flow-only hypopneas, apnea types, indices over monitoring time without staging.
 * 3: a detection mostly inside the previous event is part of it (no double scoring).
 * 4: a desaturation confirms only the event it follows. 5: no ODI (null) without oximetry.
 * 6: one event pass (desaturations given afterwards); the baseline leaves out every
 * stretch meeting the drop and duration rules, confirmed or not.
 * 7: a hypopnea's edges at the breath boundary (the centre crossing next to the 70 %
 * excursion); a desaturation starting within 10 s of an event's onset goes to the event before.
 * 8: no AHI/RII (null, ahiBasis 'no_breathing_signal') without a breathing signal; events during
 * scored wake are not counted; stage latencies.
 * 9: no signal quality (SQ null, `quality` false) without a quality channel (SQB).
 * 10: durations (monitoring, GSD, TBR, TST, TBT) kept to the second, not to 0.01 h.
 * 11: AHI per hour of sleep with a valid breathing signal, ODI per hour of (sleep with) a valid
 * SpO2; no AHI (ahiBasis 'no_breathing_signal_in_sleep') when no sleep had one; with sleep/wake
 * data, only events whose middle lies in sleep are counted.
 * 12: no RII either (null) when no sleep had a breathing signal: it counts AHI's events.
 * 13: in other tools' files a breathing rate ≤ 0 is missing (TBR), decision 1043.
 */
export const DETECTOR_VERSION = 13;
export { toSeries, type Series, type DetectedEvent } from './series';
export { detectDesaturations } from './desaturation';
export { detectRespiratoryEvents, type EventEdges } from './respiratory';
export { sleepMetrics } from './sleep';
export { nightKpis, customizedIndex, type AhiBasis, type NightKpis, type RiiDivisor } from './kpis';
export { analyseNight, type NightInput, type NightAnalysis } from './night';
export { MIN_CORRECTION_MS, analysisWindow, validMsBetween, isValidAt, excludedIndexRanges, maskSeries, type AnalysisWindow } from './window';
export { matchEvents, type Agreement } from './agreement';
