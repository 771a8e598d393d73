/** Shapes of the API answers the browser reads (user, countries, patients, one-time codes), and the envelope every JSON answer comes in. */
import { Type, type TObject, type TOptional, type TProperties, type TSchema, type TString, type TUnsafe } from '@sinclair/typebox';

export interface Envelope<T> {
  code?: string;
  message?: string;
  data?: T;
}

export interface UserDetails {
  user_id: number | string;
  country: string | null;
  email: string;
  first_name: string;
  last_name: string;
  window_start_time: string | null;
  window_end_time: string | null;
  is_annotator: boolean;
  membership_type: 'paid' | 'non-paid';
  is_admin?: boolean;
  isSecondaryUser?: boolean;
  isTernaryUser?: boolean;
}

export interface Country {
  code: string;
  name: string;
  timezone: string;
}

export interface PatientSummary {
  patient_id: number | string;
  patient_code: string;
  first_name: string | null;
  last_name: string | null;
  gender: string | null;
  date_of_birth: string | number | null;
  device_id: string | null;
  at_risk: number | null;
}

export interface VerifiedOtp {
  user_id: number | string;
  token: string;
}

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
