import type { Queryable } from '../db/adapter';
import type { ReportLanguage, ReportType } from '../../contract/report-types';
import type { JobRow } from './worker';

/** A job row as the list and status calls read it: the worker's columns plus the file and patient. */
export interface JobListRow extends Omit<JobRow, 'practice_id' | 'requested_by' | 'paid'> {
  file_name: string | null;
  file_bytes: number | null;
  pages: number | null;
  created_at: string | Date;
  finished_at: string | Date | null;
  patient_name: string;
}

const COLUMNS = `j.id, j.patient_id, j.order_id, j.report_type, j.view, j.language, j.version, j.dates, j.status, j.step, j.error, j.attempts,
  j.file_name, j.file_bytes, j.pages, j.created_at, j.finished_at, trim(p.first_name || ' ' || p.last_name) as patient_name`;

/** The practice's report job `id` (undefined: none of this practice). */
export async function practiceJobRow(db: Queryable, id: number, practiceId: number): Promise<JobListRow | undefined> {
  const [row] = await db.query<JobListRow>(`select ${COLUMNS} from report_jobs j join patients p on p.id = j.patient_id where j.id = $1 and j.practice_id = $2`, [id, practiceId]);
  return row;
}

/** A report as requested: for which practice and patient, by whom, of which nights. */
export interface NewReportJob {
  practiceId: number;
  patientId: number;
  requestedBy: number;
  paid: boolean;
  orderId: string;
  reportType: ReportType;
  view: JobRow['view'];
  language: ReportLanguage;
  version: number;
  /** The nights (keys), in order. */
  dates: number[];
}

/** Queues a report job; its id. */
export async function insertReportJob(db: Queryable, j: NewReportJob): Promise<number> {
  const [row] = await db.query<{ id: number }>(
    `insert into report_jobs (practice_id, patient_id, requested_by, paid, order_id, report_type, view, language, version, dates)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
    [j.practiceId, j.patientId, j.requestedBy, j.paid, j.orderId, j.reportType, j.view, j.language, j.version, JSON.stringify(j.dates)],
  );
  return row!.id;
}

/** The practice's latest 200 jobs, of one patient or (null) all, newest first. */
export function practiceJobs(db: Queryable, practiceId: number, patientId: number | null): Promise<JobListRow[]> {
  return db.query<JobListRow>(
    `select ${COLUMNS} from report_jobs j join patients p on p.id = j.patient_id
         where j.practice_id = $1 and ($2::integer is null or j.patient_id = $2) order by j.id desc limit 200`,
    [practiceId, patientId],
  );
}

/** Puts a failed job back in the queue (a job no longer failed is left as it is). */
export async function requeueFailedJob(db: Queryable, id: number): Promise<void> {
  await db.query(`update report_jobs set status = 'queued', step = null, error = null, updated_at = now(), finished_at = null where id = $1 and status = 'failed'`, [id]);
}

/** A finished job's PDF. */
export async function reportFile(db: Queryable, id: number): Promise<Uint8Array> {
  const [row] = await db.query<{ file: Uint8Array }>('select file from report_jobs where id = $1', [id]);
  return row!.file;
}
