/** Request schemas and answers of the access trail (issue 33 point 8). */
import { Type, type Static } from '@sinclair/typebox';
import { id, Nullable } from './common';

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
export const AccessRow = Type.Object({
  id: Type.Integer(),
  /** When, ms since 1970 (a bigint column). */
  at_ms: Type.Integer(),
  user_email: Nullable(Type.String()),
  user_role: Nullable(Type.String()),
  /** The caller's address; the column allows none. */
  ip: Nullable(Type.String()),
  method: Type.String(),
  route: Type.String(),
  patient_id: Nullable(Type.Integer()),
  patient_code: Nullable(Type.String()),
  recording_id: Nullable(Type.Integer()),
  detail: Nullable(Type.String()),
  /** The answer's HTTP status. */
  status: Type.Integer(),
});
export type AccessRow = Static<typeof AccessRow>;

/** GET /admin/access-trail: a page of entries, newest first, and the id to ask the next page before (null: no more). */
export const AccessTrailAnswer = Type.Object({ entries: Type.Array(AccessRow), next_before_id: Nullable(Type.Integer()) });

/** GET /patient/access-log: the patient's last 200 accesses. */
export const AccessLogAnswer = Type.Object({ entries: Type.Array(AccessRow) });
