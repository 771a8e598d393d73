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
 */
export const DETECTOR_VERSION = 7;
export { toSeries, indexAt, timeAt, medianOf, type Series, type DetectedEvent, type EventReason } from './series';
export { detectDesaturations, type DesaturationOptions } from './desaturation';
export { detectRespiratoryEvents, type EventEdges, type RespiratoryOptions } from './respiratory';
export { breathingEnvelope } from './envelope';
export { breathingAmplitude, AMPLITUDE_WINDOW_S, type Amplitude } from './amplitude';
export { sleepMetrics, EPOCH_S, type SleepMetrics, type Band } from './sleep';
export { nightKpis, monitoringHours, customizedIndex, hoursWhere, INDEX_LABELS, type NightKpis, type RiiDivisor } from './kpis';
export { analyseNight, type NightInput, type NightAnalysis } from './night';
export { MIN_CORRECTION_MS, analysisWindow, validMsBetween, isValidAt, excludedIndexRanges, maskSeries, type AnalysisWindow } from './window';
export { matchEvents, DEFAULT_MATCH_TOLERANCE_MS, type Agreement, type Interval, type MatchOptions } from './agreement';
