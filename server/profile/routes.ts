import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { peopleEndpoints } from '../../contract/endpoints/people';
import type { AppContext } from '../context';
import type { Db, Queryable } from '../db/adapter';
import type { Api } from '../typed-api';
import { insertOrganisation } from '../auth/repository';
import { deleteAvatars, emailTakenByOther, insertAvatar, knownSpecialisations, listSpecialisations, loadProfile, practiceAvatar, revokeOtherSessions, updateProfile, type ProfileRow } from './repository';
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

type Image = { name: string; bytes: Buffer };

/** The text fields of a form sent as JSON (objects as their JSON text). */
function jsonFields(request: FastifyRequest): Fields {
  const body = (request.body ?? {}) as Record<string, unknown>;
  if (typeof body !== 'object' || Array.isArray(body)) throw new ApiError(400, 'validation_failed', 'Send the profile as multipart/form-data.');
  const fields: Fields = {};
  for (const k of TEXT_FIELDS) {
    const v = body[k];
    if (v === undefined || v === null) continue;
    if (typeof v === 'object') fields[k] = JSON.stringify(v);
    else fields[k] = String(v);
  }
  return fields;
}

/** The multipart parser's refusals in the profile's words. */
function formError(err: unknown): unknown {
  if (err instanceof ApiError) return err;
  const code = (err as { code?: string }).code;
  if (code === 'FST_REQ_FILE_TOO_LARGE') return invalid('profile_image', 'imageSize');
  if (code === 'FST_FILES_LIMIT') return new ApiError(400, 'validation_failed', 'Send one profile image at most.');
  if ((err as { statusCode?: number }).statusCode) return err;
  return new ApiError(400, 'malformed_upload', `The form could not be read (${(err as Error).message}); send it again.`);
}

/** Reads a multipart form: text fields, and at most one image (≤ 5,000,000 bytes) into memory. */
async function multipartFields(request: FastifyRequest): Promise<{ fields: Fields; image: Image | null }> {
  const fields: Fields = {};
  let image: Image | null = null;
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
    throw formError(err);
  }
  return { fields, image };
}

/** Reads the form: JSON as sent, or multipart refusing a field the database cannot store. */
async function readForm(request: FastifyRequest): Promise<{ fields: Fields; image: Image | null }> {
  if (!request.isMultipart()) return { fields: jsonFields(request), image: null };
  const form = await multipartFields(request);
  const problem = unstorableField(form.fields, 'body');
  if (problem) throw new ApiError(400, 'validation_failed', problem);
  return form;
}

