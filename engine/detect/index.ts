/** Event detection and night metrics: plain TypeScript shared by the worker and the server. */
export { toSeries, indexAt, timeAt, medianOf, type Series, type DetectedEvent, type EventReason } from './series';
export { detectDesaturations, type DesaturationOptions } from './desaturation';
export { detectRespiratoryEvents, type RespiratoryOptions } from './respiratory';
export { breathingEnvelope } from './envelope';
export { sleepMetrics, EPOCH_S, type SleepMetrics, type Band } from './sleep';
export { nightKpis, customizedIndex, hoursWhere, INDEX_LABELS, type NightKpis, type RiiDivisor } from './kpis';
export { analyseNight, type NightInput, type NightAnalysis } from './night';
export { matchEvents, DEFAULT_MATCH_TOLERANCE_MS, type Agreement, type Interval, type MatchOptions } from './agreement';
