// The report queue: jobs in report_jobs, worked one at a time per worker. The server runs one
// worker in-process; `npm run reports` runs another as a second process (PostgreSQL). A job
// is claimed with FOR UPDATE SKIP LOCKED, so two workers never take the same one.
import { hostname } from 'node:os';
import type { Db, Queryable } from '../db/adapter';
import { createContent, processKpis, type ReportRequest } from './content';
import { patiently } from '../services/engine-pool';
import { renderReport } from './render';
import { reportFileName, type ReportLanguage, type ReportStep, type ReportType } from '../../contract/report-types';
import { nightDate } from '../recordings/night-key';
import { isDatabaseOutage } from '../errors';
import { fallbackLogger, type Logger } from '../log';

/** NOTIFY channel: a job was queued (wakes workers in other processes). */
const REPORT_CHANNEL = 'report_jobs';

/** Wakes the workers of every server process: a job was queued. */
export function announceReportQueued(db: Db): Promise<void> {
  return db.notify(REPORT_CHANNEL, 'queued');
}

export interface JobRow {
  id: number;
  practice_id: number;
  patient_id: number;
  requested_by: number | null;
  paid: boolean;
  order_id: string;
  report_type: ReportType;
  view: 'single' | 'trend';
  language: ReportLanguage;
  version: number;
  dates: number[];
  status: 'queued' | 'running' | 'done' | 'failed';
  step: ReportStep | null;
  error: string | null;
  attempts: number;
}

/** A job stuck in "running" this long belonged to a worker that died: it is failed, to be retried. */
const STALE_MS = 10 * 60_000;

let workerSeq = 0;

export class ReportWorker {
  readonly name = `${hostname()}:${process.pid}:${++workerSeq}`;
  private running: Promise<void> | null = null;
  private again = false;
  private stopped = false;
  private timer: NodeJS.Timeout | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  /** Called after each job ends (tests wait on it). */
  onJobEnd: ((id: number, status: 'done' | 'failed') => void) | null = null;

  constructor(
    private readonly db: Db,
    private readonly options: { pollMs?: number; listen?: boolean } = {},
    private readonly log: Logger = fallbackLogger(),
  ) {}

  /** Starts: fails jobs of dead workers, listens for new ones, polls as a fallback. */
  async start(): Promise<void> {
    await this.db.query(
      `update report_jobs set status = 'failed', error = 'The report was interrupted (the server stopped while it was being made). Retry it.', updated_at = now(), finished_at = now()
       where status = 'running' and updated_at < now() - ($1::integer * interval '1 millisecond')`,
      [STALE_MS],
    );
    if (this.options.listen !== false) this.unlisten = await this.db.listen(REPORT_CHANNEL, () => this.kick());
    if (this.options.pollMs) this.timer = setInterval(() => this.kick(), this.options.pollMs);
    this.kick();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearInterval(this.timer);
    await this.unlisten?.().catch(() => undefined);
    await this.running?.catch(() => undefined);
  }

  /** Works the queue until it is empty; a kick while working makes it look once more. */
  kick(): void {
    if (this.stopped) return;
    if (this.running) {
      this.again = true;
      return;
    }
    this.running = (async () => {
      do {
        this.again = false;
        while (!this.stopped && (await this.workOne())) {
          /* next job */
        }
      } while (this.again && !this.stopped);
    })()
      // A lost database is logged once by the request path (OutageLog); the worker stays quiet
      // about it and finds its jobs again when the database is back.
      .catch((err: Error) => {
        if (!isDatabaseOutage(err)) this.log.error(`Report worker: ${err.message}`);
      })
      .finally(() => {
        this.running = null;
      });
  }

  /** Claims and works one queued job; false when there was none. */
  async workOne(): Promise<boolean> {
    const job = await claimJob(this.db, this.name);
    if (!job) return false;
    // A report is background work: its nights' analyses wait for room in the engine's pool.
    const status = await patiently(() => runJob(this.db, job, this.log));
    this.onJobEnd?.(job.id, status);
    return true;
  }
}

/** Takes the oldest queued job (skipping ones another worker is taking). */
export async function claimJob(db: Db, worker: string): Promise<JobRow | null> {
  return db.transaction(async (tx) => {
    const [row] = await tx.query<JobRow>(
      `update report_jobs set status = 'running', step = 'process_kpis', claimed_by = $1, attempts = attempts + 1, error = null, started_at = now(), updated_at = now()
       where id = (select id from report_jobs where status = 'queued' order by id for update skip locked limit 1)
       returning id, practice_id, patient_id, requested_by, paid, order_id, report_type, view, language, version, dates, status, step, error, attempts`,
      [worker],
    );
    return row ?? null;
  });
}

const setStep = (db: Queryable, id: number, step: ReportStep) => db.query(`update report_jobs set step = $2, updated_at = now() where id = $1`, [id, step]);

/** Works one claimed job through the provider's steps; the file or the reason it failed is stored. */
async function runJob(db: Db, job: JobRow, log: Logger): Promise<'done' | 'failed'> {
  const req: ReportRequest = { patientId: job.patient_id, practiceId: job.practice_id, type: job.report_type, language: job.language, version: job.version, paid: job.paid, dates: job.dates };
  try {
    const nights = await processKpis(db, req);
    if (nights.length === 0) throw new ReportFailure('None of the chosen dates has a recording.');
    await setStep(db, job.id, 'create_content');
    const content = await createContent(db, req, nights);
    await setStep(db, job.id, 'render');
    const { pdf, pages } = await renderReport(content);
    await setStep(db, job.id, 'file');
    const name = reportFileName(job.report_type, job.language, content.patient.code, nights[0]!.device_id, nights.map((n) => nightDate(n.night_key)));
    await db.query(
      `update report_jobs set status = 'done', file = $2, file_name = $3, file_bytes = $4, pages = $5, updated_at = now(), finished_at = now() where id = $1`,
      [job.id, pdf, name, pdf.length, pages],
    );
    return 'done';
  } catch (err) {
    const reason = err instanceof ReportFailure ? err.message : `The report could not be made: ${(err as Error).message}`;
    if (!(err instanceof ReportFailure)) log.error({ err }, `Report ${job.id} failed: ${(err as Error).message}`);
    await db.query(`update report_jobs set status = 'failed', error = $2, updated_at = now(), finished_at = now() where id = $1`, [job.id, reason.slice(0, 500)]);
    return 'failed';
  }
}

/** A failure whose message is for the user as it stands. */
class ReportFailure extends Error {}
