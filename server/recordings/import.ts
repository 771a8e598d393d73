import path from 'node:path';
import type { Db, Queryable } from '../db/adapter';
import { ApiError, notFound } from '../errors';
import { fallbackLogger, type Logger } from '../log';
import { assembleNight, parseRecordingFile, uploadContext, type ParseFileOptions } from './assemble';
import { EmptyRecordingError, NeedsItsUploadError, RecordingFormatError, RecordingFormatErrors, type Night, type ParsedRecording } from './model';
import { NotOneNightError, splitNights } from './limits';
import { nightDate, nightKey } from './night-key';
import { parseFilesInWorker } from './parse-pool';
import { emptyFileOf, type EmptyFile } from './model';
import { checkJoin, deviceEventsOf, hashFiles, storedFilesOf, type HashedFile, insertFilesAndDeviceEvents, mergeIntoRecording, nightToMergeInto, refuseDamaged, refuseDuplicates, sortDuplicates, type SkippedFile } from './night-files';
import { missingCodesOf } from './missing';
import { attachStaged, dropStage, stageChannels, type StageProgress, type StagedNight } from './staging';
import { findRecording, insertNight, InvalidNightError, validateNight, type RecordingRow } from './store';
import type { Scorable } from './nsrr-night';

export interface ImportInput {
  patientId: number;
  deviceId: string | null;
  createdBy: number | null;
  /** IANA zone the files' clock times are in. */
  timezone: string;
  /** Files by path (CLI) … */
  paths?: string[];
  /** … or already in memory (upload). */
  files?: { name: string; bytes: Uint8Array }[];
  /** Label → channel code additions (the physician's saved map and the request's own). */
  labelMap?: Record<string, string>;
  /** Where a stage that could not be removed is reported (the request's logger; a CLI's default: stdout). */
  log?: Logger;
  /** Channel code of a Timestamp,Value CSV whose name does not say it. */
  csvCode?: string;
  /** md5 (hex) of each file by name as the client computed it before upload; checked, never trusted. */
  clientMd5?: Record<string, string>;
  /** Runs after each chunk transaction of the staged samples (tests pause an import there). */
  onStaged?: (progress: StageProgress) => unknown;
  /**
   * The night the files are imported onto ("Import scoring file" on a night, decision 1051): its
   * recording, and where an NSRR XML among them starts. The files join that night or are refused
   * as another night's; never placed on another night by their times.
   */
  onto?: { recordingId: number; scoring: Scorable };
}

export interface ImportResult {
  recordingId: number;
  /** What this upload brought (its channels under the codes they were stored with, its events). */
  night: Night;
  /** True when the files were added to a night the patient already had. */
  merged: boolean;
  /** The stored night's span after the import (wider than the upload's when merged). */
  startMs: number;
  stopMs: number;
  nightKey: number;
  files: { name: string; md5: string }[];
  /** Files of the upload left out: byte-identical to another of it, or already stored. */
  skipped: SkippedFile[];
  /** Device-scored events the files carried (ResMed EVE apneas, PSG scoring …). */
  deviceEvents: number;
}

/** An upload's nights: the first (earliest), and the others when its files were several nights (a card's DATALOG folder). */
export type ImportResults = ImportResult & { others: ImportResult[] };

/** Advisory-lock class of imports (with the patient id as the second key). */
const IMPORT_LOCK = 7_270_012;

/** The physician's saved label map. */
export async function savedLabelMap(db: Queryable, physicianId: number): Promise<Record<string, string>> {
  const rows = await db.query<{ label: string; code: string }>('select label, code from label_maps where physician_id = $1 order by label', [physicianId]);
  return Object.fromEntries(rows.map((r) => [r.label, r.code]));
}

/** Saves labels of a physician's label map (label → channel code), each replacing the one it names. */
export async function saveLabelMap(db: Db, physicianId: number, map: Record<string, string>, userId: number): Promise<void> {
  await db.transaction(async (tx) => {
    for (const [label, code] of Object.entries(map)) {
      await tx.query(
        `insert into label_maps (physician_id, label, code, updated_by) values ($1, $2, $3, $4)
         on conflict (physician_id, label) do update set code = excluded.code, updated_by = excluded.updated_by, updated_at = now()`,
        [physicianId, label, code, userId],
      );
    }
  });
}

