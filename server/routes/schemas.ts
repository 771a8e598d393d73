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
