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
