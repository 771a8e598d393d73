// Rules about nights the server and the client share, with no schema library: the client
// imports this file at run time (contract files with TypeBox schemas are types-only there).

/** Longest span one night may cover, h: the server refuses longer, the night view draws nothing longer. */
export const MAX_NIGHT_HOURS = 36;

/** Whose marks a scoring file carries: everyone's, people's, Nocturne's detectors' or the files' own (device events, sleep stages). */
export const SCORING_SOURCES = ['all', 'human', 'automatic', 'device'] as const;
export type ScoringSource = (typeof SCORING_SOURCES)[number];

/**
 * Whether a file of a picked folder is one the import reads: EDF, BDF or CSV (a DATALOG folder
 * also holds .crc and .tgt files), and not macOS's "._" companion of one (decision 1035). The
 * folder picker and `npm run import` of a folder both use it.
 */
export function isImportableFile(name: string): boolean {
  const base = name.slice(Math.max(name.lastIndexOf('/'), name.lastIndexOf('\\')) + 1);
  return /\.(edf|bdf|csv)$/i.test(base) && !base.startsWith('._');
}
