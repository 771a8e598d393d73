import md5 from 'md5-wasm';
import { request } from '../../api/client';

/** What the server answers for an imported night. */
export interface ImportedNight {
  recording_id: number;
  recording_start_time: number;
  recording_stop_time: number;
  timezone: string;
  channels: Array<{ code: string; label: string; fs: number; count: number }>;
  events: number;
  /** True when the files joined a night the patient already had. */
  merged?: boolean;
  /** The night key (Unix seconds) the files were stored under. */
  night?: number;
  night_start_time?: number;
  night_stop_time?: number;
  files?: Array<{ name: string; md5: string }>;
  /** Files left out: byte-identical to another of the upload, or stored before. */
  skipped_files?: SkippedFile[];
  device_events?: number;
  /** Every channel with code, label, rate and unit; skipped and unmapped signals. */
  summary?: ImportSummary;
  /** Device summary files of the upload (ResMed STR.edf): days read and stored; no night when alone. */
  device_summary?: { files: string[]; days_read: number; days_stored: number; first_day: string | null; last_day: string | null };
}

/** The server's import summary (server/recordings/summary.ts). */
export interface ImportSummary {
  channels: Array<{ code: string; label: string; rate: number; unit: string; samples: number; outOfRange: number; nonFinite: number }>;
  skipped: Array<{ file: string; label: string; reason: string }>;
  unmapped: Array<{ file: string; label: string; code: string; reason: string }>;
  /** The file(s) each code came from and its valid samples. */
  sources?: Array<{ code: string; label: string; files: string[]; valid: number }>;
}

/** A file of an upload that was not imported (server/recordings/night-files.ts). */
interface SkippedFile {
  name: string;
  reason: 'same_in_upload' | 'already_stored';
  same_as: string;
  night?: number;
}

/** GET /recordings/upload-limits: what one upload may hold. */
export interface UploadLimits {
  max_files: number;
  max_file_bytes: number;
  max_upload_bytes: number;
}

export async function fetchUploadLimits(): Promise<UploadLimits> {
  return (await request<UploadLimits>('GET', '/recordings/upload-limits')).data!;
}

/** Files a night's folder holds that the import reads (a DATALOG folder also holds .crc and .tgt files). */
export const IMPORTABLE = /\.(edf|bdf|csv)$/i;

/** Why files cannot be sent as one upload, checked before sending; null when they can. */
export type UploadProblem =
  | { kind: 'tooMany'; count: number; max: number }
  | { kind: 'fileTooLarge'; file: string; max: number }
  | { kind: 'uploadTooLarge'; size: number; max: number };

export function uploadProblem(files: readonly { name: string; size: number }[], limits: UploadLimits): UploadProblem | null {
  if (files.length > limits.max_files) return { kind: 'tooMany', count: files.length, max: limits.max_files };
  const large = files.find((f) => f.size > limits.max_file_bytes);
  if (large) return { kind: 'fileTooLarge', file: large.name, max: limits.max_file_bytes };
  const size = files.reduce((n, f) => n + f.size, 0);
  if (size > limits.max_upload_bytes) return { kind: 'uploadTooLarge', size, max: limits.max_upload_bytes };
  return null;
}

export interface ImportRequest {
  patientId: number;
  files: File[];
  timezone?: string;
  deviceId?: string;
  /** Channel code of a Timestamp,Value CSV whose file name does not carry it. */
  channel?: string;
}

/** Uploads the files of one night (EDF, EDF+, oximeter or Timestamp,Value CSV). */
export async function uploadRecording(req: ImportRequest): Promise<ImportedNight> {
  const form = new FormData();
  form.append('patient_id', String(req.patientId));
  if (req.timezone) form.append('timezone', req.timezone);
  if (req.deviceId) form.append('device_id', req.deviceId);
  if (req.channel) form.append('channel', req.channel);
  // The server hashes the files again and trusts its own figure; a differing one means a damaged transfer.
  const hashes: Record<string, string> = {};
  for (const file of req.files) hashes[file.name] = await md5(new Uint8Array(await file.arrayBuffer()));
  form.append('md5', JSON.stringify(hashes));
  for (const file of req.files) form.append('files', file, file.name);
  const res = await request<ImportedNight>('POST', '/patient/upload-recording', form);
  return res.data!;
}
