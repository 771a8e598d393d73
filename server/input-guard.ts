import type { FastifyInstance, FastifyRequest, RouteOptions } from 'fastify';
import { ApiError } from './errors';
import { INT32_MAX, INT32_MIN, NUMBER_LIMIT, TEXT_MAX } from '../contract/common';

/** Deepest JSON a request body may nest (the deepest legitimate body nests 4 levels). */
const MAX_JSON_DEPTH = 32;

const invalid = (message: string) => new ApiError(400, 'validation_failed', message);

/**
 * How deep a JSON text nests, counted without parsing it (so a 5,000-deep body is refused
 * before any recursive code sees it). Stops counting once past `limit`.
 */
function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let max = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) {
      depth++;
      if (depth > max) max = depth;
      if (max > limit) return max;
    } else if (c === 125 /* } */ || c === 93 /* ] */) depth--;
  }
  return max;
}

/**
 * The first field of an input that no column can hold, as "<path> must …" ("body.comment
 * must not contain a NUL character", "query.patient_id must be a finite number"), or null.
 * NUL characters are refused by PostgreSQL text; Infinity gets past JSON-schema bounds when
 * a query's "Infinity" is coerced to a number. Walks without recursion.
 */
export function unstorableField(value: unknown, root: string): string | null {
  const stack: Array<[unknown, string]> = [[value, root]];
  while (stack.length) {
    const [v, where] = stack.pop()!;
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return `${where} must not contain a NUL character.`;
    } else if (typeof v === 'number') {
      if (!Number.isFinite(v)) return `${where} must be a finite number.`;
    } else if (Array.isArray(v)) {
      v.forEach((item, i) => stack.push([item, `${where}[${i}]`]));
    } else if (v && typeof v === 'object') {
      for (const [k, item] of Object.entries(v)) {
        if (k.includes('\u0000')) return `${where} must not contain a NUL character.`;
        stack.push([item, `${where}.${k}`]);
      }
    }
  }
  return null;
}

type Schema = Record<string, unknown>;

/**
 * A copy of a JSON schema with the bounds every column imposes filled in where the route
 * left them open: integers within int32, numbers finite and within ±NUMBER_LIMIT, strings
 * at most TEXT_MAX long. A bound the route states itself is kept.
 */
function hardenSchema<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(hardenSchema) as T;
  if (!schema || typeof schema !== 'object') return schema;
  const out: Schema = {};
  for (const [k, v] of Object.entries(schema as Schema)) {
    // enum/const list literal values, not schemas.
    out[k] = k === 'enum' || k === 'const' || k === 'required' ? v : hardenSchema(v);
  }
  const types = Array.isArray(out.type) ? (out.type as string[]) : [out.type];
  // A bound the route states is kept (a bigint ms timestamp says its own); an open one is closed.
  if (types.includes('integer')) {
    out.maximum ??= INT32_MAX;
    out.minimum ??= INT32_MIN;
  } else if (types.includes('number')) {
    out.maximum ??= NUMBER_LIMIT;
    out.minimum ??= -NUMBER_LIMIT;
  }
  if (types.includes('string') && out.maxLength === undefined) out.maxLength = TEXT_MAX;
  return out as T;
}

const PARTS = ['body', 'querystring', 'params'] as const;

/** A route as the fuzz and access tests enumerate it. */
export interface RouteEntry {
  method: string;
  url: string;
  schema: RouteOptions['schema'];
  /** A WebSocket route (its answer is a socket, not a body). */
  websocket: boolean;
}

/**
 * Input limits for every route of `app`, present and future (call before registering routes):
 * route schemas hardened, JSON bodies depth-checked before parsing, NUL characters and
 * non-finite numbers refused with the field named. Returns the live list of registered routes.
 */
export function guardInput(app: FastifyInstance): RouteEntry[] {
  const routes: RouteEntry[] = [];
  app.addHook('onRoute', (route) => {
    if (route.schema) {
      const schema = { ...route.schema } as Record<string, unknown>;
      for (const part of PARTS) if (schema[part]) schema[part] = hardenSchema(schema[part]);
      route.schema = schema;
    }
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    for (const method of methods) if (method !== 'HEAD') routes.push({ method, url: route.url, schema: route.schema, websocket: (route as { websocket?: boolean }).websocket === true });
  });

  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body as string;
    if (jsonDepth(text) > MAX_JSON_DEPTH) return done(invalid(`body nests deeper than ${MAX_JSON_DEPTH} levels.`), undefined);
    return parseJson(request, text, done);
  });

  const check = async (request: FastifyRequest) => {
    const problem = unstorableField(request.params, 'params') ?? unstorableField(request.query, 'query') ?? unstorableField(request.body, 'body');
    if (problem) throw invalid(problem);
  };
  // Before validation (a NUL in a field the schema does not list) and after it (values the schema coerced).
  app.addHook('preValidation', check);
  app.addHook('preHandler', check);
  return routes;
}
