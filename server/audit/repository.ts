import type { Queryable } from '../db/adapter';
import type { AccessRow, AccessTrailFilter } from '../../contract/audit';

const SELECT = `select t.id::int as id, t.at_ms::float8 as at_ms, t.user_email, t.user_role, t.ip, t.method, t.route, t.patient_id, p.patient_code, t.recording_id, t.detail, t.status
  from audit_trail t left join patients p on p.id = t.patient_id`;

/** The trail's rows matching the filter, newest first. */
export function trailRows(db: Queryable, f: AccessTrailFilter, limit: number): Promise<AccessRow[]> {
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

/** A patient's latest 200 accesses, newest first. */
export function patientTrailRows(db: Queryable, patientId: number): Promise<AccessRow[]> {
  return db.query<AccessRow>(`${SELECT} where t.patient_id = $1 order by t.id desc limit 200`, [patientId]);
}