/**
 * Reads the files of one night (EDF, EDF+, oximeter or Timestamp,Value CSV), aligns them and
 * stores them: the samples staged in short transactions that no reader sees (staging.ts), then
 * one short transaction makes the night visible whole: as a new night, or added to the patient's night they belong
 * to (same night key or overlapping time). Refused with nothing stored: a file that cannot be
 * read (400 naming the file and field), a file already imported for the patient (409 naming
 * the file and its night), event files with no night to attach to (400 naming the files).
 */
export async function importFiles(db: Db, input: ImportInput): Promise<ImportResults> {
  if (!input.files?.length && !input.paths?.length) throw new ApiError(400, 'validation_failed', 'No file to import.');
  const names = input.files?.map((f) => f.name) ?? input.paths!.map((p) => path.basename(p));
  // A scoring file (NSRR XML) uploaded without its EDF scores the patient's stored EDF it is named after.
  const stored = names.some((n) => /\.xml$/i.test(n)) ? await storedFilesOf(db, input.patientId) : undefined;
  const options = { timezone: input.timezone, labelMap: input.labelMap, csvCode: input.csvCode, stored, onto: input.onto?.scoring };
  const log = input.log ?? fallbackLogger();
  let files: HashedFile[];
  let parts: ParsedRecording[];
  let nights: { parts: ParsedRecording[]; night: Night }[];
  let skipped: SkippedFile[];
  try {
    if (input.files) {
      const all = await hashFiles(input.files);
      // Cheap refusals first (a damaged transfer), and known files left out, before parsing large files.
      refuseDamaged(all, input.clientMd5);
      const sorted = await sortDuplicates(db, input.patientId, all);
      const parsed = parseEach(sorted.keep.map((i) => input.files![i]), options);
      skipped = byName([...sorted.skipped, ...parsed.empty.map(noData)]);
      files = sorted.keep.map((i) => all[i]).filter((f) => !parsed.empty.some((e) => e.file === f.name));
      parts = parsed.parts;
    } else {
      // Files on disk (uploads, the CLI) are hashed and parsed in a worker thread, off the event loop.
      const read = await parseFilesInWorker(input.paths!, options);
      refuseDamaged(read.files, input.clientMd5);
      const sorted = await sortDuplicates(db, input.patientId, read.files);
      skipped = byName([...sorted.skipped, ...read.empty.map(noData)]);
      files = sorted.keep.map((i) => read.files[i]);
      parts = sorted.keep.map((i) => read.parts[i]);
    }
    // Files of several nights (a card's whole DATALOG folder) are split where none covers half a
    // day; each is then checked as one night, and all of them before anything is stored.
    nights = splitNights(parts).map((group) => ({ parts: group, night: assembleNight(group, { timezone: input.timezone }) }));
    for (const n of nights) validateNight(n.night);
  } catch (err) {
    if (err instanceof InvalidNightError) throw new ApiError(400, 'invalid_recording', err.message);
    throw asApiError(err);
  }
  const fileGroups = nights.map((n) => files.filter((f) => n.parts.some((p) => p.fileName === f.name)));
  // Of several nights, one that cannot be stored (event files alone with no night to join, files
  // that cannot join the stored night they fall on) is refused before any is stored.
  if (nights.length > 1) {
    for (const [i, n] of nights.entries()) {
      const target = await nightToJoin(db, input, n.night);
      if (!target && n.night.channels.length === 0) throw noNightForEvents(fileGroups[i]!, n.night, input.timezone);
      if (target) {
        try {
          checkJoin(target, n.night);
        } catch (err) {
          throw asApiError(err);
        }
      }
    }
  }
  const results: ImportResult[] = [];
  // One night after the other, each whole or not at all (decision 1021).
  for (const [i, n] of nights.entries()) {
    try {
      results.push(await storeNight(db, input, { files: fileGroups[i]!, parts: n.parts, night: n.night, skipped: i === 0 ? skipped : [] }, log));
    } catch (err) {
      throw results.length > 0 ? partlyStored(results, n.night, err) : err;
    }
  }
  return { ...results[0]!, others: results.slice(1) };
}

/**
 * A later night's write refused after the nights before it were stored (another upload of the
 * patient's changed that night in between: checked before anything was stored, it passed): the
 * answer says which nights stay, and that this one was not, never "nothing was stored" (decision 1028).
 */
