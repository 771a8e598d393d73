/** Shapes of the API answers the browser reads (user, countries, patients, one-time codes), and the envelope every JSON answer comes in. */
import { Type, type Static, type TObject, type TOptional, type TProperties, type TSchema, type TString, type TUnsafe } from '@sinclair/typebox';
import { Enum, Nullable } from './common';

export interface Envelope<T> {
  code?: string;
  message?: string;
  data?: T;
}

const Str = Type.String();

/** GET /user: the signed-in user (spec 1 §3 "User details"). */
export const UserDetails = Type.Object({
  user_id: Type.Integer(),
  country: Nullable(Str),
  email: Str,
  first_name: Str,
  last_name: Str,
  window_start_time: Str,
  window_end_time: Str,
  is_annotator: Type.Boolean(),
  membership_type: Enum(['paid', 'non-paid']),
  is_admin: Type.Boolean(),
  isSecondaryUser: Type.Boolean(),
  isTernaryUser: Type.Boolean(),
  /** The avatar's name for GET /get-avatar/:name ('profile_image.jpg': the default one). */
  profile_image: Str,
});
export type UserDetails = Static<typeof UserDetails>;

/** A country offered at signup and for patients (GET /countries). */
export const Country = Type.Object({
  code: Str,
  name: Str,
  /** The country's main IANA time zone: a patient's nights are cut in it. */
  timezone: Str,
});
export type Country = Static<typeof Country>;

/** A patient as every list names them: the first fields of a row of GET /physician/patients (contract/patients.ts PatientListRow). */
export const PatientSummary = Type.Object({
  patient_id: Type.Integer(),
  patient_code: Type.String(),
  first_name: Type.String(),
  last_name: Type.String(),
  /** 'M', 'F', 'O' or unknown. */
  gender: Nullable(Type.String()),
  /** YYYY-MM-DD, or unknown. */
  date_of_birth: Nullable(Type.String()),
  /** The device of the patient's booking (current or next), if any. */
  device_id: Nullable(Type.String()),
  /** 0 Stable, 1 At Risk, 2 Control, null Not Known (spec 1 §3). */
  at_risk: Nullable(Type.Integer()),
});
export type PatientSummary = Static<typeof PatientSummary>;

/** POST /verify-otp: the session's bearer token. */
export const VerifiedOtp = Type.Object({ user_id: Type.Integer(), token: Str });
export type VerifiedOtp = Static<typeof VerifiedOtp>;

/**
 * The schema of a JSON answer: `{ code?, message?, data }` with `data` as given, and any further
 * top-level fields the route sends beside it. The server serialises with it (fast-json-stringify:
 * a field the schema does not name is not sent) and, outside production, checks every answer
 * against it (server/plugins/answer-check.ts); the browser takes the answer's type from it.
 */
export function Answer<D extends TSchema, P extends TProperties = {}>(
  data: D,
  extra?: P,
): TObject<{ code: TOptional<TString>; message: TOptional<TString>; data: D } & P> {
  return Type.Object({ code: Type.Optional(Type.String()), message: Type.Optional(Type.String()), data, ...(extra ?? ({} as P)) });
}

/** The answer of a call that returns no data, only what happened (`{ code?, message? }`), and any fields given. */
export function Done<P extends TProperties = {}>(extra?: P): TObject<{ code: TOptional<TString>; message: TOptional<TString> } & P> {
  return Type.Object({ code: Type.Optional(Type.String()), message: Type.Optional(Type.String()), ...(extra ?? ({} as P)) });
}

/** A file answer (CSV, EDF+, PDF, XML, binary samples): bytes of `mediaType`, never serialised as JSON. */
export function FileAnswer(mediaType: string): TUnsafe<Uint8Array> {
  return Type.Unsafe<Uint8Array>({ type: 'string', contentMediaType: mediaType });
}
