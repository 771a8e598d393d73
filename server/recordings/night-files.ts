/**
 * One night from many files: the content hash of every imported file (a file is imported
 * once per patient), the night an upload belongs to (same night key, or overlapping time),
 * merging an upload into that night, and the device-scored events the files carry.
 */
import { createHash } from 'node:crypto';
import type { StoredFile } from './nsrr-night';
import { DateTime } from 'luxon';
import type { Queryable } from '../db/adapter';
import { ApiError } from '../errors';
import type { Night, ParsedRecording } from './model';
import { isUnscoredEpoch, UNSCORED_EPOCH_SQL } from './edf/hypnogram';
import { nightDate, nightKey } from './night-key';
import { insertChannel, insertEvents, loadChannelData, validateNight, type ChannelRow, type RecordingRow } from './store';
import { checkOneNight, type NightPart } from './limits';
import { fallbackCode, joinInto, validCountOf } from './sessions';
import { deviceEvents, type ScoredKind } from './vendors';
import { missingCodesOf } from './missing';
import { attachStaged, type StagedNight } from './staging';
import type { SkippedFile } from '../../contract/imports';

/** A file of an upload with its md5 (hex), computed here: the server's figure is the one trusted. */
export interface HashedFile {
  name: string;
  md5: string;
  /** Bytes. */
  size: number;
}

/** A device-scored event in real time, with the file and vendor it came from. */
export interface DeviceEvent {
  onsetMs: number;
  durationMs: number;
  kind: ScoredKind;
  text: string;
  vendor: string;
  fileName: string;
}

/**
 * The md5 of each file, as the browser's md5-wasm computes it before upload. Node's native
 * hash: md5-wasm copies the whole file into WebAssembly memory that never shrinks (a 200 MB
 * upload kept 200 MB more resident).
 */
export async function hashFiles(files: { name: string; bytes: Uint8Array }[]): Promise<HashedFile[]> {
  return files.map((f) => ({ name: f.name, md5: createHash('md5').update(f.bytes).digest('hex'), size: f.bytes.byteLength }));
}

/** A file of an upload that was not imported, and why (the import summary lists it): the contract's. */
export type { SkippedFile };

/** Why a file was left out, in the words of the command line and the upload's message. */
export function skippedReason(s: SkippedFile): string {
  if (s.reason === 'no_data') return `no data records (${s.problem})`;
  if (s.reason === 'macos_metadata') return 'macOS metadata (a "._" companion file), not a recording';
  if (s.reason === 'same_in_upload') return `the same as ${s.same_as} of this upload`;
  return `already stored${s.same_as === s.name ? '' : ` as ${s.same_as}`}`;
}

/** Refuses a file whose client md5 differs from the server's (changed in transfer). */
export function refuseDamaged(files: readonly HashedFile[], declared: Record<string, string> = {}): void {
  for (const f of files) {
    const client = declared[f.name];
    if (client !== undefined && client.toLowerCase() !== f.md5) {
      throw new ApiError(400, 'upload_damaged', `${f.name}: the file changed in transfer (md5 ${client} before upload, ${f.md5} received); nothing was stored, please upload it again.`, {
        params: { file: f.name },
      });
    }
  }
}

/**
 * Which files of an upload to import (their indexes, in upload order) and which to skip:
 * byte-identical files inside the upload are kept once (the first by name, so the order
 * they arrive in does not matter), a file already imported for this patient is skipped.
 * An upload with nothing left is refused (409 duplicate_file) naming its files and their night.
 */
export async function sortDuplicates(db: Queryable, patientId: number, files: readonly HashedFile[]): Promise<{ keep: number[]; skipped: SkippedFile[] }> {
  const byName = files.map((f, i) => ({ f, i })).sort((a, b) => (a.f.name < b.f.name ? -1 : a.f.name > b.f.name ? 1 : a.i - b.i));
  const firstOf = new Map<string, string>();
  const skipped: SkippedFile[] = [];
  const unique: number[] = [];
  for (const { f, i } of byName) {
    const first = firstOf.get(f.md5);
    if (first !== undefined) skipped.push({ name: f.name, reason: 'same_in_upload', same_as: first });
    else {
      firstOf.set(f.md5, f.name);
      unique.push(i);
    }
  }
  const known = files.length === 0 ? [] : await storedFiles(db, patientId, files.map((f) => f.md5));
  const keep: number[] = [];
  for (const i of unique.sort((a, b) => a - b)) {
    const k = known.find((row) => row.md5 === files[i].md5);
    if (k) skipped.push({ name: files[i].name, reason: 'already_stored', same_as: k.file_name, night: Number(k.night_key) });
    else keep.push(i);
  }
  if (keep.length === 0) {
    const stored = skipped.find((s) => s.reason === 'already_stored')!;
    const as = stored.same_as === stored.name ? '' : ` (as ${stored.same_as})`;
    const others = files.length > 1 ? ` Every file of this upload is already stored.` : '';
    throw new ApiError(409, 'duplicate_file', `${stored.name}: already imported${as} for the night of ${nightDate(stored.night!)}; nothing was stored.${others}`, {
      params: { file: stored.name, night: nightDate(stored.night!) },
    });
  }
  return { keep, skipped };
}

