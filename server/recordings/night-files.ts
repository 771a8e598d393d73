/**
 * One night from many files: the content hash of every imported file (a file is imported
 * once per patient), the night an upload belongs to (same night key, or overlapping time),
 * merging an upload into that night, and the device-scored events the files carry.
 */
import { createHash } from 'node:crypto';
import type { Queryable } from '../db/adapter';
import { ApiError } from '../errors';
import { channelEndMs, uniqueCode, type ParsedRecording } from './assemble';
import type { Night } from './model';
import { nightDate, nightKey } from './night-key';
import { insertChannel, insertEvents, validateNight, type RecordingRow } from './store';
import { deviceEvents, type ScoredKind } from './vendors';
import { missingCodesOf } from './missing';
import { attachStaged, type StagedNight } from './staging';

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

/**
 * Refuses an upload holding a file already imported for this patient (or the same file twice),
 * naming the file and the night it belongs to. `declared` are the client's hashes by file
 * name: one that differs from the server's means the file changed in transfer.
 */
export async function refuseDuplicates(db: Queryable, patientId: number, files: HashedFile[], declared: Record<string, string> = {}): Promise<void> {
  for (const f of files) {
    const client = declared[f.name];
    if (client !== undefined && client.toLowerCase() !== f.md5) {
      throw new ApiError(400, 'upload_damaged', `${f.name}: the file changed in transfer (md5 ${client} before upload, ${f.md5} received); nothing was stored, please upload it again.`);
    }
  }
  const seen = new Map<string, string>();
  for (const f of files) {
    const first = seen.get(f.md5);
    if (first !== undefined) throw new ApiError(409, 'duplicate_file', `${f.name}: the same file as ${first} in this upload; nothing was stored.`);
    seen.set(f.md5, f.name);
  }
  if (files.length === 0) return;
  const known = await db.query<{ md5: string; file_name: string; night_key: number }>(
    `select f.md5, f.file_name, r.night_key from recording_files f join recordings r on r.id = f.recording_id
     where f.patient_id = $1 and f.md5 = any($2::text[]) order by f.id`,
    [patientId, files.map((f) => f.md5)],
  );
  const hit = files.find((f) => known.some((k) => k.md5 === f.md5));
  if (hit) {
    const k = known.find((row) => row.md5 === hit.md5)!;
    const as = k.file_name === hit.name ? '' : ` (as ${k.file_name})`;
    throw new ApiError(409, 'duplicate_file', `${hit.name}: already imported${as} for the night of ${nightDate(k.night_key)}; nothing was stored.`);
  }
}

/** The scored events of the parsed files, each under its file's vendor convention. */
export function deviceEventsOf(parts: ParsedRecording[]): DeviceEvent[] {
  return parts.flatMap((p) => {
    const header = { fileName: p.fileName, recording: str(p.meta.recording), patient: str(p.meta.patient) };
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
 * Adds an upload's night to an existing recording in the caller's transaction (its channels
 * already staged when `staged` is given, in the order of night.channels): channels keep
 * their absolute t0 (a code already in the night keeps its channel; the new one is kept under
 * its own label, as assembleNight does), events are added, start and stop widen, the file list
 * grows, and cached analyses of the night are dropped (they read the channels it had).
 * Returns the night as it now stands (start, stop, every channel code).
 */
export async function mergeIntoRecording(
  tx: Queryable,
  target: RecordingRow,
  night: Night,
  staged?: StagedNight,
): Promise<{ startMs: number; stopMs: number; codes: string[]; added: Night['channels'] }> {
  const [locked] = await tx.query<RecordingRow>('select * from recordings where id = $1 for update', [target.id]);
  const taken = new Set((await tx.query<{ code: string }>('select code from recording_channels where recording_id = $1', [target.id])).map((r) => r.code));
  const added = night.channels.map((c) => {
    const code = uniqueCode(c, taken);
    taken.add(code);
    return code === c.code ? c : { ...c, code };
  });
  validateNight({ ...night, channels: added });
  // Staged channels (an upload's) move to the night under their new codes; others are written here.
  if (staged) await attachStaged(tx, staged, target.id, added, added.map((c) => c.code), added.map((c) => missingCodesOf(c, target.source)));
  else for (const c of added) await insertChannel(tx, target.id, c, target.source);
  await insertEvents(tx, target.id, night.events, 'file');
  let startMs = Math.min(Number(locked.start_ms), night.startMs);
  let stopMs = Math.max(Number(locked.stop_ms), night.stopMs);
  for (const c of added) {
    startMs = Math.min(startMs, c.t0);
    stopMs = Math.max(stopMs, channelEndMs(c));
  }
  const files = [...(Array.isArray(locked.recording_meta.files) ? locked.recording_meta.files : []), ...((night.meta.files as unknown[]) ?? [])];
  await tx.query('update recordings set start_ms = $2, stop_ms = $3, recording_meta = $4 where id = $1', [
    target.id,
    Math.round(startMs),
    Math.round(stopMs),
    JSON.stringify({ ...locked.recording_meta, files }),
  ]);
  await tx.query('delete from night_analyses where recording_id = $1', [target.id]);
  await tx.query('delete from night_channel_stats where recording_id = $1', [target.id]);
  return { startMs, stopMs, codes: [...taken], added };
}
