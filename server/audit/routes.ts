import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { accessKind } from '../../contract/audit-rules';
import { devicesEndpoints } from '../../contract/endpoints/devices';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { forbidden } from '../errors';
import { visiblePatient } from '../patients/access';
import type { AuditTrail } from './trail';
import { patientTrailRows, trailRows } from './repository';

/** Rows of one CSV export at most (a busy year of a practice). */
const CSV_MAX_ROWS = 100_000;

const csvCell = (v: unknown) => {
  const s = v === null || v === undefined ? '' : String(v);
  // A cell a spreadsheet would run as a formula is kept as text.
  const safe = /^[=+\-@\t\r]/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** The access trail: the admin's whole view (filter, page, CSV) and the physician's view of one patient. */
export function auditRoutes(server: FastifyInstance, ctx: AppContext, trail: AuditTrail) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const auth = authenticate(ctx);
  const adminOnly = (request: Parameters<typeof currentUser>[0]) => {
    if (currentUser(request).role !== 'admin') throw forbidden('Only administrators read the access trail.');
  };

  app.get('/admin/access-trail', { preHandler: auth, schema: devicesEndpoints['GET /admin/access-trail'] }, async (request) => {
    adminOnly(request);
    // What was accessed up to this moment is listed, the last few milliseconds included.
    await trail.flush();
    const limit = request.query.limit ?? 100;
    const entries = await trailRows(ctx.db, request.query, limit);
    return { data: { entries, next_before_id: entries.length === limit ? entries[entries.length - 1]!.id : null } };
  });

  app.get('/admin/access-trail.csv', { preHandler: auth, schema: devicesEndpoints['GET /admin/access-trail.csv'] }, async (request, reply) => {
    adminOnly(request);
    await trail.flush();
    const rows = await trailRows(ctx.db, request.query, CSV_MAX_ROWS);
    const header = ['time_utc', 'user', 'role', 'address', 'method', 'access', 'route', 'patient_code', 'patient_id', 'recording_id', 'detail', 'status'];
    const lines = rows.map((r) => [new Date(r.at_ms).toISOString(), r.user_email, r.user_role, r.ip, r.method, accessKind(r.method, r.route), r.route, r.patient_code, r.patient_id, r.recording_id, r.detail, r.status].map(csvCell).join(','));
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="access_trail_${new Date().toISOString().slice(0, 10)}.csv"`)
      .send(Buffer.from(`${[header.join(','), ...lines].join('\r\n')}\r\n`, 'utf8'));
  });

  // Who opened this patient's data: the practice's physicians (not annotators) see it.
  app.get('/patient/access-log', { preHandler: auth, schema: devicesEndpoints['GET /patient/access-log'] }, async (request) => {
    const user = currentUser(request);
    if (user.is_annotator) throw forbidden('Annotators do not see who opened a patient.');
    const patient = await visiblePatient(ctx.db, user, request.query.patient_id, 'read');
    await trail.flush();
    const entries = await patientTrailRows(ctx.db, patient.id);
    return { data: { entries } };
  });
}
