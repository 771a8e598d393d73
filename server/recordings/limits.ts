import { RecordingFormatError } from './model';

/** Longest span one night may cover: the CSV readers' limit, and every other reader's. */
export const MAX_NIGHT_MS = 48 * 3_600_000;

/**
 * Files of one night must fit in {@link MAX_NIGHT_MS} together: a file recorded days away
 * from the others is not the same night. Names the file that lies farthest from the first.
 */
export function checkNightSpan(parts: readonly { fileName: string; startMs: number; stopMs: number }[]): void {
  if (parts.length < 2) return;
  const first = parts.reduce((a, b) => (b.startMs < a.startMs ? b : a));
  for (const p of parts) {
    const span = Math.max(p.stopMs, first.stopMs) - first.startMs;
    if (span > MAX_NIGHT_MS) {
      throw new RecordingFormatError(
        p.fileName,
        'start date/time',
        `together with ${first.fileName} it spans ${(span / 3_600_000).toFixed(1)} h, more than the ${MAX_NIGHT_MS / 3_600_000} h of one night`,
      );
    }
  }
}
