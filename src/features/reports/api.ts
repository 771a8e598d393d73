import type { NewReportBody } from '../../../contract/reports';
import { request } from '../../api/client';
import { downloadFile } from '../../api/download';
import type { ReportLanguage, ReportType } from '../../../contract/report-types';

// The server's lists of report types and languages (a module without imports), so the dialog offers what POST /reports takes.
export { SINGLE_NIGHT_TYPES, TREND_TYPES } from '../../../contract/report-types';
export type { ReportLanguage, ReportType };
/** How often a running report's status is asked for. */
export const REPORT_POLL_MS = 1000;

/** A report job (GET /reports/:id). */
export interface ReportJob {
  id: number;
  patient_id: number;
  patient_code: string;
  patient_name: string;
  report_type: ReportType;
  view: 'single' | 'trend';
  language: ReportLanguage;
  version: number;
  dates: string[];
  status: 'queued' | 'running' | 'done' | 'failed';
  step: string | null;
  steps: string[];
  progress: number;
  error: string | null;
  attempts: number;
  file_name: string | null;
  file_bytes: number | null;
  pages: number | null;
  created_at: string;
  finished_at: string | null;
}

export const defaultLanguage = (type: ReportType): ReportLanguage => (type.startsWith('en') ? 'en' : 'de');

export async function requestReport(body: NewReportBody) {
  return (await request<ReportJob>('POST', '/reports', body)).data!;
}
export const reportStatus = async (id: number) => (await request<ReportJob>('GET', `/reports/${id}`)).data!;
export const retryReport = async (id: number) => (await request<ReportJob>('POST', `/reports/${id}/retry`, {})).data!;
export const listReports = async () => (await request<ReportJob[]>('GET', '/reports')).data ?? [];

/** Downloads a finished report's PDF under the spec's file name. */
export const downloadReport = (job: Pick<ReportJob, 'id' | 'file_name'>): Promise<void> => downloadFile(`/reports/${job.id}/file`, job.file_name ?? `report_${job.id}.pdf`, 'application/pdf');
