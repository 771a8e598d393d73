/**
 * Every route of the API as `'METHOD /path'` → its schemas (querystring, body, params, and the
 * response by status): the server registers each route with its entry (a test holds the two
 * together) and the browser's `call` takes a call's input and answer types from it, so the shape
 * of a request or an answer is written once, here.
 */
import type { Static, TSchema } from '@sinclair/typebox';
import { scoringEndpoints } from './scoring-rounds';
import { peopleEndpoints } from './endpoints/people';
import { patientsEndpoints } from './endpoints/patients';
import { devicesEndpoints } from './endpoints/devices';
import { recordingsEndpoints } from './endpoints/recordings';
import { analyticsEndpoints } from './endpoints/analytics';

export const ENDPOINTS = {
  ...peopleEndpoints,
  ...patientsEndpoints,
  ...devicesEndpoints,
  ...recordingsEndpoints,
  ...analyticsEndpoints,
  ...scoringEndpoints,
};

export type Endpoints = typeof ENDPOINTS;
export type EndpointKey = keyof Endpoints;

type Success<E> = E extends { response: infer R } ? (R extends { 200: infer S extends TSchema } ? S : R extends { 201: infer S extends TSchema } ? S : R extends { 202: infer S extends TSchema } ? S : never) : never;

/** What a successful call answers: the envelope `{ code?, message?, data }` (or the file's bytes). */
export type AnswerOf<K extends EndpointKey> = Static<Success<Endpoints[K]>>;

type Part<E, P extends string, As extends string> = E extends { [k in P]: infer S extends TSchema } ? { [k in As]: Static<S> } : unknown;

/** What a call sends: its query, body and path parameters, each as its schema accepts it. */
export type InputOf<K extends EndpointKey> = Part<Endpoints[K], 'querystring', 'query'> & Part<Endpoints[K], 'body', 'body'> & Part<Endpoints[K], 'params', 'params'>;
