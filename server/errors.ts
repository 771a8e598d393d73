/** The field a refusal is about and the rule it broke, so a form can say it in the user's words. */
export interface FieldRule {
  field: string;
  rule: string;
}

/**
 * An error the API answers with: a stable code, a human message and an HTTP status, and
 * optionally every message of a multi-part refusal (sent as `data.errors`) and the field and
 * rule concerned (sent as `data.field` and `data.rule`).
 */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly errors?: readonly string[],
    readonly fieldRule?: FieldRule,
    /** More the client may show (sent inside `data`), e.g. the admin's reason for a refused account. */
    readonly details?: Readonly<Record<string, string>>,
  ) {
    super(message);
  }
}

/**
 * A refusal for now, not for good: 503 with a Retry-After header (seconds), so the client asks
 * again when the server expects room (the engine's queue full: `engine_busy`).
 */
export class RetryLater extends ApiError {
  constructor(
    code: string,
    message: string,
    readonly retryAfterS: number,
  ) {
    super(503, code, message);
  }
}

/**
 * A request's URL as it may be logged: the path, and the query's parameter names with their
 * values withheld (signed night links carry their signature and expiry in the query).
 */
export function loggableUrl(url: string): string {
  const q = url.indexOf('?');
  if (q < 0) return url;
  const names = url
    .slice(q + 1)
    .split('&')
    .filter(Boolean)
    .map((part) => `${part.split('=')[0]}=…`);
  return `${url.slice(0, q)}?${names.join('&')}`;
}

/** The spec's wording for a missing, expired or revoked token; the client signs out on it. */
const INVALID_CREDENTIALS = 'Invalid credentials';

export const unauthorized = () => new ApiError(401, 'invalid_credentials', INVALID_CREDENTIALS);
export const notFound = (what: string) => new ApiError(404, 'not_found', `${what} not found.`);
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);

/** Error codes of a database that cannot be reached or has gone away (node, pg and PostgreSQL's class 08/57P). */
const OUTAGE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);
const OUTAGE_MESSAGES = /PGlite is closed|Cannot use a pool after calling end|Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i;

/** True when err says the database is gone (refused, closed, terminated), not that a statement was wrong. */
export function isDatabaseOutage(err: unknown): boolean {
  const e = err as { code?: unknown; message?: unknown; cause?: unknown; errors?: unknown } | null;
  if (!e || typeof e !== 'object') return false;
  if (typeof e.code === 'string' && OUTAGE_CODES.has(e.code)) return true;
  if (typeof e.message === 'string' && OUTAGE_MESSAGES.test(e.message)) return true;
  // AggregateError (IPv4 + IPv6 refused) and wrapped causes.
  if (Array.isArray(e.errors) && e.errors.some(isDatabaseOutage)) return true;
  return e.cause !== undefined && e.cause !== err && isDatabaseOutage(e.cause);
}

/**
 * True when every PostgreSQL connection of the pool stayed busy past its wait (pg-pool's
 * connection timeout): the database is there but saturated, so the answer is 503 `overloaded`.
 */
export function isPoolExhausted(err: unknown): boolean {
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' && message.includes('timeout exceeded when trying to connect');
}

/**
 * PostgreSQL data exceptions (SQLSTATE class 22: out of range, invalid text, NUL byte, string
 * too long), 23514 (a check constraint, such as a comment longer than its column) and 54001
 * (nesting too deep) are a client's bad value that slipped past a route
 * schema. They answer 400, never 500; the code `invalid_value` marks a schema to tighten.
 */
export function isBadValue(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && (/^22[0-9A-Z]{3}$/.test(code) || code === '23514' || code === '54001');
}

/**
 * Says "database unavailable" once per outage, not once per request: the first failure logs
 * one line, later ones stay quiet for a minute (then one reminder line if it is still down).
 */
export class OutageLog {
  private loggedAt = 0;
  constructor(
    private readonly log: (line: string) => void = (line) => console.error(line),
    private readonly quietMs = 60_000,
  ) {}

  /** A request failed because the database is gone. */
  failed(err: unknown, now = Date.now()): void {
    if (this.loggedAt && now - this.loggedAt < this.quietMs) return;
    this.loggedAt = now;
    const e = err as { code?: string; message?: string };
    this.log(`Database unavailable (${e.code ?? 'error'}: ${e.message ?? String(err)}); answering 503 until it is back.`);
  }
}
