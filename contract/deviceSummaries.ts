// A device's own daily summary (ResMed STR.edf), as the summary and the trend answer carry it
// (server/recordings/device-summaries.ts): one definition for the server and the browser.
import { Type, type Static } from '@sinclair/typebox';
import { Nullable } from './common';

/** An index or figure the device may not have given for the day (null: unknown, shown as "–"). */
const Figure = Nullable(Type.Number());

/** A stored day of a device summary. */
export const DeviceSummaryDay = Type.Object({
  /** The device's day (the date of its noon start), YYYY-MM-DD: the night of that evening. */
  day: Type.String(),
  vendor: Type.String(),
  file_name: Type.String(),
  ahi: Figure,
  hi: Figure,
  ai: Figure,
  oai: Figure,
  cai: Figure,
  uai: Figure,
  usage_min: Figure,
  /** Mask on/off pairs, ms UTC. */
  mask_sessions: Type.Array(Type.Object({ on_ms: Type.Number(), off_ms: Type.Number() })),
});
export type DeviceSummaryDay = Static<typeof DeviceSummaryDay>;

/** What an upload's device summary files gave (POST /patient/upload-recording). */
export const DeviceSummaryImport = Type.Object({
  files: Type.Array(Type.String()),
  /** Days the files hold (records read). */
  days_read: Type.Integer(),
  /** Days with therapy, stored (a day already stored is replaced). */
  days_stored: Type.Integer(),
  first_day: Nullable(Type.String()),
  last_day: Nullable(Type.String()),
});
export type DeviceSummaryImport = Static<typeof DeviceSummaryImport>;