function partlyStored(stored: readonly ImportResult[], night: Night, err: unknown): unknown {
  if (!(err instanceof ApiError)) return err;
  const dates = stored.map((r) => nightDate(r.nightKey)).join(', ');
  const date = nightDate(nightKey(night.startMs, night.timezone));
  const reason = err.message.replace(/[;.]? ?nothing was stored\.?/i, '').trim();
  return new ApiError(err.status, 'import_partly_stored', `The night${stored.length > 1 ? 's' : ''} of ${dates} ${stored.length > 1 ? 'were' : 'was'} stored; the night of ${date} was not, it changed while this upload was written: ${reason}.`, {
    params: { stored: dates, night: date },
    errors: [err.message],
  });
}

/**
 * The stored night an upload's night joins: the one it was imported onto (refused when the files'
 * times lie outside it), else the patient's night of its key or time ({@link nightToMergeInto}).
 */
async function nightToJoin(db: Queryable, input: ImportInput, night: Night): Promise<RecordingRow | null> {
  if (!input.onto) return nightToMergeInto(db, input.patientId, night);
  const target = await findRecording(db, input.patientId, input.onto.recordingId);
  if (!target) throw notFound('recording');
  if (!(night.startMs < Number(target.stop_ms) && night.stopMs > Number(target.start_ms))) {
    const names = (night.meta.files as { fileName: string }[] | undefined)?.map((f) => f.fileName).join(', ') ?? 'The file';
    throw new ApiError(422, 'scoring_outside_night', `${names}: scores ${nightDate(nightKey(night.startMs, night.timezone))}, not this night (${nightDate(Number(target.night_key))}): is it the scoring of another night? Nothing was stored.`, {
      params: { marks: night.events.length },
    });
  }
  return target;
}

/**
 * Stores one night's parsed files: its samples staged in short transactions no reader sees,
 * then one transaction that makes it visible, new or joined onto the patient's night.
 */
async function storeNight(
  db: Db,
  input: ImportInput,
  { files, parts, night, skipped }: { files: HashedFile[]; parts: ParsedRecording[]; night: Night; skipped: SkippedFile[] },
  log: Logger,
): Promise<ImportResult> {
  const device = deviceEventsOf(parts);
  const formats = new Set(parts.map((p) => p.format));
  const source = [...formats].some((f) => f.includes('csv')) && ![...formats].some((f) => f.startsWith('EDF') || f.startsWith('BDF')) ? 'csv' : 'edf';
  const fileList = files.map((f) => ({ name: f.name, md5: f.md5 }));
  let staged: StagedNight | null = null;
  try {
    validateNight(night);
    // The samples first, in short transactions, into a stage no reader sees; other requests run
    // in between. Written with the missing codes of the night they will likely join (checked
    // again, and corrected, in the final transaction).
    if (night.channels.length) {
      const likely = await nightToJoin(db, input, night);
      // Files that cannot join it are refused before their samples are written (checked again below).
      if (likely) checkJoin(likely, night);
      staged = await stageChannels(db, input.patientId, night.channels, likely?.source ?? source, input.onStaged, log);
    }
    const stage = staged;
    // Then one short transaction makes the night visible, whole.
    return await db.transaction(async (tx): Promise<ImportResult> => {
      // One import per patient at a time: two files of one night uploaded together make one
      // night, and the same file sent twice at once is refused, not stored twice.
      await tx.query('select pg_advisory_xact_lock($1::int, $2::int)', [IMPORT_LOCK, input.patientId]);
      await refuseDuplicates(tx, input.patientId, files);
      const target = await nightToJoin(tx, input, night);
      if (!target) {
        if (!stage) throw noNightForEvents(files, night, input.timezone);
        const recordingId = await insertNight(tx, { patientId: input.patientId, deviceId: input.deviceId, source, createdBy: input.createdBy, night: { ...night, channels: [] } });
        await attachStaged(tx, stage, recordingId, night.channels, stage.codes, night.channels.map((c) => missingCodesOf(c, source)));
        await insertFilesAndDeviceEvents(tx, recordingId, input.patientId, input.createdBy, files, parts, device);
        return { recordingId, night, merged: false, startMs: night.startMs, stopMs: night.stopMs, nightKey: nightKey(night.startMs, night.timezone), files: fileList, skipped, deviceEvents: device.length };
      }
      const merged = await mergeIntoRecording(tx, target, night, stage ?? undefined);
      if (input.deviceId && !target.device_id) await tx.query('update recordings set device_id = $2 where id = $1', [target.id, input.deviceId]);
      await insertFilesAndDeviceEvents(tx, target.id, input.patientId, input.createdBy, files, parts, device);
      return {
        recordingId: target.id,
        night: { ...night, channels: merged.added },
        merged: true,
        startMs: merged.startMs,
        stopMs: merged.stopMs,
        nightKey: Number(target.night_key),
        files: fileList,
        skipped,
        deviceEvents: device.length,
      };
    });
  } catch (err) {
    // Nothing of a failed import stays: its staged samples go (the final transaction, which
    // removes the stage, rolled back). A database that is gone leaves them to the start-up cleanup.
    if (staged) await dropStage(db, staged.stageId).catch((dropErr: Error) => log.error(`Import stage ${staged!.stageId} not removed (${dropErr.message}); it is removed at the next start.`));
    if (err instanceof InvalidNightError) throw new ApiError(400, 'invalid_recording', err.message);
    throw asApiError(err);
  }
}

