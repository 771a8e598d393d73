import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { AvatarParams } from '../../contract/profile';
import type { AppContext } from '../context';
import { authenticate, currentUser } from '../context';
import { ApiError, errorBody, notFound } from '../errors';
import { hashPassword, verifyPassword } from '../auth/passwords';
import { LIMITS, take } from '../services/rate-limit';
import { actingPhysicianId, type UserRow } from '../auth/users';
import { findCountry } from '../countries';
import { unstorableField } from '../input-guard';
import {
  DEFAULT_RII,
  formatWindowTime,
  lockedFields,
  parseWindowTime,
  PROFILE_LIMITS,
  PROFILE_MESSAGES,
  sniffImage,
  validateProfile,
  type ProfileError,
  type ProfileForm,
} from '../../contract/profile-rules';

/** The default avatar (spec 1 §4, §7): served for this name, and for users without an image. */
const DEFAULT_AVATAR = 'profile_image.jpg';
const DEFAULT_AVATAR_FILE = fileURLToPath(new URL('../assets/profile_image.jpg', import.meta.url));

const TEXT_FIELDS = [
  'first_name', 'last_name', 'email_id', 'secondary_emails', 'ternary_email', 'device_start_window', 'device_stop_window',
  'phone', 'phone2', 'phone3', 'date_of_birth', 'gender', 'height', 'weight', 'bmi', 'organisation_name', 'country',
  'specialisation_ids', 'removed_profile_image', 'rii_parameters', 'current_password', 'new_password',
] as const;
type Fields = Partial<Record<(typeof TEXT_FIELDS)[number], string>>;
const FIELD_MAX = 2000;

/** A profile update's problem: 400 with the spec's words, the field and the code the client translates. */
function invalid(field: string, error: ProfileError): ApiError {
  return new ApiError(400, 'validation_failed', PROFILE_MESSAGES[error], { fieldRule: { field, rule: error } });
}

interface ProfileRow extends UserRow {
  organisation_name: string | null;
}

function parseRii(text: string | undefined, fallback: string[]): string[] {
  if (text === undefined || text === '') return fallback;
  try {
    const v = JSON.parse(text);
    if (Array.isArray(v) && v.every((c) => typeof c === 'string')) return v;
  } catch {
    /* refused below */
  }
  throw invalid('rii_parameters', 'riiUnknown');
}

const storedRii = (text: string): string[] => {
  try {
    const v = JSON.parse(text);
    return Array.isArray(v) ? v.filter((c): c is string => typeof c === 'string') : DEFAULT_RII;
  } catch {
    return DEFAULT_RII;
  }
};

const isoDay = (d: unknown): string => (d instanceof Date ? d.toISOString().slice(0, 10) : typeof d === 'string' ? d.slice(0, 10) : '');
const num = (v: unknown): number | null => (v === null || v === undefined ? null : Number(v));

/** The GET /user/profile shape (spec 1 §3 "User profile"). */
function profileOf(u: ProfileRow) {
  return {
    user_id: u.id,
    first_name: u.first_name,
    last_name: u.last_name,
    email_id: u.email,
    secondary_emails: u.secondary_emails,
    ternary_email: u.ternary_email,
    organisation_name: u.organisation_name ?? '',
    country: u.country ?? '',
    primary_phone_number: u.phone,
    secondary_phone_number: u.phone2,
    other_phone_number: u.phone3,
    date_of_birth: u.date_of_birth ? isoDay(u.date_of_birth) : '',
    profile_image: u.profile_image ?? DEFAULT_AVATAR,
    specialisation_ids: u.specialisation_ids ? u.specialisation_ids.split(',').map(Number).filter(Number.isInteger) : [],
    window_start_time: u.window_start_time,
    window_end_time: u.window_end_time,
    device_start_window: formatWindowTime(u.window_start_time),
    device_stop_window: formatWindowTime(u.window_end_time),
    rii_parameters: storedRii(u.rii_parameters),
    membership_type: u.membership_type,
    isSecondaryUser: u.is_secondary_user,
    isTernaryUser: u.is_ternary_user,
    gender: u.gender,
    height: num(u.height),
    weight: num(u.weight),
    bmi: num(u.bmi),
  };
}

