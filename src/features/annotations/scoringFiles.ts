import type { ScoringImportBody, ScoringSource } from '../../../contract/scoring-files';
import { request } from '../../api/client';
import { downloadFile } from '../../api/download';
import type { NightRef } from './api';

/** What the server did with an imported scoring file. */
export interface ScoringImportResult {
  format: 'nsrr-xml' | 'edf+';
  imported: number;
  duplicates: number;
  outside: number;
  instants: number;
  categories_created: string[];
  channels_substituted: Array<{ from: string | null; to: string; count: number }>;
}

const query = (n: NightRef, source: ScoringSource) => `patient_id=${n.patientId}&recording_id=${n.recordingId}&source=${source}`;

/** Downloads the night's marks of `source` as NSRR XML. */
export const downloadNsrrXml = (n: NightRef, source: ScoringSource): Promise<void> =>
  downloadFile(`/analytics/patient/export-nsrr-xml?${query(n, source)}`, `scoring_${n.night}.xml`, 'application/xml');

/** Downloads the night's marks of `source` as an EDF+ annotation file. */
export const downloadEdfAnnotations = (n: NightRef, source: ScoringSource): Promise<void> =>
  downloadFile(`/analytics/patient/export-edf-annotations?${query(n, source)}`, `scoring_${n.night}_annotations.edf`, 'application/octet-stream');

/** A file's bytes as base64, a slice at a time (a whole file spread into one call overflows the stack). */
function base64(bytes: Uint8Array): string {
  let binary = '';
  const STEP = 0x8000;
  for (let i = 0; i < bytes.length; i += STEP) binary += String.fromCharCode(...bytes.subarray(i, i + STEP));
  return btoa(binary);
}

/** Sends an NSRR XML or EDF+ file to be attached to the night as marks. */
export async function importScoringFile(n: NightRef, file: File): Promise<ScoringImportResult> {
  const body: ScoringImportBody = { patient_id: n.patientId, recording_id: n.recordingId, file_name: file.name, content_base64: base64(new Uint8Array(await file.arrayBuffer())) };
  const res = await request<ScoringImportResult>('POST', '/analytics/patient/import-scoring', body);
  return res.data!;
}
