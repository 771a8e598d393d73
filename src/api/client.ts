import { API_BASE } from '../config';
import { backgroundOpen } from './background';
import { ApiError, NETWORK_ERROR_CODE, toApiError } from './errors';
import type { Envelope } from '../../contract/answers';
import type { AnswerOf, EndpointKey, InputOf } from '../../contract/api';

/** Supplies the bearer token and hears about every failed call; set once by the app. */
export interface ClientHooks {
  getToken(): string | null;
  onError(error: ApiError): void;
}

let hooks: ClientHooks = { getToken: () => null, onError: () => {} };

/** Connects the client to the session store and the global error policy. */
export function configureClient(next: ClientHooks): void {
  hooks = next;
}

type Method = 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';

/**
 * Options of one call: `signal` aborts it (leaving a screen, a query TanStack cancels);
 * `background`, a request the screen's first paint does not need: it waits until that paint
 * (src/api/background.ts, decision 1007).
 */
export interface RequestOptions {
  signal?: AbortSignal;
  background?: boolean;
}

/** True for the rejection of a call its own signal aborted: not a failure to report. */
export function isAbort(error: unknown, signal?: AbortSignal): boolean {
  return (signal?.aborted ?? false) || (error instanceof DOMException && error.name === 'AbortError');
}

/** A call's input; callers of routes that take nothing may leave it out. */
type Args<K extends EndpointKey> = object extends InputOf<K> ? [input?: InputOf<K> & { form?: FormData }, options?: RequestOptions] : [input: InputOf<K> & { form?: FormData }, options?: RequestOptions];

/** `'GET /reports/:id'` with `{ params: { id: 7 }, query: { a: 1 } }` → `['GET', '/reports/7?a=1']`. */
function target(key: string, input: { query?: object; params?: object } = {}): [Method, string] {
  const space = key.indexOf(' ');
  const params = (input.params ?? {}) as Record<string, unknown>;
  const path = key.slice(space + 1).replace(/:([A-Za-z_]\w*)/g, (_, name: string) => encodeURIComponent(String(params[name])));
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(input.query ?? {})) {
    if (value === undefined || value === null) continue;
    for (const item of Array.isArray(value) ? value : [value]) search.append(name, String(item));
  }
  const query = search.toString();
  return [key.slice(0, space) as Method, query ? `${path}?${query}` : path];
}

/**
 * Calls one route of the contract (`call('GET /scoring/rounds', { query: { patient_id: 3 } })`):
 * the query, body and path parameters and the answer are typed by the route's schemas
 * (contract/api.ts). A multipart upload passes its FormData as `form`.
 */
export async function call<K extends EndpointKey>(key: K, ...[input, options]: Args<K>): Promise<AnswerOf<K>> {
  const [method, path] = target(key, input as { query?: object; params?: object });
  const body = (input as { body?: unknown; form?: FormData } | undefined)?.form ?? (input as { body?: unknown } | undefined)?.body;
  return (await request<unknown>(method, path, body, options)) as AnswerOf<K>;
}

/** GETs one file route of the contract (a CSV, an EDF+, a PDF, binary samples): the successful response, to read as bytes. */
export async function download<K extends EndpointKey>(key: K, accept: string, ...[input, options]: Args<K>): Promise<Response> {
  const [, path] = target(key, input as { query?: object; params?: object });
  return requestFile(path, accept, options);
}

/**
 * Calls `API_BASE + path` and returns the JSON envelope. Any 2xx is success; 204/205
 * give an empty envelope. Failures throw ApiError after the global hook has seen them.
 */
async function request<T>(method: Method, path: string, body?: unknown, options: RequestOptions = {}): Promise<Envelope<T>> {
  if (options.background) await backgroundOpen(options.signal);
  const headers: Record<string, string> = { Accept: 'application/json' };
  const token = hooks.getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  const form = typeof FormData !== 'undefined' && body instanceof FormData;
  // A FormData body sets its own multipart content type with the boundary.
  if (body !== undefined && !form) headers['Content-Type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, {
      method,
      headers,
      body: body === undefined ? undefined : form ? (body as FormData) : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (cause) {
    // An aborted call rejects with the AbortError itself, as fetch does: TanStack and the loaders know it.
    if (isAbort(cause, options.signal)) throw cause;
    throw new ApiError(0, NETWORK_ERROR_CODE, cause instanceof Error ? cause.message : String(cause));
  }

  if (response.status === 204 || response.status === 205) return {};
  const parsed = await readJson(response);
  if (response.ok) return (parsed ?? {}) as Envelope<T>;

  const error = toApiError(response.status, parsed, response.statusText || `HTTP ${response.status}`);
  hooks.onError(error);
  throw error;
}

/**
 * GETs a file (binary channel data, a CSV, an EDF+) from `API_BASE + path` with the
 * session's token and returns the successful response to read as bytes. Failures throw
 * ApiError after the global hook has seen them, as for `request`.
 */
async function requestFile(path: string, accept = '*/*', options: RequestOptions = {}): Promise<Response> {
  const headers: Record<string, string> = { Accept: accept };
  const token = hooks.getToken();
  if (token) headers.Authorization = `Bearer ${token}`;
  let response: Response;
  try {
    response = await fetch(`${API_BASE}${path}`, { headers, signal: options.signal });
  } catch (cause) {
    if (isAbort(cause, options.signal)) throw cause;
    throw new ApiError(0, NETWORK_ERROR_CODE, cause instanceof Error ? cause.message : String(cause));
  }
  if (response.ok) return response;
  const error = toApiError(response.status, await readJson(response), response.statusText || `HTTP ${response.status}`);
  hooks.onError(error);
  throw error;
}

async function readJson(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