/** The profile popup's calls: read, the multipart update, specialisations, avatars. */
export function profileRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  const { db } = ctx;
  const auth = authenticate(ctx);

  const loadProfile = async (userId: number): Promise<ProfileRow> => {
    const [row] = await db.query<ProfileRow>('select u.*, o.name as organisation_name from users u left join organisations o on o.id = u.organisation_id where u.id = $1', [userId]);
    return row;
  };

  app.get('/user/profile', { preHandler: auth }, async (request) => ({ data: { profile: profileOf(await loadProfile(currentUser(request).id)) } }));

  app.get('/physician/specialisations', { preHandler: auth }, async () => ({
    data: { specialisations: await db.query<{ id: number; specialisation_name: string }>('select id, specialisation_name from specialisations order by id') },
  }));

  /** Reads the form: text fields, and at most one image (≤ 5,000,000 bytes) into memory. */
  const readForm = async (request: FastifyRequest): Promise<{ fields: Fields; image: { name: string; bytes: Buffer } | null }> => {
    if (!request.isMultipart()) {
      const body = (request.body ?? {}) as Record<string, unknown>;
      if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'validation_failed', 'Send the profile as multipart/form-data.');
      const fields: Fields = {};
      for (const k of TEXT_FIELDS) {
        const v = body[k];
        if (v === undefined || v === null) continue;
        if (typeof v === 'object') fields[k] = JSON.stringify(v);
        else fields[k] = String(v);
      }
      return { fields, image: null };
    }
    const fields: Fields = {};
    let image: { name: string; bytes: Buffer } | null = null;
    try {
      for await (const part of request.parts({ limits: { fileSize: PROFILE_LIMITS.imageBytes, files: 1, fields: 40, fieldSize: FIELD_MAX } })) {
        if (part.type === 'file') {
          const bytes = await part.toBuffer();
          if (part.file.truncated) throw invalid('profile_image', 'imageSize');
          if (part.fieldname !== 'profile_image' && part.fieldname !== 'uploaded_profile_image') continue;
          image = { name: part.filename ?? '', bytes };
        } else if ((TEXT_FIELDS as readonly string[]).includes(part.fieldname)) {
          if (part.valueTruncated) throw new ApiError(400, 'validation_failed', `${part.fieldname} is too long.`);
          fields[part.fieldname as keyof Fields] = String(part.value);
        }
      }
    } catch (err) {
      if (err instanceof ApiError) throw err;
      const code = (err as { code?: string }).code;
      if (code === 'FST_REQ_FILE_TOO_LARGE') throw invalid('profile_image', 'imageSize');
      if (code === 'FST_FILES_LIMIT') throw new ApiError(400, 'validation_failed', 'Send one profile image at most.');
      if ((err as { statusCode?: number }).statusCode) throw err;
      throw new ApiError(400, 'malformed_upload', `The form could not be read (${(err as Error).message}); send it again.`);
    }
    const problem = unstorableField(fields, 'body');
    if (problem) throw new ApiError(400, 'validation_failed', problem);
    return { fields, image };
  };

  app.post('/update-user-info', { preHandler: auth, bodyLimit: PROFILE_LIMITS.imageBytes + 256 * 1024 }, async (request, reply) => {
    const me = currentUser(request);
    const current = await loadProfile(me.id);
    const { fields, image } = await readForm(request);
    const role = { isSecondaryUser: me.is_secondary_user, isTernaryUser: me.is_ternary_user };
    const locked = lockedFields(role);
    const stored = profileOf(current);
    // A field not sent keeps its value; a field the role may not change keeps it whatever was sent (spec 1 §6).
    const pick = (k: keyof ProfileForm & keyof Fields, had: string) => (locked.has(k) || fields[k] === undefined ? had : fields[k]!);
    const form: ProfileForm = {
      first_name: pick('first_name', stored.first_name).trim(),
      last_name: pick('last_name', stored.last_name).trim(),
      // The primary e-mail is not editable (spec 1 §3): whatever is sent, it stays.
      email_id: stored.email_id,
      secondary_emails: pick('secondary_emails', stored.secondary_emails).trim().toLowerCase(),
      ternary_email: pick('ternary_email', stored.ternary_email).trim().toLowerCase(),
      phone: pick('phone', stored.primary_phone_number).trim(),
      phone2: pick('phone2', stored.secondary_phone_number).trim(),
      phone3: pick('phone3', stored.other_phone_number).trim(),
      organisation_name: pick('organisation_name', stored.organisation_name).trim(),
      country: pick('country', stored.country).trim(),
      date_of_birth: pick('date_of_birth', stored.date_of_birth).trim(),
      device_start_window: pick('device_start_window', stored.device_start_window),
      device_stop_window: pick('device_stop_window', stored.device_stop_window),
      rii_parameters: locked.has('rii_parameters') ? stored.rii_parameters : parseRii(fields.rii_parameters, stored.rii_parameters),
    };
    const errors = validateProfile(form, role, { knownCountry: (c) => !!findCountry(c) });
    const first = Object.entries(errors)[0];
    if (first) throw invalid(first[0], first[1]);
    // Another account's sign-in address as this one's secondary or tertiary e-mail: the spec's
    // 401 'Repeated secondary' (spec 1 §8), shown at the field; nothing is changed.
    for (const [field, rule] of [['secondary_emails', 'secondaryRepeated'], ['ternary_email', 'tertiaryRepeated']] as const) {
      if (!form[field] || locked.has(field) || form[field] === stored[field]) continue;
      const [taken] = await db.query('select 1 from users where email = $1 and id <> $2', [form[field], me.id]);
      if (taken) throw new ApiError(401, 'repeated_secondary', 'Repeated secondary', { fieldRule: { field, rule } });
    }

    let imageType: 'image/jpeg' | 'image/png' | null = null;
    if (image) {
      if (!/\.(jpe?g|png)$/i.test(image.name)) throw invalid('profile_image', 'imageFormat');
      imageType = sniffImage(image.bytes);
      // The first bytes decide, not the name: a renamed file of another kind is refused.
      if (!imageType) throw invalid('profile_image', 'imageFormat');
    }
    const specialisations = (fields.specialisation_ids ?? stored.specialisation_ids.join(','))
      .replace(/[[\]\s]/g, '')
      .split(',')
      .filter(Boolean)
      .map(Number);
    if (specialisations.some((n) => !Number.isInteger(n) || n < 1 || n > 1000)) throw new ApiError(400, 'validation_failed', 'specialisation_ids must list specialisation ids.');
    if (specialisations.length) {
      const known = await db.query<{ id: number }>('select id from specialisations where id = any($1::int[])', [specialisations]);
      if (known.length !== new Set(specialisations).size) throw new ApiError(400, 'validation_failed', 'Unknown specialisation.');
    }
    const gender = fields.gender ?? stored.gender;
    if (!['', 'M', 'F', 'O'].includes(gender)) throw new ApiError(400, 'validation_failed', 'gender must be M, F or O.');
    const measure = (k: 'height' | 'weight' | 'bmi', had: number | null): number | null => {
      const v = fields[k];
      if (v === undefined) return had;
      if (v.trim() === '' || v === 'null') return null;
      const n = Number(v);
      if (!Number.isFinite(n) || n < 0 || n > 999) throw new ApiError(400, 'validation_failed', `${k} must be a number from 0 to 999.`);
      return n;
    };
    const height = measure('height', stored.height);
    const weight = measure('weight', stored.weight);
    const bmi = measure('bmi', stored.bmi);

    const wantsPassword = !!fields.new_password;
    if (wantsPassword && (fields.new_password!.length < 8 || fields.new_password!.length > 200)) throw new ApiError(400, 'validation_failed', 'The new password needs at least 8 characters.');
    // A current-password guess is counted before it is checked (given back when right): 429 changes nothing.
    const attempt = wantsPassword ? await take(db, [[`profile:password:${me.id}`, LIMITS.profilePassword]]) : null;
    const passwordOk = wantsPassword ? await verifyPassword(fields.current_password ?? '', current.password_hash) : false;
    if (passwordOk) await attempt?.refund();
    const newHash = wantsPassword && passwordOk ? await hashPassword(fields.new_password!) : null;
    const country = form.country ? findCountry(form.country)!.name : null;

    await db.transaction(async (tx) => {
      let organisationId = current.organisation_id;
      if (!locked.has('organisation_name') && form.organisation_name !== stored.organisation_name) {
        if (!form.organisation_name) organisationId = null;
        else {
          const [org] = await tx.query<{ id: number }>('insert into organisations (name) values ($1) returning id', [form.organisation_name]);
          organisationId = org.id;
        }
      }
      let profileImage = current.profile_image;
      if (image || fields.removed_profile_image === '1') {
        await tx.query('delete from user_avatars where user_id = $1', [me.id]);
        profileImage = null;
      }
      if (image && imageType) {
        profileImage = `${randomBytes(16).toString('hex')}.${imageType === 'image/png' ? 'png' : 'jpg'}`;
        await tx.query('insert into user_avatars (name, user_id, content_type, bytes) values ($1, $2, $3, $4)', [profileImage, me.id, imageType, image.bytes]);
      }
      await tx.query(
        `update users set first_name = $2, last_name = $3, secondary_emails = $4, ternary_email = $5, phone = $6, phone2 = $7, phone3 = $8,
           organisation_id = $9, country = $10, date_of_birth = $11, window_start_time = $12, window_end_time = $13, rii_parameters = $14,
           specialisation_ids = $15, gender = $16, height = $17, weight = $18, bmi = $19, profile_image = $20,
           password_hash = coalesce($21, password_hash), updated_at = now()
         where id = $1`,
        [
          me.id, form.first_name, form.last_name, form.secondary_emails, form.ternary_email, form.phone, form.phone2, form.phone3,
          organisationId, country, form.date_of_birth || null, parseWindowTime(form.device_start_window), parseWindowTime(form.device_stop_window),
          JSON.stringify(form.rii_parameters), [...new Set(specialisations)].join(','), gender, height, weight, bmi, profileImage, newHash,
        ],
      );
      // A new password ends every other session of the account; this one stays.
      if (newHash) await tx.query('update auth_tokens set revoked_at = now() where user_id = $1 and id <> $2 and revoked_at is null', [me.id, request.tokenId]);
    });
    const profile = profileOf(await loadProfile(me.id));
    if (wantsPassword && !passwordOk) {
      return reply.code(401).send(errorBody('password_mismatch', 'User details updated but password not updated due to mismatched Current Password', { profile }));
    }
    return {
      code: 'user_updated',
      message: wantsPassword ? 'User details and Password updated successfully' : 'No password update but User Details updated successfully',
      data: { profile },
    };
  });

  app.get(
    '/get-avatar/:name',
    { preHandler: auth, schema: { params: AvatarParams } },
    async (request, reply) => {
      const me = currentUser(request);
      const name = request.params.name;
      // Revalidated on every use: a removed or replaced image must not live on in a browser cache.
      reply.header('cache-control', 'private, no-cache');
      if (name === DEFAULT_AVATAR) return reply.type('image/jpeg').send(await readFile(DEFAULT_AVATAR_FILE));
      // Only images of the caller's own practice (the physician and whoever works for them); others are as unknown as missing ones.
      const [row] = await db.query<{ content_type: string; bytes: Uint8Array }>(
        `select a.content_type, a.bytes from user_avatars a join users u on u.id = a.user_id
         where a.name = $1 and coalesce(u.physician_id, u.id) = $2`,
        [name, actingPhysicianId(me)],
      );
      if (!row) throw notFound('image');
      return reply.type(row.content_type).send(Buffer.from(row.bytes));
    },
  );
}
