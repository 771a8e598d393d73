import type { Queryable } from '../db/adapter';
import type { UserRow } from '../auth/users';

/** A user with their organisation's name. */
export interface ProfileRow extends UserRow {
  organisation_name: string | null;
}

/** What a profile update stores. */
export interface ProfileUpdate {
  first_name: string;
  last_name: string;
  secondary_emails: string;
  ternary_email: string;
  phone: string;
  phone2: string;
  phone3: string;
  organisation_id: number | null;
  country: string | null;
  date_of_birth: string | null;
  window_start_time: string | null;
  window_end_time: string | null;
  rii_parameters: string[];
  specialisation_ids: string;
  gender: string;
  height: number | null;
  weight: number | null;
  bmi: number | null;
  profile_image: string | null;
  /** A new password's hash, or null to keep the password. */
  password_hash: string | null;
}

/** A user's profile. */
export async function loadProfile(db: Queryable, userId: number): Promise<ProfileRow> {
  const [row] = await db.query<ProfileRow>('select u.*, o.name as organisation_name from users u left join organisations o on o.id = u.organisation_id where u.id = $1', [userId]);
  return row;
}

/** Every specialisation a physician may name. */
export function listSpecialisations(db: Queryable) {
  return db.query<{ id: number; specialisation_name: string }>('select id, specialisation_name from specialisations order by id');
}

/** How many of these ids are known specialisations. */
export async function knownSpecialisations(db: Queryable, ids: number[]): Promise<number> {
  return (await db.query<{ id: number }>('select id from specialisations where id = any($1::int[])', [ids])).length;
}

/** Whether another account signs in with this address. */
export async function emailTakenByOther(db: Queryable, email: string, userId: number): Promise<boolean> {
  const [taken] = await db.query('select 1 from users where email = $1 and id <> $2', [email, userId]);
  return taken !== undefined;
}

/** Removes a user's avatar images. */
export async function deleteAvatars(tx: Queryable, userId: number): Promise<void> {
  await tx.query('delete from user_avatars where user_id = $1', [userId]);
}

/** Stores a user's avatar image under its name. */
export async function insertAvatar(tx: Queryable, name: string, userId: number, contentType: string, bytes: Buffer): Promise<void> {
  await tx.query('insert into user_avatars (name, user_id, content_type, bytes) values ($1, $2, $3, $4)', [name, userId, contentType, bytes]);
}

/** An avatar image of the physician's practice (the physician and whoever works for them). */
export async function practiceAvatar(db: Queryable, name: string, physicianId: number) {
  const [row] = await db.query<{ content_type: string; bytes: Uint8Array }>(
    `select a.content_type, a.bytes from user_avatars a join users u on u.id = a.user_id
     where a.name = $1 and coalesce(u.physician_id, u.id) = $2`,
    [name, physicianId],
  );
  return row;
}

/** Saves a user's profile (the password only when a new hash is given). */
export async function updateProfile(tx: Queryable, userId: number, p: ProfileUpdate): Promise<void> {
  await tx.query(
    `update users set first_name = $2, last_name = $3, secondary_emails = $4, ternary_email = $5, phone = $6, phone2 = $7, phone3 = $8,
       organisation_id = $9, country = $10, date_of_birth = $11, window_start_time = $12, window_end_time = $13, rii_parameters = $14,
       specialisation_ids = $15, gender = $16, height = $17, weight = $18, bmi = $19, profile_image = $20,
       password_hash = coalesce($21, password_hash), updated_at = now()
     where id = $1`,
    [
      userId, p.first_name, p.last_name, p.secondary_emails, p.ternary_email, p.phone, p.phone2, p.phone3,
      p.organisation_id, p.country, p.date_of_birth, p.window_start_time, p.window_end_time,
      JSON.stringify(p.rii_parameters), p.specialisation_ids, p.gender, p.height, p.weight, p.bmi, p.profile_image, p.password_hash,
    ],
  );
}

/** Ends every session of the user but this one. */
export async function revokeOtherSessions(tx: Queryable, userId: number, keepTokenId: number | null): Promise<void> {
  await tx.query('update auth_tokens set revoked_at = now() where user_id = $1 and id <> $2 and revoked_at is null', [userId, keepTokenId]);
}

/** A physician's preferences as stored; null before any was saved. */
export async function loadPreferences(db: Queryable, physicianId: number) {
  // The channel orders as saveChannelOrder stores them (json: key order kept); the settings as their check constraints allow.
  const [row] = await db.query<{ kpi_order_preference: Record<string, boolean> | null; trendview_kpi_order_preference: Record<string, boolean> | null; desaturation_rule: 3 | 4; rii_divisor: 'GSD' | 'TST' | 'TBT' | 'TBR' }>(
    'select kpi_order_preference, trendview_kpi_order_preference, desaturation_rule, rii_divisor from physician_preferences where physician_id = $1',
    [physicianId],
  );
  return row ?? null;
}

/** The two channel orders a practice keeps: the single night's and the trend's. */
export type ChannelOrderField = 'kpi_order_preference' | 'trendview_kpi_order_preference';

/** Saves one channel order of a practice, made or replaced, with who saved it. */
export async function saveChannelOrder(db: Queryable, physicianId: number, field: ChannelOrderField, order: Record<string, boolean>, by: number): Promise<void> {
  await db.query(
    `insert into physician_preferences (physician_id, ${field}, updated_by) values ($1, $2, $3)
     on conflict (physician_id) do update set ${field} = excluded.${field}, updated_by = excluded.updated_by, updated_at = now()`,
    [physicianId, JSON.stringify(order), by],
  );
}
