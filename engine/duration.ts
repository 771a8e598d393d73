// Durations as people read them, one formatter for the server (annotation lists, exports)
// and the browser (summary, report, actigraph, annotation list): h:mm:ss, zero-padded.

const pad = (n: number) => String(n).padStart(2, '0');

/** A duration in ms as h:mm:ss (0:00:30, 7:05:00); '–' when it is unknown (null or not finite). */
export function formatDuration(ms: number | null | undefined): string {
  if (ms === null || ms === undefined || !Number.isFinite(ms)) return '–';
  const total = Math.max(0, Math.round(ms / 1000));
  return `${Math.floor(total / 3600)}:${pad(Math.floor((total % 3600) / 60))}:${pad(total % 60)}`;
}

/** A duration in hours (TST, GSD, bed time…) as h:mm:ss; '–' when unknown. */
export const formatHours = (h: number | null | undefined) => formatDuration(h === null || h === undefined ? null : h * 3_600_000);
