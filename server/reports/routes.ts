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
import { announceReportQueued, type ReportWorker } from './worker';
import { insertReportJob, practiceJobRow, practiceJobs, reportFile, requeueFailedJob, type JobListRow } from './repository';

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
    const row = await practiceJobRow(db, id, actingPhysicianId(user));
    if (!row || user.role === 'admin') throw notFound('report');
    noteAccessOf(request, row.patient_id);
    return row;
  }

  const wake = async () => {
    worker?.kick();
    await announceReportQueued(db);
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
      const id = await insertReportJob(db, {
        practiceId: patient.physician_id,
        patientId: patient.id,
        requestedBy: user.id,
        paid: user.membership_type === 'paid',
        orderId: patient.patient_code,
        reportType: b.report_type,
        view: viewOf(b.report_type),
        language: b.language,
        version: b.version ?? 1,
        dates,
      });
      const job = await practiceJob(request, user, id);
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
      const rows = await practiceJobs(db, actingPhysicianId(user), request.query.patient_id ?? null);
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
    await requeueFailedJob(db, job.id);
    await wake();
    return reply.code(202).send({ code: 'report_queued', data: jobView(await practiceJob(request, user, job.id)) });
  });

  app.get('/reports/:id/file', { preHandler: auth, schema: devicesEndpoints['GET /reports/:id/file'] }, async (request, reply) => {
    const user = reportUser(currentUser(request));
    const job = await practiceJob(request, user, request.params.id);
    if (job.status !== 'done') throw new ApiError(409, 'report_not_ready', job.status === 'failed' ? `The report failed: ${job.error ?? ''}` : 'The report is not ready yet.');
    const file = await reportFile(db, job.id);
    return reply
      .type('application/pdf')
      .header('content-disposition', `attachment; filename="${job.file_name ?? `report_${job.id}.pdf`}"`)
      .header('cache-control', 'private, no-store')
      .send(Buffer.from(file));
  });
}
