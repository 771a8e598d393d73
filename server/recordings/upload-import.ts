import type { Db } from '../db/adapter';
import type { DeviceSummaryImport } from '../../contract/deviceSummaries';
import { readDeviceSummaries, splitDeviceSummaries, storeDeviceSummaries } from './device-summaries';
import { importFiles, type ImportInput, type ImportResults } from './import';

/** What one upload stored: its nights (none when it held only a device's summary) and the summary's days. */
export interface UploadImport {
  nights: ImportResults | null;
  deviceSummary: DeviceSummaryImport | null;
}

/**
 * One upload's files on disk, as the upload route and `npm run import` take them: a device's
 * daily summary (ResMed STR.edf, found by its signals) is read apart from the night's files and
 * stored per day (device-summaries.ts). It is read before the nights are stored and stored after
 * them: a summary that cannot be read refuses the upload with nothing stored, and an upload whose
 * nights are refused leaves no summary behind.
 */
export async function importUpload(db: Db, input: Omit<ImportInput, 'paths' | 'files'> & { files: ReadonlyArray<{ name: string; path: string }> }): Promise<UploadImport> {
  const { files, ...rest } = input;
  const { summaries, rest: nightFiles } = await splitDeviceSummaries(files);
  const read = summaries.length > 0 ? await readDeviceSummaries(summaries, input.timezone) : null;
  // No file at all is importFiles' own refusal (400), as any upload with no night file and no summary.
  const nights = nightFiles.length > 0 || !read ? await importFiles(db, { ...rest, paths: nightFiles.map((f) => f.path) }) : null;
  const deviceSummary = read ? await storeDeviceSummaries(db, input.patientId, input.createdBy, read) : null;
  return { nights, deviceSummary };
}
