// Time constants of the review screen (spec 2 §9), in milliseconds.
const SECOND_MS = 1_000;
export const MINUTE_MS = 60_000;
export const HOUR_MS = 3_600_000;

/** Share of the window one page step moves (spec 2 §9: 20 percent in the overview). */
export const PAGE_FRACTION = 0.2;
/** Double-click zoom windows (spec 2 §2): 3 minutes, or 30 s when already at 3 minutes. */
export const DBLCLICK_WIDE_MS = 180_000;
export const DBLCLICK_NARROW_MS = 30_000;
/** Narrowest window a drag zoom may select. */
export const MIN_WINDOW_MS = 1_000;

/** Navigator presets (spec 2 §2): ids, window lengths (null = full night) and catalogue keys. */
export const PRESETS = [
  { id: '30s', ms: 30 * SECOND_MS, labelKey: 'night.nav.presets.30s' },
  { id: '1m', ms: 1 * MINUTE_MS, labelKey: 'night.nav.presets.1m' },
  { id: '3m', ms: 3 * MINUTE_MS, labelKey: 'night.nav.presets.3m' },
  { id: '5m', ms: 5 * MINUTE_MS, labelKey: 'night.nav.presets.5m' },
  { id: '8m', ms: 8 * MINUTE_MS, labelKey: 'night.nav.presets.8m' },
  { id: '10m', ms: 10 * MINUTE_MS, labelKey: 'night.nav.presets.10m' },
  { id: '20m', ms: 20 * MINUTE_MS, labelKey: 'night.nav.presets.20m' },
  { id: 'full', ms: null, labelKey: 'night.nav.presets.full' },
] as const;

export type PresetId = (typeof PRESETS)[number]['id'];
/** What the navigator's select shows: a preset, or 'custom' after a drag or double-click zoom. */
export type PresetChoice = PresetId | 'custom';