/** Files of the patient already stored with one of these md5s. */
function storedFiles(db: Queryable, patientId: number, md5s: string[]) {
  return db.query<{ md5: string; file_name: string; night_key: number }>(
    `select f.md5, f.file_name, r.night_key from recording_files f join recordings r on r.id = f.recording_id
     where f.patient_id = $1 and f.md5 = any($2::text[]) order by f.id`,
    [patientId, md5s],
  );
}

/**
 * Refuses an upload holding a file already imported for this patient (or the same file twice),
 * naming the file and the night it belongs to: the final transaction's check (two uploads
 * of one file at once), after sortDuplicates has left out what was known before.
 */
export async function refuseDuplicates(db: Queryable, patientId: number, files: HashedFile[]): Promise<void> {
  const seen = new Map<string, string>();
  for (const f of files) {
    const first = seen.get(f.md5);
    if (first !== undefined) throw new ApiError(409, 'duplicate_in_upload', `${f.name}: the same file as ${first} in this upload; nothing was stored.`, { params: { file: f.name, other: first } });
    seen.set(f.md5, f.name);
  }
  if (files.length === 0) return;
  const known = await storedFiles(db, patientId, files.map((f) => f.md5));
  const hit = files.find((f) => known.some((k) => k.md5 === f.md5));
  if (hit) {
    const k = known.find((row) => row.md5 === hit.md5)!;
    const as = k.file_name === hit.name ? '' : ` (as ${k.file_name})`;
    throw new ApiError(409, 'duplicate_file', `${hit.name}: already imported${as} for the night of ${nightDate(k.night_key)}; nothing was stored.`, {
      params: { file: hit.name, night: nightDate(k.night_key) },
    });
  }
}

/** The scored events of the parsed files, each under its file's vendor convention. */
export function deviceEventsOf(parts: ParsedRecording[]): DeviceEvent[] {
  return parts.flatMap((p) => {
    const header = { fileName: p.fileName, format: p.format, recording: str(p.meta.recording), patient: str(p.meta.patient) };
    return deviceEvents(header, p.events).map((e) => ({ onsetMs: e.onsetMs, durationMs: e.durationMs, kind: e.kind, text: e.text, vendor: e.vendor, fileName: e.fileName ?? p.fileName }));
  });
}

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/**
 * The patient's recording an upload belongs to: one with the same night key, else one whose
 * time overlaps the upload's. Null when the night is new.
 */
export async function nightToMergeInto(db: Queryable, patientId: number, night: Night): Promise<RecordingRow | null> {
  const key = nightKey(night.startMs, night.timezone);
  const [row] = await db.query<RecordingRow>(
    `select * from recordings where patient_id = $1 and (night_key = $2 or (start_ms < $4 and stop_ms > $3))
     order by (night_key = $2) desc, start_ms, id limit 1`,
    [patientId, key, Math.round(night.startMs), Math.round(night.stopMs)],
  );
  return row ?? null;
}

/** The files of the patient's stored nights, as each night lists them (recording_meta.files). */
export async function storedFilesOf(db: Queryable, patientId: number): Promise<StoredFile[]> {
  const rows = await db.query<{ files: unknown }>(`select recording_meta -> 'files' as files from recordings where patient_id = $1`, [patientId]);
  return rows.flatMap((r) => (Array.isArray(r.files) ? (r.files as StoredFile[]) : [])).filter((f) => typeof f.fileName === 'string' && typeof f.format === 'string');
}

/** Inserts an upload's files (with their hashes) and its device events for a recording. */
export async function insertFilesAndDeviceEvents(
  tx: Queryable,
  recordingId: number,
  patientId: number,
  createdBy: number | null,
  files: HashedFile[],
  parts: ParsedRecording[],
  events: DeviceEvent[],
): Promise<void> {
  for (const f of files) {
    const format = parts.find((p) => p.fileName === f.name)?.format ?? '';
    await tx.query('insert into recording_files (recording_id, patient_id, file_name, md5, byte_count, format, created_by) values ($1, $2, $3, $4, $5, $6, $7)', [
      recordingId,
      patientId,
      f.name,
      f.md5,
      f.size,
      format,
      createdBy,
    ]);
  }
  for (const e of events) {
    await tx.query('insert into device_events (recording_id, onset_ms, duration_ms, kind, text, vendor, file_name) values ($1, $2, $3, $4, $5, $6, $7)', [
      recordingId,
      Math.round(e.onsetMs),
      Math.max(0, Math.round(e.durationMs)),
      e.kind,
      e.text,
      e.vendor,
      e.fileName,
    ]);
  }
}

