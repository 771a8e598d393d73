import type { Db, Queryable } from '../db/adapter';
import { ApiError } from '../errors';
import { nightFromFiles } from './assemble';
import { nightFromPathsInWorker } from './parse-pool';
import { RecordingFormatError, type Night } from './model';
import { InvalidNightError, saveNight } from './store';

export interface ImportInput {
  patientId: number;
  deviceId: string | null;
  createdBy: number | null;
  /** IANA zone the files' clock times are in. */
  timezone: string;
  /** Files by path (CLI, uploads streamed to disk; the name is the file's base name) … */
  paths?: string[];
  /** … or already in memory (upload). */
  files?: { name: string; bytes: Uint8Array }[];
  /** Label → channel code additions (the physician's saved map and the request's own). */
  labelMap?: Record<string, string>;
  /** Channel code of a Timestamp,Value CSV whose name does not say it. */
  csvCode?: string;
}

export interface ImportResult {
  recordingId: number;
  night: Night;
}

/** The physician's saved label map. */
export async function savedLabelMap(db: Queryable, physicianId: number): Promise<Record<string, string>> {
  const rows = await db.query<{ label: string; code: string }>('select label, code from label_maps where physician_id = $1 order by label', [physicianId]);
  return Object.fromEntries(rows.map((r) => [r.label, r.code]));
}

/**
 * Reads the files of one night (EDF, EDF+, oximeter or Timestamp,Value CSV), aligns them and
 * stores the night in one transaction. A file that cannot be read is refused with a 400
 * naming the file, the field and what was wrong, and nothing is stored.
 */
export async function importFiles(db: Db, input: ImportInput): Promise<ImportResult> {
  const files = input.files ?? [];
  if (files.length === 0 && !input.paths?.length) throw new ApiError(400, 'validation_failed', 'No file to import.');
  let night: Night;
  try {
    const options = { timezone: input.timezone, labelMap: input.labelMap, csvCode: input.csvCode };
    // Files on disk (uploads, the CLI) are read and parsed in a worker thread, off the event loop.
    night = input.files ? nightFromFiles(files, options) : await nightFromPathsInWorker(input.paths!, options);
  } catch (err) {
    if (err instanceof RecordingFormatError) throw new ApiError(400, 'invalid_recording_file', err.message);
    if (err instanceof RangeError) throw new ApiError(400, 'invalid_recording_file', err.message);
    throw err;
  }
  const formats = new Set((night.meta.files as Array<{ format?: string }> | undefined)?.map((f) => f.format ?? '') ?? []);
  const source = [...formats].some((f) => f.includes('csv')) && ![...formats].some((f) => f.startsWith('EDF') || f.startsWith('BDF')) ? 'csv' : 'edf';
  try {
    const recordingId = await saveNight(db, { patientId: input.patientId, deviceId: input.deviceId, source, createdBy: input.createdBy, night });
    return { recordingId, night };
  } catch (err) {
    if (err instanceof InvalidNightError) throw new ApiError(400, 'invalid_recording', err.message);
    throw err;
  }
}
