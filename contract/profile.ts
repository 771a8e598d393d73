/** Schemas of the profile popup's calls (spec 1 §4, §7); the profile update is a multipart form, read field by field. */
import { Type, type Static } from '@sinclair/typebox';
import { Enum, Nullable } from './common';

/** Names the server gives avatars: 32 hex digits and the type's extension (and the default's). Nothing else is looked up. */
const AVATAR_NAME = '^[A-Za-z0-9_-]{1,64}\\.(jpg|jpeg|png)$';

/** GET /get-avatar/:name. */
export const AvatarParams = Type.Object({ name: Type.String({ pattern: AVATAR_NAME, maxLength: 80 }) });

const Str = Type.String();

/** GET /user/profile (spec 1 §3 "User profile"); text the user never gave is '' (height, weight and BMI: null). */
export const Profile = Type.Object({
  user_id: Type.Integer(),
  first_name: Str,
  last_name: Str,
  email_id: Str,
  secondary_emails: Str,
  ternary_email: Str,
  organisation_name: Str,
  country: Str,
  primary_phone_number: Str,
  secondary_phone_number: Str,
  other_phone_number: Str,
  /** YYYY-MM-DD, or ''. */
  date_of_birth: Str,
  /** The avatar's name for GET /get-avatar/:name ('profile_image.jpg': the default one). */
  profile_image: Str,
  specialisation_ids: Type.Array(Type.Integer()),
  /** The device's recording window as stored ("19:00:00") and as the form shows it ("07:00 PM"). */
  window_start_time: Str,
  window_end_time: Str,
  device_start_window: Str,
  device_stop_window: Str,
  rii_parameters: Type.Array(Str),
  membership_type: Enum(['paid', 'non-paid']),
  isSecondaryUser: Type.Boolean(),
  isTernaryUser: Type.Boolean(),
  gender: Str,
  height: Nullable(Type.Number()),
  weight: Nullable(Type.Number()),
  bmi: Nullable(Type.Number()),
});
export type Profile = Static<typeof Profile>;

/** GET /user/profile and POST /update-user-info: the profile (after the update). */
export const ProfileAnswer = Type.Object({ profile: Profile });
export type ProfileAnswer = Static<typeof ProfileAnswer>;

export const Specialisation = Type.Object({ id: Type.Integer(), specialisation_name: Str });
export type Specialisation = Static<typeof Specialisation>;

/** GET /physician/specialisations: every specialisation a physician may name. */
export const SpecialisationsAnswer = Type.Object({ specialisations: Type.Array(Specialisation) });
export type SpecialisationsAnswer = Static<typeof SpecialisationsAnswer>;