/** The form as stored after the update: a field not sent keeps its value; a field the role may not change keeps it whatever was sent (spec 1 §6). */
function mergedForm(fields: Fields, stored: ReturnType<typeof profileOf>, locked: ReadonlySet<string>): ProfileForm {
  const pick = (k: keyof ProfileForm & keyof Fields, had: string) => (locked.has(k) || fields[k] === undefined ? had : fields[k]!);
  return {
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
}

/**
 * Another account's sign-in address as this one's secondary or tertiary e-mail: the spec's
 * 401 'Repeated secondary' (spec 1 §8), shown at the field; nothing is changed.
 */
async function checkRepeatedEmails(db: Queryable, userId: number, form: ProfileForm, stored: ReturnType<typeof profileOf>, locked: ReadonlySet<string>): Promise<void> {
  for (const [field, rule] of [['secondary_emails', 'secondaryRepeated'], ['ternary_email', 'tertiaryRepeated']] as const) {
    if (!form[field] || locked.has(field) || form[field] === stored[field]) continue;
    if (await emailTakenByOther(db, form[field], userId)) throw new ApiError(401, 'repeated_secondary', 'Repeated secondary', { fieldRule: { field, rule } });
  }
}

/** The image's type: a .jpg/.jpeg/.png name, and the first bytes deciding (a renamed file of another kind is refused). */
function imageTypeOf(image: Image | null): 'image/jpeg' | 'image/png' | null {
  if (!image) return null;
  if (!/\.(jpe?g|png)$/i.test(image.name)) throw invalid('profile_image', 'imageFormat');
  const type = sniffImage(image.bytes);
  if (!type) throw invalid('profile_image', 'imageFormat');
  return type;
}

/** The specialisation ids sent (else those stored), each a known one. */
async function specialisationsOf(db: Queryable, fields: Fields, stored: ReturnType<typeof profileOf>): Promise<number[]> {
  const ids = (fields.specialisation_ids ?? stored.specialisation_ids.join(','))
    .replace(/[[\]\s]/g, '')
    .split(',')
    .filter(Boolean)
    .map(Number);
  if (ids.some((n) => !Number.isInteger(n) || n < 1 || n > 1000)) throw new ApiError(400, 'validation_failed', 'specialisation_ids must list specialisation ids.');
  if (ids.length && (await knownSpecialisations(db, ids)) !== new Set(ids).size) throw new ApiError(400, 'validation_failed', 'Unknown specialisation.');
  return ids;
}

/** Gender, height, weight and BMI as sent (checked), else as stored; an empty or "null" measure clears it. */
function bodyOf(fields: Fields, stored: ReturnType<typeof profileOf>) {
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
  return { gender, height: measure('height', stored.height), weight: measure('weight', stored.weight), bmi: measure('bmi', stored.bmi) };
}

/** A password change asked for: whether it was, whether the current password was right, and the new hash when it was. */
async function passwordChange(db: Db, current: ProfileRow, fields: Fields) {
  const wanted = !!fields.new_password;
  if (!wanted) return { wanted, ok: false, hash: null };
  if (fields.new_password!.length < 8 || fields.new_password!.length > 200) throw new ApiError(400, 'validation_failed', 'The new password needs at least 8 characters.');
  // A current-password guess is counted before it is checked (given back when right): 429 changes nothing.
  const attempt = await take(db, [[`profile:password:${current.id}`, LIMITS.profilePassword]]);
  const ok = await verifyPassword(fields.current_password ?? '', current.password_hash);
  if (ok) await attempt.refund();
  return { wanted, ok, hash: ok ? await hashPassword(fields.new_password!) : null };
}

/** The organisation after the update: a changed name makes a new one, an empty name none. */
async function organisationAfter(tx: Queryable, current: ProfileRow, form: ProfileForm, stored: ReturnType<typeof profileOf>, locked: ReadonlySet<string>): Promise<number | null> {
  if (locked.has('organisation_name') || form.organisation_name === stored.organisation_name) return current.organisation_id;
  return form.organisation_name ? insertOrganisation(tx, form.organisation_name) : null;
}

/** The avatar after the update: a new image replaces the old, a removal clears it. */
async function avatarAfter(tx: Queryable, userId: number, current: ProfileRow, fields: Fields, image: Image | null, imageType: 'image/jpeg' | 'image/png' | null): Promise<string | null> {
  let profileImage = current.profile_image;
  if (image || fields.removed_profile_image === '1') {
    await deleteAvatars(tx, userId);
    profileImage = null;
  }
  if (image && imageType) {
    profileImage = `${randomBytes(16).toString('hex')}.${imageType === 'image/png' ? 'png' : 'jpg'}`;
    await insertAvatar(tx, profileImage, userId, imageType, image.bytes);
  }
  return profileImage;
}

/** Checks and saves a profile form; whether a password change was asked for and whether it was made. */
async function updateUserInfo(db: Db, request: FastifyRequest, me: UserRow) {
  const current = await loadProfile(db, me.id);
  const { fields, image } = await readForm(request);
  const role = { isSecondaryUser: me.is_secondary_user, isTernaryUser: me.is_ternary_user };
  const locked: ReadonlySet<string> = lockedFields(role);
  const stored = profileOf(current);
  const form = mergedForm(fields, stored, locked);
  const first = Object.entries(validateProfile(form, role, { knownCountry: (c) => !!findCountry(c) }))[0];
  if (first) throw invalid(first[0], first[1]);
  await checkRepeatedEmails(db, me.id, form, stored, locked);
  const imageType = imageTypeOf(image);
  const specialisations = await specialisationsOf(db, fields, stored);
  const body = bodyOf(fields, stored);
  const password = await passwordChange(db, current, fields);
  await db.transaction(async (tx) => {
    await updateProfile(tx, me.id, {
      first_name: form.first_name, last_name: form.last_name, secondary_emails: form.secondary_emails, ternary_email: form.ternary_email,
      phone: form.phone, phone2: form.phone2, phone3: form.phone3,
      organisation_id: await organisationAfter(tx, current, form, stored, locked),
      country: form.country ? findCountry(form.country)!.name : null,
      date_of_birth: form.date_of_birth || null,
      window_start_time: parseWindowTime(form.device_start_window), window_end_time: parseWindowTime(form.device_stop_window),
      rii_parameters: form.rii_parameters, specialisation_ids: [...new Set(specialisations)].join(','),
      ...body,
      profile_image: await avatarAfter(tx, me.id, current, fields, image, imageType),
      password_hash: password.hash,
    });
    // A new password ends every other session of the account; this one stays.
    if (password.hash) await revokeOtherSessions(tx, me.id, request.tokenId);
  });
  return password;
}

/** Reading the profile and the specialisations to choose from. */
function readRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  app.get('/user/profile', { preHandler: auth, schema: peopleEndpoints['GET /user/profile'] }, async (request) => ({ data: { profile: profileOf(await loadProfile(ctx.db, currentUser(request).id)) } }));

  app.get('/physician/specialisations', { preHandler: auth, schema: peopleEndpoints['GET /physician/specialisations'] }, async () => ({
    data: { specialisations: await listSpecialisations(ctx.db) },
  }));
}

