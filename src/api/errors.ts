/** Error of any API call: HTTP status plus the server's stable code and human message. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  /** Every validation or conflict message the envelope carried in data.errors (the first is `message`). */
  readonly errors: readonly string[];
  /** For validation_failed: the field the server refused and the rule it broke (schema keyword or profile rule). */
  readonly field: string;
  readonly rule: string;
  /** data.reason: the admin's reason for a refused account (account_refused). */
  readonly reason: string;
  /** For validation_failed: the refused value's whole path in the body ("/config/radar/range_m"), and the bound it broke. */
  readonly path: string;
  readonly limit: number | null;
  /** data.params: the values the code's catalogue message names (`errors.codes.<code>`). */
  readonly params: Readonly<Record<string, string | number>>;

  constructor(status: number, code: string, message: string, errors: readonly string[] = [], field = '', rule = '', reason = '', path = '', limit: number | null = null, params: Readonly<Record<string, string | number>> = {}) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.code = code;
    this.errors = errors;
    this.field = field;
    this.rule = rule;
    this.reason = reason;
    this.path = path;
    this.limit = limit;
    this.params = params;
  }
}

/** Status 0: the request never got an HTTP answer (offline, server down). */
export const NETWORK_ERROR_CODE = 'network_error';

/** The server's wording for a missing, expired or revoked token (spec 1 §4). */
const INVALID_CREDENTIALS_MESSAGE = 'Invalid credentials';

/** What the app does about a failed call. */
export type ErrorAction = 'clear-session' | 'pass';

/**
 * Any answer saying 'Invalid credentials' ends the session; every other error, 401s
 * included, goes to whoever made the call. On the sign-in page nothing is cleared: the
 * form shows its own error and there is no session to end.
 */
export function actionForError(
  error: { status: number; code?: string; message?: string },
  context: { onSignInPage: boolean },
): ErrorAction {
  if (context.onSignInPage) return 'pass';
  const invalid = error.message === INVALID_CREDENTIALS_MESSAGE || error.code === 'invalid_credentials';
  return invalid ? 'clear-session' : 'pass';
}

/** Builds an ApiError from whatever a failed response carried. */
export function toApiError(status: number, body: unknown, fallbackMessage: string): ApiError {
  const b = (body && typeof body === 'object' ? body : {}) as { code?: unknown; message?: unknown; data?: { errors?: unknown; field?: unknown; rule?: unknown; reason?: unknown; path?: unknown; limit?: unknown; params?: unknown } };
  const code = typeof b.code === 'string' ? b.code : `http_${status}`;
  const message = typeof b.message === 'string' && b.message ? b.message : fallbackMessage;
  const list = b.data && typeof b.data === 'object' && Array.isArray(b.data.errors) ? b.data.errors.filter((e): e is string => typeof e === 'string') : [];
  const field = b.data && typeof b.data.field === 'string' ? b.data.field : '';
  const rule = b.data && typeof b.data.rule === 'string' ? b.data.rule : '';
  const reason = b.data && typeof b.data.reason === 'string' ? b.data.reason : '';
  const path = b.data && typeof b.data.path === 'string' ? b.data.path : '';
  const limit = b.data && typeof b.data.limit === 'number' ? b.data.limit : null;
  return new ApiError(status, code, message, list, field, rule, reason, path, limit, paramsOf(b.data?.params));
}

/** The string and number values of an answer's data.params (anything else is dropped). */
function paramsOf(value: unknown): Record<string, string | number> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, string | number] => typeof e[1] === 'string' || typeof e[1] === 'number'));
}