/**
 * Refuses an upload's night that cannot join the stored night `target`: read in another time
 * zone than the night's (409 timezone_mismatch: the files' local clock times would be placed
 * hours off the night's), or files that together cannot be one night (NotOneNightError,
 * limits.ts). A night stored before files were listed counts as one file of its span.
 */
export function checkJoin(target: RecordingRow, night: Night): void {
  checkSameZone(target, night);
  const stored = (Array.isArray(target.recording_meta.files) ? target.recording_meta.files : []) as NightPart[];
  checkOneNight([
    ...stored.filter((f) => typeof f.fileName === 'string' && Number.isFinite(f.startMs) && Number.isFinite(f.stopMs)),
    ...((night.meta.files as NightPart[] | undefined) ?? []),
    ...(stored.length === 0 ? [{ fileName: `the night of ${nightDate(Number(target.night_key))}`, startMs: Number(target.start_ms), stopMs: Number(target.stop_ms) }] : []),
  ]);
}

/**
 * An upload's files are read in the zone picked for them (EDF start times are the device's
 * local clock): joining a night stored in a zone of another offset at that time would place
 * them that many hours off its sessions. Refused naming both zones; zones of the same offset
 * (Europe/Zurich, Europe/Berlin) place them alike and join.
 */
function checkSameZone(target: RecordingRow, night: Night): void {
  const zone = target.timezone;
  const picked = night.timezone;
  if (!zone || zone === picked) return;
  const at = Number.isFinite(night.startMs) ? night.startMs : Number(target.start_ms);
  const offset = (z: string) => DateTime.fromMillis(at, { zone: z }).offset;
  if (!DateTime.fromMillis(at, { zone }).isValid || offset(zone) === offset(picked)) return;
  const date = nightDate(Number(target.night_key));
  throw new ApiError(
    409,
    'timezone_mismatch',
    `These files were read in ${picked}, but the night of ${date} they belong to was imported in ${zone}: their times would be placed ${Math.abs(offset(picked) - offset(zone)) / 60} h off. Pick ${zone} to add them to that night; nothing was stored.`,
    { params: { night: date, zone, picked } },
  );
}

/**
 * Where a night's files and events start and stop, leaving out its channels' ends (assembleNight
 * counts them too): joined onto a stored night, those are placed again on its grid. A night
 * without a file list (none stored before sessions) keeps its own span.
 */
function spanBesideChannels(night: Night): { startMs: number; stopMs: number } {
  const files = ((night.meta.files as NightPart[] | undefined) ?? []).filter((f) => Number.isFinite(f.startMs) && Number.isFinite(f.stopMs));
  if (files.length === 0) return { startMs: night.startMs, stopMs: night.stopMs };
  const startMs = Math.min(...files.map((f) => f.startMs));
  let stopMs = Math.max(...files.map((f) => f.stopMs));
  for (const e of night.events) if (!isUnscoredEpoch(e.text)) stopMs = Math.max(stopMs, e.onsetMs + e.durationMs);
  return { startMs, stopMs };
}

/**
 * Adds an upload's night to an existing recording in the caller's transaction (its channels
 * already staged when `staged` is given, in the order of night.channels). A channel that
 * continues one of the night's (the same signal of a later or earlier session, or of one that
 * fills a gap between its sessions: `joinInto`) is joined to it: one channel with a gap
 * between the sessions (sessions.ts), so sessions imported on different days, in any order,
 * make the same night as one upload of them all. A code the
 * night holds with no valid sample goes to an upload's channel with data (the old one keeps
 * its label); otherwise a code already in the night keeps its channel and the new one is
 * kept under its own label. Events are added, start and stop widen, the file list grows, and
 * cached analyses of the night are dropped (they read the channels it had).
 * Refused (NotOneNightError) when the night and the upload cannot be one night (limits.ts).
 * Returns the night as it now stands (start, stop, every channel code).
 */
