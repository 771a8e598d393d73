/**
 * The radar-night simulator: pure functions, no database, no HTTP. See README.md in
 * this folder for channels, codes and the truth list.
 */
export { simulateNight, DEFAULT_DURATION_MS, DEFAULT_TIMEZONE } from './simulate';
export { planNights, type NightPlan, type PlanOptions } from './plan';
export { truthToEvents } from './truth';
export { PROFILES, resolveProfile } from './profiles';
export { CODE, MISSING, RATE_HZ, SA_CODE, SQB_CODE, STAGE, TB_CODE, UNIT, type StageCode } from './constants';
export type * from './types';
export { scoringReference, scoringTruth, AASM, type BorderlineTruthEvent, type ScoredTruthEvent, type ScoringReference, type ScoringTruthOptions } from './scoring-truth';
