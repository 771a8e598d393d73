import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { devicesEndpoints } from '../../contract/endpoints/devices';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden, notFound } from '../errors';
import { visiblePatient } from '../patients/access';
import { noteAccessOf } from '../audit/trail';
import { actingPhysicianId, type UserRow } from '../auth/users';
import { nightDate } from '../recordings/night-key';
import { MAX_REPORT_DATES, REPORT_STEPS, viewOf } from '../../contract/report-types';
import { REPORT_CHANNEL, type JobRow, type ReportWorker } from './worker';

/** A job row as the list and status calls read it: the worker's columns plus the file and patient. */
interface JobListRow extends Omit<JobRow, 'practice_id' | 'requested_by' | 'paid'> {
  file_name: string | null;
  file_bytes: number | null;
  pages: number | null;
  created_at: string | Date;
  finished_at: string | Date | null;
  patient_name: string;
}

const COLUMNS = `j.id, j.patient_id, j.order_id, j.report_type, j.view, j.language, j.version, j.dates, j.status, j.step, j.error, j.attempts,
  j.file_name, j.file_bytes, j.pages, j.created_at, j.finished_at, trim(p.first_name || ' ' || p.last_name) as patient_name`;

/** A job as the client sees it: status, the step it is on and the steps' names for the progress bar. */
function jobView(j: JobListRow) {
  const stepIndex = j.step ? REPORT_STEPS.indexOf(j.step as (typeof REPORT_STEPS)[number]) : -1;
  const progress = j.status === 'done' ? 1 : j.status === 'running' ? Math.max(0, stepIndex) / REPORT_STEPS.length : 0;
  return {
    id: j.id,
    patient_id: j.patient_id,
    patient_code: j.order_id,
    patient_name: j.patient_name,
    order_id: j.order_id,
    report_type: j.report_type,
    view: j.view,
    language: j.language,
    version: j.version,
    dates: j.dates.map((d) => nightDate(d)),
    status: j.status,
    step: j.status === 'running' ? j.step : null,
    steps: [...REPORT_STEPS],
    progress,
    error: j.error,
    attempts: j.attempts,
    file_name: j.file_name,
    file_bytes: j.file_bytes,
    pages: j.pages,
    created_at: new Date(j.created_at).toISOString(),
    finished_at: j.finished_at === null ? null : new Date(j.finished_at).toISOString(),
  };
}

/** Reports are the practice's documents: its members make and read them, annotators do not. */
function reportUser(user: UserRow): UserRow {
  if (user.is_annotator) throw forbidden('Annotators do not make reports.');
  return user;
}

/**
 * The report service (issue 17 point 1, spec 2 §7 report provider): a request becomes a job,
 * a worker makes the PDF (process KPIs → create content → render → file), the client polls the
 * job and downloads the file. Every job is scoped to its practice (another's id is 404).
 */
export function reportRoutes(server: FastifyInstance, ctx: AppContext, worker: ReportWorker | null) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  const { db } = ctx;

  /** The practice's report `id`, its patient noted for the access trail. */
  async function practiceJob(request: FastifyRequest, user: UserRow, id: number) {
    const [row] = await db.query<JobListRow>(`select ${COLUMNS} from report_jobs j join patients p on p.id = j.patient_id where j.id = $1 and j.practice_id = $2`, [id, actingPhysicianId(user)]);
    if (!row || user.role === 'admin') throw notFound('report');
    noteAccessOf(request, row.patient_id);
    return row;
  }

  const wake = async () => {
    worker?.kick();
    await db.notify(REPORT_CHANNEL, 'queued');
  };

  app.post(
    '/reports',
    { preHandler: auth, schema: devicesEndpoints['POST /reports'] },
    async (request, reply) => {
      const user = reportUser(currentUser(request));
      const b = request.body;
      const patient = await visiblePatient(db, user, b.patient_id);
      if (b.order_id !== patient.patient_code) throw new ApiError(400, 'validation_failed', 'order_id must be the patient code.');
      // Only the checked dates are sent on (spec 2 §7).
      const dates = [...new Set(b.dates.filter((d) => d.checked).map((d) => d.numDate))].sort((x, y) => x - y);
      if (dates.length === 0) throw new ApiError(400, 'validation_failed', 'Check at least one date.');
      if (dates.length > MAX_REPORT_DATES) throw new ApiError(400, 'validation_failed', `A report covers at most ${MAX_REPORT_DATES} nights.`);
      const [row] = await db.query<{ id: number }>(
        `insert into report_jobs (practice_id, patient_id, requested_by, paid, order_id, report_type, view, language, version, dates)
         values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10) returning id`,
        [patient.physician_id, patient.id, user.id, user.membership_type === 'paid', patient.patient_code, b.report_type, viewOf(b.report_type), b.language, b.version ?? 1, JSON.stringify(dates)],
      );
      const job = await practiceJob(request, user, row!.id);
      await wake();
      return reply.code(202).send({ code: 'report_queued', data: jobView(job) });
    },
  );

  app.get(
    '/reports',
    { preHandler: auth, schema: devicesEndpoints['GET /reports'] },
    async (request) => {
      const user = reportUser(currentUser(request));
      if (user.role === 'admin') throw forbidden('Reports belong to practices.');
      const rows = await db.query<JobListRow>(
        `select ${COLUMNS} from report_jobs j join patients p on p.id = j.patient_id
         where j.practice_id = $1 and ($2::integer is null or j.patient_id = $2) order by j.id desc limit 200`,
        [actingPhysicianId(user), request.query.patient_id ?? null],
      );
      return { data: rows.map(jobView) };
    },
  );

  app.get('/reports/:id', { preHandler: auth, schema: devicesEndpoints['GET /reports/:id'] }, async (request) => ({
    data: jobView(await practiceJob(request, reportUser(currentUser(request)), request.params.id)),
  }));

  app.post('/reports/:id/retry', { preHandler: auth, schema: devicesEndpoints['POST /reports/:id/retry'] }, async (request, reply) => {
    const user = reportUser(currentUser(request));
    const job = await practiceJob(request, user, request.params.id);
    if (job.status !== 'failed') throw new ApiError(409, 'not_failed', 'Only a failed report can be retried.');
    await db.query(`update report_jobs set status = 'queued', step = null, error = null, updated_at = now(), finished_at = null where id = $1 and status = 'failed'`, [job.id]);
    await wake();
    return reply.code(202).send({ code: 'report_queued', data: jobView(await practiceJob(request, user, job.id)) });
  });

  app.get('/reports/:id/file', { preHandler: auth, schema: devicesEndpoints['GET /reports/:id/file'] }, async (request, reply) => {
    const user = reportUser(currentUser(request));
    const job = await practiceJob(request, user, request.params.id);
    if (job.status !== 'done') throw new ApiError(409, 'report_not_ready', job.status === 'failed' ? `The report failed: ${job.error ?? ''}` : 'The report is not ready yet.');
    const [row] = await db.query<{ file: Uint8Array }>('select file from report_jobs where id = $1', [job.id]);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${job.file_name ?? `report_${job.id}.pdf`}"`)
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(row!.file));
  });
}
