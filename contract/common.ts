/**
 * Pieces of the API's request schemas (TypeBox: each is a JSON schema and, through `Static`,
 * the type it accepts). Shared by the server's routes and the browser's client, so neither
 * writes a request's shape a second time. Nothing here may import browser code or server code
 * beyond the pure modules the app already shares (contract/questionnaire-rules.ts, contract/report-types.ts).
 */
import { Type, type SchemaOptions, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';

/** PostgreSQL `integer` bounds: every id and count column. */
export const INT32_MAX = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;
/** Largest magnitude of a free number (ms timestamps reach 8.64e15, the end of JS dates). */
export const NUMBER_LIMIT = 8.64e15;
/** Longest free text a route takes unless it says less (the longest text column, comments, holds 10,240). */
export const TEXT_MAX = 65_535;

export const email = Type.String({ format: 'email', maxLength: 254 });
export const password = Type.String({ minLength: 1, maxLength: 200 });
export const newPassword = Type.String({ minLength: 8, maxLength: 200 });
export const otp = Type.String({ pattern: '^\\s*\\d{6}\\s*$' });

/** A row id: a positive int32. */
export const id = Type.Integer({ minimum: 1, maximum: INT32_MAX });
/** An instant in seconds or ms since 1970 (fractions allowed): finite, within the range of JS dates. */
export const instant = Type.Number({ minimum: -NUMBER_LIMIT, maximum: NUMBER_LIMIT });
/** An instant in whole ms since 1970, as bigint columns store it. */
export const instantMs = Type.Integer({ minimum: -NUMBER_LIMIT, maximum: NUMBER_LIMIT });
/** A device's serial (devices.device_id). */
export const deviceId = Type.String({ maxLength: 40 });
/** A calendar day, YYYY-MM-DD (the pattern only: a route that needs a real day checks it). */
export const isoDay = Type.String({ pattern: '^\\d{4}-\\d{2}-\\d{2}$' });

/** A string that is one of `values` (`{ type: 'string', enum }`, as the schemas wrote it before TypeBox). */
export function StringEnum<const T extends readonly string[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, type: 'string', enum: [...values] });
}

/** One of `values` without a type (`{ enum }`): numbers or strings. */
export function Enum<const T extends readonly (string | number)[]>(values: T, options: SchemaOptions = {}): TUnsafe<T[number]> {
  return Type.Unsafe<T[number]>({ ...options, enum: [...values] });
}

/**
 * A JSON-schema type list (`type: ['integer', 'null']`) with its keywords, typed as `T`. TypeBox
 * would write a union as `anyOf`, which coerces and words its errors differently; the routes keep
 * the list form so the same requests are accepted and refused with the same messages.
 */
export function Types<T>(types: readonly string[], options: SchemaOptions = {}): TUnsafe<T> {
  return Type.Unsafe<T>({ ...options, type: [...types] });
}

/** Keywords a type list cannot carry: a schema with one of them stays an `anyOf` with null. */
const COMPOUND = ['anyOf', 'oneOf', 'allOf', 'not', '$ref', 'const'] as const;

/**
 * `T` or null, as an answer's field that may be unknown: the serialiser keeps the null. A schema
 * of one JSON type is written as a type list (`type: ['number', 'null']`, an enum with null
 * among its values); anything else as `anyOf` (decision 1017). The serialiser picks an `anyOf`
 * branch by running a validator on the value, each compiled the first time it is needed (over
 * 100 ms of one request on the event loop for the night summary's nullable figures), and a type
 * list's by a `typeof` test. Answers only: requests keep their own explicit forms (their error
 * wording).
 */
export function Nullable<T extends TSchema>(schema: T, options: SchemaOptions = {}): TUnsafe<Static<T> | null> {
  const single = typeof schema.type === 'string' || (schema.type === undefined && Array.isArray(schema.enum));
  if (!single || COMPOUND.some((k) => k in schema)) return Type.Unsafe<Static<T> | null>(Type.Union([schema, Type.Null()], options));
  return Type.Unsafe<Static<T> | null>({
    ...schema,
    ...options,
    ...(schema.type === undefined ? {} : { type: [schema.type, 'null'] }),
    ...(Array.isArray(schema.enum) ? { enum: [...(schema.enum as unknown[]), null] } : {}),
  });
}

/** An object whose properties are all as given and no others allowed (`additionalProperties: false`). */
export function Strict<P extends Record<string, TSchema>>(properties: P, options: SchemaOptions = {}) {
  return Type.Object(properties, { ...options, additionalProperties: false });
}

/** The patient form's fields (spec 1 §3) as the add and edit calls send them, each optional; checkPatient says what is wrong in words. */
export const patientFields = {
  patient_code: Type.Optional(Type.String({ maxLength: 40 })),
  first_name: Type.Optional(Type.String({ maxLength: 400 })),
  last_name: Type.Optional(Type.String({ maxLength: 400 })),
  email_id: Type.Optional(Type.String({ maxLength: 400 })),
  gender: Type.Optional(Type.String({ maxLength: 10 })),
  date_of_birth: Type.Optional(Type.String({ maxLength: 20 })),
  at_risk: Type.Optional(Types<number | null>(['integer', 'null'], { minimum: 0, maximum: 2 })),
  diseaseIds: Type.Optional(Type.String({ maxLength: 400 })),
  height: Type.Optional(Types<number | string>(['number', 'string'], { minimum: 0, maximum: 999, maxLength: 20 })),
  weight: Type.Optional(Types<number | string>(['number', 'string'], { minimum: 0, maximum: 999, maxLength: 20 })),
  vital_parameters: Type.Optional(Types<string | Record<string, unknown>>(['string', 'object'], { maxLength: 4000, maxProperties: 20 })),
  comment: Type.Optional(Type.String({ maxLength: 20_000 })),
  country: Type.Optional(Type.String({ maxLength: 80 })),
  address: Type.Optional(Type.String({ maxLength: 400 })),
  tags: Type.Optional(Type.String({ maxLength: 400 })),
};
