import type { Queryable } from '../db/adapter';

/** Adds an organisation; its id. */
export async function insertOrganisation(tx: Queryable, name: string): Promise<number> {
  const [org] = await tx.query<{ id: number }>('insert into organisations (name) values ($1) returning id', [name]);
  return org.id;
}

/** A signup's account: a physician waiting for the clinic to verify them. */
export interface NewPhysician {
  email: string;
  passwordHash: string;
  firstName: string;
  lastName: string;
  country: string;
  organisationId: number | null;
}

/** Adds a physician's account as signup makes it: pending until an admin approves it. */
export async function insertPendingPhysician(tx: Queryable, p: NewPhysician): Promise<void> {
  await tx.query(
    `insert into users (email, password_hash, first_name, last_name, country, organisation_id, role, status)
     values ($1, $2, $3, $4, $5, $6, 'physician', 'pending')`,
    [p.email, p.passwordHash, p.firstName, p.lastName, p.country, p.organisationId],
  );
}

/** Every account waiting since signup, then the decisions of the last 90 days (who decided and when). */
export function recentSignups(db: Queryable) {
  return db.query<{
    user_id: number;
    email: string;
    first_name: string;
    last_name: string;
    country: string | null;
    organisation_name: string | null;
    status: 'pending' | 'active' | 'refused' | 'disabled';
    created_at: Date;
    reviewed_at: Date | null;
    reviewed_by: string | null;
    review_reason: string;
  }>(
    `select u.id as user_id, u.email, u.first_name, u.last_name, u.country, o.name as organisation_name, u.status,
            u.created_at, u.reviewed_at, r.email as reviewed_by, u.review_reason
     from users u left join organisations o on o.id = u.organisation_id left join users r on r.id = u.reviewed_by
     where u.status = 'pending' or (u.reviewed_by is not null and u.reviewed_at > now() - interval '90 days')
     order by u.status = 'pending' desc, coalesce(u.reviewed_at, u.created_at) desc
     limit 500`,
  );
}

/** A physician's account locked for a signup decision (inside the caller's transaction); null when there is none. */
export async function lockApplicant(tx: Queryable, userId: number) {
  const [u] = await tx.query<{ id: number; email: string; first_name: string; status: string }>(
    `select id, email, first_name, status from users where id = $1 and role = 'physician' for update`,
    [userId],
  );
  return u ?? null;
}

/** Records an admin's decision on a signup: the account's new status, who decided, when and why. */
export async function recordSignupDecision(tx: Queryable, userId: number, status: 'active' | 'refused', adminId: number, reason: string): Promise<void> {
  await tx.query(`update users set status = $2, reviewed_by = $3, reviewed_at = now(), review_reason = $4, updated_at = now() where id = $1`, [userId, status, adminId, reason]);
}
