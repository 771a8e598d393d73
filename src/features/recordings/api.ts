import md5 from 'md5-wasm';
import { call } from '../../api/client';
import type { UploadAnswer, UploadLimits } from '../../../contract/imports';

/** What the server answers for an upload (UploadAnswer): the night it imported (ImportedNight, with its other nights), or only a device's daily summary. */
export type { DeviceSummaryImport } from '../../../contract/deviceSummaries';
export type { ImportSummary, OtherImportedNight, SkippedFile, UploadAnswer, UploadLimits } from '../../../contract/imports';

/** The server's upload limits; asked for after the screen's first paint (decision 1007). */
export async function fetchUploadLimits({ signal }: { signal?: AbortSignal } = {}): Promise<UploadLimits> {
  return (await call('GET /recordings/upload-limits', undefined, { signal, background: true })).data;
}


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
export async function uploadRecording(req: ImportRequest): Promise<UploadAnswer> {
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
  return (await call('POST /patient/upload-recording', { form })).data;
}
