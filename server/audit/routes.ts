import type { FastifyInstance } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { accessKind, type AccessRow, type AccessTrailFilter } from '../../contract/audit';
import { devicesEndpoints } from '../../contract/endpoints/devices';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { forbidden } from '../errors';
import type { Queryable } from '../db/adapter';
import { visiblePatient } from '../patients/access';
import type { AuditTrail } from './trail';

/** Rows of one CSV export at most (a busy year of a practice). */
const CSV_MAX_ROWS = 100_000;

const SELECT = `select t.id::int as id, t.at_ms::float8 as at_ms, t.user_email, t.user_role, t.ip, t.method, t.route, t.patient_id, p.patient_code, t.recording_id, t.detail, t.status
  from audit_trail t left join patients p on p.id = t.patient_id`;

/** The trail's rows matching the filter, newest first. */
function trailRows(db: Queryable, f: AccessTrailFilter, limit: number): Promise<AccessRow[]> {
  const where: string[] = [];
  const args: unknown[] = [];
  const add = (sql: string, value: unknown) => {
    args.push(value);
    where.push(sql.replace('?', `$${args.length}`));
  };
  if (f.patient_code?.trim()) add('lower(p.patient_code) = lower(?)', f.patient_code.trim());
  if (f.user?.trim()) add("t.user_email ilike '%' || ? || '%'", f.user.trim().replace(/[\\%_]/g, (c) => `\\${c}`));
  if (f.from_ms !== undefined) add('t.at_ms >= ?', f.from_ms);
  if (f.to_ms !== undefined) add('t.at_ms < ?', f.to_ms);
  if (f.before_id !== undefined) add('t.id < ?', f.before_id);
  args.push(limit);
  return db.query<AccessRow>(`${SELECT} ${where.length ? `where ${where.join(' and ')}` : ''} order by t.id desc limit $${args.length}`, args);
}

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
    const entries = await ctx.db.query<AccessRow>(`${SELECT} where t.patient_id = $1 order by t.id desc limit 200`, [patient.id]);
    return { data: { entries } };
  });
}
