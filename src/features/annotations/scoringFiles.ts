import type { ScoringImportAnswer, ScoringImportBody } from '../../../contract/scoring-files';
import type { ScoringSource } from '../../../contract/night-rules';
import { call, download } from '../../api/client';
import { saveFile } from '../../api/download';
import type { NightRef } from './api';

/** What the server did with an imported scoring file (the contract's schema). */
export type { ScoringImportAnswer as ScoringImportResult } from '../../../contract/scoring-files';

const query = (n: NightRef, source: ScoringSource) => ({ patient_id: n.patientId, recording_id: n.recordingId, source });

/** Downloads the night's marks of `source` as NSRR XML. */
export const downloadNsrrXml = async (n: NightRef, source: ScoringSource): Promise<void> =>
  saveFile(await download('GET /analytics/patient/export-nsrr-xml', 'application/xml', { query: query(n, source) }), `scoring_${n.night}.xml`);

/** Downloads the night's marks of `source` as an EDF+ annotation file. */
export const downloadEdfAnnotations = async (n: NightRef, source: ScoringSource): Promise<void> =>
  saveFile(await download('GET /analytics/patient/export-edf-annotations', 'application/octet-stream', { query: query(n, source) }), `scoring_${n.night}_annotations.edf`);

/** A file's bytes as base64, a slice at a time (a whole file spread into one call overflows the stack). */
function base64(bytes: Uint8Array): string {
  let binary = '';
  const STEP = 0x8000;
  for (let i = 0; i < bytes.length; i += STEP) binary += String.fromCharCode(...bytes.subarray(i, i + STEP));
  return btoa(binary);
}

/** Sends an NSRR XML or EDF+ file to be attached to the night as marks. */
export async function importScoringFile(n: NightRef, file: File): Promise<ScoringImportAnswer> {
  const body: ScoringImportBody = { patient_id: n.patientId, recording_id: n.recordingId, file_name: file.name, content_base64: base64(new Uint8Array(await file.arrayBuffer())) };
  return (await call('POST /analytics/patient/import-scoring', { body })).data;
}
