/**
 * The radar-night simulator: pure functions, no database, no HTTP. See README.md in
 * this folder for channels, codes and the truth list.
 */
export { simulateNight } from './simulate';
export { planNights, type NightPlan } from './plan';
export { truthToEvents } from './truth';
export { PROFILES } from './profiles';
export type * from './types';
export { scoringReference, scoringTruth, AASM } from './scoring-truth';
