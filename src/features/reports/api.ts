import type { NewReportBody, ReportJob } from '../../../contract/reports';
import { call, download } from '../../api/client';
import { downloadFile } from '../../api/download';
import type { ReportLanguage, ReportType } from '../../../contract/report-types';

// The server's lists of report types and languages (a module without imports), so the dialog offers what POST /reports takes.
export { SINGLE_NIGHT_TYPES, TREND_TYPES } from '../../../contract/report-types';
export type { ReportLanguage, ReportType };
/** A report job (GET /reports/:id): the contract's. */
export type { ReportJob };
/** How often a running report's status is asked for. */
export const REPORT_POLL_MS = 1000;

export const defaultLanguage = (type: ReportType): ReportLanguage => (type.startsWith('en') ? 'en' : 'de');

export async function requestReport(body: NewReportBody) {
  return (await call('POST /reports', { body })).data;
}
export const reportStatus = async (id: number) => (await call('GET /reports/:id', { params: { id } })).data;
export const retryReport = async (id: number) => (await call('POST /reports/:id/retry', { params: { id } })).data;
export const listReports = async () => (await call('GET /reports', { query: {} })).data;

/** Downloads a finished report's PDF under the spec's file name. */
export const downloadReport = (job: Pick<ReportJob, 'id' | 'file_name'>): Promise<void> =>
  downloadFile(download('GET /reports/:id/file', 'application/pdf', { params: { id: job.id } }), job.file_name ?? `report_${job.id}.pdf`);