/** Event files (no signal) of a night the patient does not have, refused naming them. */
function noNightForEvents(files: readonly { name: string }[], night: Night, timezone: string): ApiError {
  const names = files.map((f) => f.name).join(', ');
  const date = nightDate(nightKey(night.startMs, timezone));
  return new ApiError(
    400,
    'no_night_for_events',
    `${names}: holds events but no signal, and this patient has no night of ${date} to attach them to; import it together with the night's signal files, or after them.`,
    { params: { files: names, night: date } },
  );
}

/**
 * Parses every file; a refusal names every file that cannot be read, not only the first. Files
 * with no data records beside files with data come back in `empty` (decision 1030).
 */
function parseEach(files: { name: string; bytes: Uint8Array }[], options: ParseFileOptions): { parts: ParsedRecording[]; empty: EmptyFile[] } {
  const parts: ParsedRecording[] = [];
  const errors: RecordingFormatError[] = [];
  const empty: EmptyRecordingError[] = [];
  const later: { name: string; bytes: Uint8Array }[] = [];
  for (const f of files) {
    try {
      parts.push(parseRecordingFile(f.name, f.bytes, options));
    } catch (err) {
      if (!(err instanceof RecordingFormatError)) throw err;
      if (err instanceof NeedsItsUploadError) later.push(f);
      else (err instanceof EmptyRecordingError ? empty : errors).push(err);
    }
  }
  // Files read with the rest of their upload: an export whose dates alone cannot tell their
  // order, a PSG's scoring file (placed on the recording it scores).
  const context = uploadContext(options, [...parts]);
  for (const f of later) {
    try {
      parts.push(parseRecordingFile(f.name, f.bytes, context));
    } catch (err) {
      if (!(err instanceof RecordingFormatError)) throw err;
      errors.push(err);
    }
  }
  // Files with no data alone are refused, as any file that cannot be read.
  if (errors.length === 0 && parts.length === 0) errors.push(...empty);
  if (errors.length === 1) throw errors[0];
  if (errors.length > 1) throw new RecordingFormatErrors(errors);
  return { parts, empty: empty.map(emptyFileOf) };
}

/** Files left out, by name (the order a folder's files were picked in is the browser's). */
const byName = (files: SkippedFile[]): SkippedFile[] => files.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));

/** A file with no data records, left out of its upload (decision 1030). */
const noData = (e: EmptyFile): SkippedFile => ({ name: e.file, reason: e.reason, problem: `${e.field}: ${e.problem}` });

/** A reader's or the night rule's refusal as the API's 400, naming every file concerned. */
function asApiError(err: unknown): unknown {
  if (err instanceof NotOneNightError) return new ApiError(400, 'files_not_one_night', err.message, { errors: err.files, params: { files: err.files.join(', ') } });
  if (err instanceof RecordingFormatErrors) return new ApiError(400, 'invalid_recording_file', err.message, { errors: err.errors.map((e) => e.message) });
  if (err instanceof RecordingFormatError) return new ApiError(400, 'invalid_recording_file', err.message);
  if (err instanceof RangeError) return new ApiError(400, 'invalid_recording_file', err.message);
  return err;
}
