/** JSON-schema pieces shared by the route schemas. */
export const email = { type: 'string', format: 'email', maxLength: 254 } as const;
export const password = { type: 'string', minLength: 1, maxLength: 200 } as const;
export const newPassword = { type: 'string', minLength: 8, maxLength: 200 } as const;
export const otp = { type: 'string', pattern: '^\\s*\\d{6}\\s*$' } as const;

/** An object schema whose listed properties are all required and no others allowed. */
export function strictObject<P extends Record<string, object>>(properties: P, optional: string[] = []) {
  return {
    type: 'object',
    additionalProperties: false,
    required: Object.keys(properties).filter((k) => !optional.includes(k)),
    properties,
  } as const;
}

/** PostgreSQL `integer` bounds: every id and count column. */
export const INT32_MAX = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;
/** Largest magnitude of a free number (ms timestamps reach 8.64e15, the end of JS dates). */
export const NUMBER_LIMIT = 8.64e15;
/** Longest free text a route takes unless it says less (the longest text column, comments, holds 10,240). */
export const TEXT_MAX = 65_535;

/** A row id: a positive int32. */
export const id = { type: 'integer', minimum: 1, maximum: INT32_MAX } as const;
/** An instant in seconds or ms since 1970 (fractions allowed): finite, within the range of JS dates. */
export const instant = { type: 'number', minimum: -NUMBER_LIMIT, maximum: NUMBER_LIMIT } as const;
/** An instant in whole ms since 1970, as bigint columns store it. */
export const instantMs = { type: 'integer', minimum: -NUMBER_LIMIT, maximum: NUMBER_LIMIT } as const;
/** A device's serial (devices.device_id). */
export const deviceId = { type: 'string', maxLength: 40 } as const;

/** The patient form's fields (spec 1 §3) as the add and edit calls send them; checkPatient says what is wrong in words. */
export const patientFields = {
  patient_code: { type: 'string', maxLength: 40 },
  first_name: { type: 'string', maxLength: 400 },
  last_name: { type: 'string', maxLength: 400 },
  email_id: { type: 'string', maxLength: 400 },
  gender: { type: 'string', maxLength: 10 },
  date_of_birth: { type: 'string', maxLength: 20 },
  at_risk: { type: ['integer', 'null'], minimum: 0, maximum: 2 },
  diseaseIds: { type: 'string', maxLength: 400 },
  height: { type: ['number', 'string'], minimum: 0, maximum: 999, maxLength: 20 },
  weight: { type: ['number', 'string'], minimum: 0, maximum: 999, maxLength: 20 },
  vital_parameters: { type: ['string', 'object'], maxLength: 4000, maxProperties: 20 },
  comment: { type: 'string', maxLength: 20_000 },
  country: { type: 'string', maxLength: 80 },
  address: { type: 'string', maxLength: 400 },
  tags: { type: 'string', maxLength: 400 },
} as const;