export async function mergeIntoRecording(
  tx: Queryable,
  target: RecordingRow,
  night: Night,
  staged?: StagedNight,
): Promise<{ startMs: number; stopMs: number; codes: string[]; added: Night['channels'] }> {
  const [locked] = await tx.query<RecordingRow>('select * from recordings where id = $1 for update', [target.id]);
  checkJoin(locked, night);
  const storedFiles = (Array.isArray(locked.recording_meta.files) ? locked.recording_meta.files : []) as NightPart[];
  const uploadFiles = ((night.meta.files as NightPart[] | undefined) ?? []);
  const existing = await tx.query<ChannelRow>('select * from recording_channels where recording_id = $1 order by id', [target.id]);
  const taken = new Set(existing.map((r) => r.code));
  const uploadCodes = new Set(night.channels.map((c) => c.code));
  const joined = new Set<number>();
  const added: Night['channels'] = [];
  for (let i = 0; i < night.channels.length; i++) {
    const c = { ...night.channels[i], missingCodes: missingCodesOf(night.channels[i], target.source) };
    const row = existing.find((r) => r.code === c.code);
    if (!row) continue;
    const whole = joinInto(await loadChannelData(tx, row), c);
    if (whole) {
      await tx.query('delete from recording_channels where id = $1', [row.id]);
      await insertChannel(tx, target.id, { ...whole, code: row.code }, target.source);
      if (staged) await tx.query('delete from recording_channels where id = $1', [staged.channelIds[i]]);
      joined.add(i);
      added.push(night.channels[i]);
    } else if (Number(row.valid_count ?? row.sample_count) === 0 && validCountOf(c) > 0) {
      // The night's channel under this code holds nothing: the upload's, with data, takes the code.
      const code = fallbackCode({ code: row.code, label: row.label }, new Set([...taken, ...uploadCodes]));
      await tx.query('update recording_channels set code = $2 where id = $1', [row.id, code]);
      taken.delete(row.code);
      taken.add(code);
    }
  }
  const rest = night.channels.flatMap((c, i) => (joined.has(i) ? [] : [{ c, i }]));
  const renamed = rest.map(({ c }) => {
    const code = fallbackCode(c, taken);
    taken.add(code);
    return code === c.code ? c : { ...c, code };
  });
  added.push(...renamed);
  validateNight({ ...night, channels: renamed });
  // Staged channels (an upload's) move to the night under their new codes; others are written here.
  if (staged) {
    const pick = <T,>(list: T[]) => rest.map(({ i }) => list[i]);
    const remaining: StagedNight = { stageId: staged.stageId, channelIds: pick(staged.channelIds), codes: pick(staged.codes), missingCodes: pick(staged.missingCodes) };
    await attachStaged(tx, remaining, target.id, renamed, renamed.map((c) => c.code), renamed.map((c) => missingCodesOf(c, target.source)));
  } else for (const c of renamed) await insertChannel(tx, target.id, c, target.source);
  await insertEvents(tx, target.id, night.events, 'file');
  // The night's span as one upload of all its files makes it (assembleNight): its files' starts
  // and stops, its file events' ends and its channels as they now stand (a joined channel's
  // sessions placed again on the night's grid). A night stored without a file list (before
  // sessions, a device's) keeps its own span too.
  const span = spanBesideChannels({ ...night, meta: { ...night.meta, files: [...storedFiles, ...uploadFiles] } });
  let startMs = span.startMs;
  let stopMs = span.stopMs;
  if (storedFiles.length === 0) {
    startMs = Math.min(startMs, Number(locked.start_ms));
    stopMs = Math.max(stopMs, Number(locked.stop_ms));
  }
  const [ends] = await tx.query<{ start: number | null; stop: number | null; events: number | null }>(
    `select (select min(t0_ms) from recording_channels where recording_id = $1)::float8 as start,
            (select max(t0_ms + sample_count * 1000.0 / sample_rate) from recording_channels where recording_id = $1)::float8 as stop,
            (select max(onset_ms + duration_ms) from recording_events where recording_id = $1 and source = 'file' and text !~* $2)::float8 as events`,
    [target.id, UNSCORED_EPOCH_SQL],
  );
  if (ends?.start != null) startMs = Math.min(startMs, ends.start);
  for (const end of [ends?.stop, ends?.events]) if (end != null) stopMs = Math.max(stopMs, end);
  const files = [...storedFiles, ...uploadFiles];
  // A new revision, as a correction makes: an analysis computed from the night before these files
  // joined it (a request that read it meanwhile) is then not stored over the emptied rows.
  await tx.query('update recordings set start_ms = $2, stop_ms = $3, recording_meta = $4, correction_rev = correction_rev + 1 where id = $1', [
    target.id,
    Math.round(startMs),
    Math.round(stopMs),
    JSON.stringify({ ...locked.recording_meta, files }),
  ]);
  await tx.query('delete from night_analyses where recording_id = $1', [target.id]);
  await tx.query('delete from night_channel_stats where recording_id = $1', [target.id]);
  return { startMs, stopMs, codes: [...taken], added };
}
