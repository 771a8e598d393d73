/** Request schemas and answers of the access trail (issue 33 point 8). */
import { Type, type Static } from '@sinclair/typebox';
import { id } from './common';

/** GET /admin/access-trail (and .csv): filters, newest first, paged by the last id seen. */
export const AccessTrailQuery = Type.Object({
  patient_code: Type.Optional(Type.String({ maxLength: 64 })),
  user: Type.Optional(Type.String({ maxLength: 254 })),
  from_ms: Type.Optional(Type.Integer({ minimum: 0 })),
  to_ms: Type.Optional(Type.Integer({ minimum: 0 })),
  before_id: Type.Optional(Type.Integer({ minimum: 1 })),
  limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 500 })),
});
export type AccessTrailFilter = Static<typeof AccessTrailQuery>;

/** GET /patient/access-log: who opened this patient's data. */
export const PatientAccessQuery = Type.Object({ patient_id: id });

/** One access as the screens list it. */
export interface AccessRow {
  id: number;
  at_ms: number;
  user_email: string | null;
  user_role: string | null;
  ip: string;
  method: string;
  route: string;
  patient_id: number | null;
  patient_code: string | null;
  recording_id: number | null;
  detail: string | null;
  status: number;
}

/**
 * The spec's API reads many things by POST (get-comment, get-annotations, device-history…):
 * whether an access read or changed data is told by its route, not its method alone.
 */
const POST_READS = new Set(['/analytics/patient/all-kpi-summary', '/device/device-history', '/device/future-allocations']);

/** 'read' for a GET or a POST that only reads (a `get-` route or one of POST_READS), else 'change'. */
export function accessKind(method: string, route: string): 'read' | 'change' {
  if (method === 'GET' || method === 'HEAD') return 'read';
  const last = route.slice(route.lastIndexOf('/') + 1);
  return last.startsWith('get-') || POST_READS.has(route) ? 'read' : 'change';
}
