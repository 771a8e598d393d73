// A device's own daily summary (ResMed STR.edf), as the summary and the trend answer carry it
// (server/recordings/device-summaries.ts): one definition for the server and the browser.

/** A stored day of a device summary. */
export interface DeviceSummaryDay {
  /** The device's day (the date of its noon start), YYYY-MM-DD: the night of that evening. */
  day: string;
  vendor: string;
  file_name: string;
  ahi: number | null;
  hi: number | null;
  ai: number | null;
  oai: number | null;
  cai: number | null;
  uai: number | null;
  usage_min: number | null;
  /** Mask on/off pairs, ms UTC. */
  mask_sessions: Array<{ on_ms: number; off_ms: number }>;
}
