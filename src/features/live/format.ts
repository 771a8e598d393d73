// Readouts of the live screens.

/** A duration in whole seconds as hours, minutes and seconds. */
export function hms(ms: number): { h: number; m: number; s: number } {
  const total = Math.max(0, Math.round(ms / 1000));
  return { h: Math.floor(total / 3600), m: Math.floor((total % 3600) / 60), s: total % 60 };
}

/** Clock time hh:mm:ss of an instant in a time zone (the browser's when omitted). */
export function clock(ms: number, timeZone?: string): string {
  return new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', second: '2-digit', hourCycle: 'h23', timeZone }).format(ms);
}

/** Window lengths of the zoom steps (ms), shortest first. */
const WINDOW_STEPS_MS = [10_000, 30_000, 60_000, 120_000, 300_000, 600_000, 1_800_000, 3_600_000] as const;

/** The next zoom step in `direction` (-1 in, +1 out), staying on the scale. */
export function zoomStep(current: number, direction: -1 | 1): number {
  const i = WINDOW_STEPS_MS.findIndex((w) => w >= current);
  const at = i < 0 ? WINDOW_STEPS_MS.length - 1 : i;
  return WINDOW_STEPS_MS[Math.min(WINDOW_STEPS_MS.length - 1, Math.max(0, at + direction))]!;
}

/** Arrow-key step of the time slider: a fifth of the window, at least a second. */
export const sliderStepMs = (windowMs: number) => Math.max(1000, Math.round(windowMs / 5000) * 1000);
