// Rules about nights the server and the client share, with no schema library: the client
// imports this file at run time (contract files with TypeBox schemas are types-only there).

/** Longest span one night may cover, h: the server refuses longer, the night view draws nothing longer. */
export const MAX_NIGHT_HOURS = 36;

/** Whose marks a scoring file carries: everyone's, people's, Nocturne's detectors' or the device's. */
export const SCORING_SOURCES = ['all', 'human', 'automatic', 'device'] as const;
export type ScoringSource = (typeof SCORING_SOURCES)[number];
