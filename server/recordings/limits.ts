/** Longest span one night may cover: the CSV readers' limit, and every other reader's. */
export const MAX_NIGHT_MS = 48 * 3_600_000;
