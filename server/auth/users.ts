import type { Queryable } from '../db/adapter';

/** A user row as the server uses it. */
export interface UserRow {
  id: number;
  email: string;
  password_hash: string;
  first_name: string;
  last_name: string;
  country: string | null;
  role: 'physician' | 'annotator' | 'admin' | 'system';
  is_annotator: boolean;
  physician_id: number | null;
  membership_type: 'paid' | 'non-paid';
  is_secondary_user: boolean;
  is_ternary_user: boolean;
  status: 'active' | 'pending' | 'refused' | 'disabled';
  window_start_time: string;
  window_end_time: string;
  organisation_id: number | null;
  secondary_emails: string;
  ternary_email: string;
  phone: string;
  phone2: string;
  phone3: string;
  date_of_birth: Date | string | null;
  gender: string;
  height: number | string | null;
  weight: number | string | null;
  bmi: number | string | null;
  specialisation_ids: string;
  rii_parameters: string;
  profile_image: string | null;
  reviewed_by: number | null;
  reviewed_at: Date | null;
  review_reason: string;
}

/** Lower-cases and trims an e-mail address: accounts are found case-insensitively. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | null> {
  const [row] = await db.query<UserRow>('select * from users where email = $1', [normaliseEmail(email)]);
  return row ?? null;
}


/** The physician whose patients this user works on (annotators and secondary users act for one). */
export function actingPhysicianId(user: UserRow): number {
  return user.physician_id ?? user.id;
}

/** The GET /user shape (spec 1 §3 "User details"). */
export function userDetails(user: UserRow) {
  return {
    user_id: user.id,
    country: user.country,
    email: user.email,
    first_name: user.first_name,
    last_name: user.last_name,
    window_start_time: user.window_start_time,
    window_end_time: user.window_end_time,
    is_annotator: user.is_annotator,
    membership_type: user.membership_type,
    is_admin: user.role === 'admin',
    isSecondaryUser: user.is_secondary_user,
    isTernaryUser: user.is_ternary_user,
    profile_image: user.profile_image ?? 'profile_image.jpg',
  };
}

/** Replaces a user's password hash. */
export async function setPasswordHash(tx: Queryable, userId: number, hash: string): Promise<void> {
  await tx.query('update users set password_hash = $2, updated_at = now() where id = $1', [userId, hash]);
}
