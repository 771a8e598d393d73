/** An error the API answers with: a stable code, a human message and an HTTP status. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/** The spec's wording for a missing, expired or revoked token; the client signs out on it. */
export const INVALID_CREDENTIALS = 'Invalid credentials';

export const unauthorized = () => new ApiError(401, 'invalid_credentials', INVALID_CREDENTIALS);
export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} not found.`);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
