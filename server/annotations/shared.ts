import type { Queryable } from '../db/adapter';
import { ApiError } from '../errors';

/** 400 with the spec's message first and every message in data.errors. */
export function invalid(errors: string[]): ApiError {
  return new ApiError(400, 'validation_failed', errors[0], { errors });
}

/** 409 for a save based on an old version, saying who changed it and when. */
export async function conflict(tx: Queryable, what: 'annotation' | 'category', by: number | null, at: Date): Promise<ApiError> {
  const [user] = by ? await tx.query<{ first_name: string; last_name: string }>('select first_name, last_name from users where id = $1', [by]) : [];
  const who = user ? `${user.first_name} ${user.last_name}`.trim() : 'someone else';
  const when = `${at.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
  const message = `This ${what} was changed by ${who} at ${when} since you opened it. Reload to see the change, then save again.`;
  return new ApiError(409, `${what}_changed`, message, { params: { who: user ? who : '', at: at.toISOString() } });
}

/** Keeps who changed what, when, and the value before. */
export async function recordHistory(
  tx: Queryable,
  h: { annotationId?: number; labelId?: number; action: 'create' | 'update' | 'delete'; version: number; by: number; previous: unknown; current: unknown },
): Promise<void> {
  await tx.query(
    `insert into annotation_history (annotation_map_id, label_id, action, version, changed_by, previous, current) values ($1, $2, $3, $4, $5, $6, $7)`,
    [h.annotationId ?? null, h.labelId ?? null, h.action, h.version, h.by, h.previous === null ? null : JSON.stringify(h.previous), h.current === null ? null : JSON.stringify(h.current)],
  );
}
