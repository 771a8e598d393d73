import type { ErrorAnswer, ErrorCode, ErrorParamsOf, ErrorParamValue, NotFoundThing, PlainErrorCode } from '../contract/errors';

/** The field a refusal is about and the rule it broke, so a form can say it in the user's words. */
export interface FieldRule {
  field: string;
  rule: string;
}

/** What an error may carry besides its code and message (all sent inside `data`). */
interface ApiErrorExtras {
  /** Every message of a multi-part refusal (`data.errors`). */
  errors?: readonly string[];
  /** The field concerned and the rule it broke (`data.field`, `data.rule`). */
  fieldRule?: FieldRule;
  /** More the client may show, e.g. the admin's reason for a refused account. */
  details?: Readonly<Record<string, string>>;
}

/** A code whose message names values must be given them (`data.params`); a plain code may not. */
type ExtrasOf<C extends ErrorCode> = C extends PlainErrorCode ? [extras?: ApiErrorExtras] : [extras: ApiErrorExtras & { params: ErrorParamsOf<C> }];

/**
 * An error the API answers with: a stable code from contract/errors.ts, an English message for
 * API clients and logs, an HTTP status, and the parameters the client words the code with.
 */
export class ApiError<C extends ErrorCode = ErrorCode> extends Error {
  readonly errors?: readonly string[];
  readonly fieldRule?: FieldRule;
  readonly details?: Readonly<Record<string, string>>;
  readonly params?: Readonly<Record<string, ErrorParamValue>>;

  constructor(
    readonly status: number,
    readonly code: C,
    message: string,
    ...[extras]: ExtrasOf<C>
  ) {
    super(message);
    const e = extras as (ApiErrorExtras & { params?: Readonly<Record<string, ErrorParamValue>> }) | undefined;
    this.errors = e?.errors;
    this.fieldRule = e?.fieldRule;
    this.details = e?.details;
    this.params = e?.params;
  }

  /** The answer's body: code, message and whatever data the client words it with. */
  body(): ErrorAnswer {
    const data = { ...(this.errors ? { errors: this.errors } : {}), ...(this.fieldRule ?? {}), ...(this.details ?? {}), ...(this.params ? { params: this.params } : {}) };
    return { code: this.code, message: this.message, ...(Object.keys(data).length ? { data } : {}) };
  }
}

/** The body of an error answer sent without throwing (a code whose message names nothing). */
export function errorBody(code: PlainErrorCode, message: string, data?: ErrorAnswer['data'] & Record<string, unknown>): ErrorAnswer {
  return { code, message, ...(data ? { data } : {}) };
}

/** Fastify's own client-error codes the API answers with a code of its own; any other is `bad_request`. */
const FASTIFY_CODES: Readonly<Record<string, PlainErrorCode>> = {
  FST_ERR_CTP_BODY_TOO_LARGE: 'body_too_large',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: 'unsupported_media_type',
};

/** Our code for a client error Fastify raised (its FST_… code goes into the English message's log only). */
export function fastifyErrorCode(code: string | undefined): PlainErrorCode {
  return (code && FASTIFY_CODES[code]) || 'bad_request';
}

/**
 * A refusal for now, not for good: 503 with a Retry-After header (seconds), so the client asks
 * again when the server expects room (the engine's queue full: `engine_busy`).
 */
export class RetryLater extends ApiError {
  constructor(
    code: PlainErrorCode,
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
/** The English names of what `not_found` names, for the message API clients and logs read. */
const THING_NAMES: Record<NotFoundThing, string> = {
  account: 'Account',
  annotation: 'Annotation',
  category: 'Category',
  channel: 'Channel',
  checkup: 'Check-up',
  comment: 'Comment',
  correction: 'Correction',
  device: 'Device',
  device_allocation: 'Device allocation',
  endpoint: 'Endpoint',
  history_entry: 'History entry',
  image: 'Image',
  notification: 'Notification',
  page: 'Page',
  patient: 'Patient',
  recording: 'Recording',
  report: 'Report',
  request: 'Request',
  sample_patient: 'Sample patient',
  scoring_round: 'Double-scoring round',
};

/** 404 naming what was not found; `detail` (a channel's code, a path) goes into the English message only. */
export const notFound = (thing: NotFoundThing, detail?: string) =>
  new ApiError(404, 'not_found', detail ? `${THING_NAMES[thing]} ${detail} not found.` : `${THING_NAMES[thing]} not found.`, { params: { thing } });
/** 403 `forbidden`: the message says why in English for logs; the UI words the code. */
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);

/** Error codes of a database that cannot be reached or has gone away (node, pg and PostgreSQL's class 08/57P). */
const OUTAGE_CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'EHOSTUNREACH', 'EPIPE', '57P01', '57P02', '57P03', '08000', '08001', '08003', '08004', '08006']);
const OUTAGE_MESSAGES = /PGlite is closed|embedded database (is closed|stopped)|Cannot use a pool after calling end|Connection terminated|connection timeout|Client has encountered a connection error|not queryable/i;

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
    private readonly log: (line: string) => void,
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
