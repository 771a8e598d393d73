// A device's own daily summary (ResMed STR.edf), as the summary and the trend answer carry it
// (server/recordings/device-summaries.ts): one definition for the server and the browser.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './common';

/** An index or usage of the device's day (double precision column): null when the device left it out. */
const figure = Nullable(Type.Number());

/** A stored day of a device summary. */
export const DeviceSummaryDay = Type.Object({
  /** The device's day (the date of its noon start), YYYY-MM-DD: the night of that evening. */
  day: Type.String(),
  vendor: Type.String(),
  file_name: Type.String(),
  ahi: figure,
  hi: figure,
  ai: figure,
  oai: figure,
  cai: figure,
  uai: figure,
  usage_min: figure,
  /** Mask on/off pairs, ms UTC. */
  mask_sessions: Type.Array(Type.Object({ on_ms: Type.Number(), off_ms: Type.Number() })),
});
export type DeviceSummaryDay = Static<typeof DeviceSummaryDay>;