/** The profile update (a multipart form, after the multipart parser is registered). */
function updateRoutes(app: Api, ctx: AppContext) {
  app.post('/update-user-info', { preHandler: authenticate(ctx), schema: peopleEndpoints['POST /update-user-info'], bodyLimit: PROFILE_LIMITS.imageBytes + 256 * 1024 }, async (request, reply) => {
    const me = currentUser(request);
    const password = await updateUserInfo(ctx.db, request, me);
    const profile = profileOf(await loadProfile(ctx.db, me.id));
    if (password.wanted && !password.ok) {
      // An error answer (contract/errors.ts) that also carries the saved profile: like every error, it has no response schema and goes out as it is.
      return (reply as FastifyReply).code(401).send(errorBody('password_mismatch', 'User details updated but password not updated due to mismatched Current Password', { profile }));
    }
    return {
      code: 'user_updated',
      message: password.wanted ? 'User details and Password updated successfully' : 'No password update but User Details updated successfully',
      data: { profile },
    };
  });
}

/** Avatar images: the default one, and those of the caller's own practice. */
function avatarRoutes(app: Api, ctx: AppContext) {
  app.get('/get-avatar/:name', { preHandler: authenticate(ctx), schema: peopleEndpoints['GET /get-avatar/:name'] }, async (request, reply) => {
    const name = request.params.name;
    // Revalidated on every use: a removed or replaced image must not live on in a browser cache.
    reply.header('cache-control', 'private, no-cache');
    if (name === DEFAULT_AVATAR) return reply.type('image/jpeg').send(await readFile(DEFAULT_AVATAR_FILE));
    // Images of other practices are as unknown as missing ones.
    const row = await practiceAvatar(ctx.db, name, actingPhysicianId(currentUser(request)));
    if (!row) throw notFound('image');
    return reply.type(row.content_type).send(Buffer.from(row.bytes));
  });
}

/** The profile popup's calls: read, the multipart update, specialisations, avatars. */
export function profileRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  readRoutes(app, ctx);
  updateRoutes(app, ctx);
  avatarRoutes(app, ctx);
}
