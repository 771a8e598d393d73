import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '../../contract/api';
import { Answer } from '../../contract/answers';
import { Nullable } from '../../contract/common';
import { checkAnswers } from '../../server/plugins/answer-check';
import { startTestServer, type TestServer } from './helpers';

/**
 * Issue 35 point 2: every route declares its answer in the contract (contract/api.ts), the server
 * registers the route with exactly that entry, and outside production every answer is checked
 * against it before it is sent.
 */
describe('answers in the contract', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  }, 120_000);
  afterAll(() => server?.close());

  it('registers every API route with its contract entry, response schema included', () => {
    const routes = server.app.apiRoutes.filter((r) => r.url.startsWith('/api/v1/') && !r.websocket);
    expect(routes.length).toBeGreaterThan(100);
    const keys = routes.map((r) => `${r.method} ${r.url.slice('/api/v1'.length)}`);
    const missing = keys.filter((key) => !(key in ENDPOINTS));
    expect(missing, 'routes without a contract entry').toEqual([]);
    const withoutAnswer = routes.filter((r) => !(r.schema as { response?: object } | undefined)?.response).map((r) => `${r.method} ${r.url}`);
    expect(withoutAnswer, 'routes without a response schema').toEqual([]);
    // The entry is the one registered (its response object itself, not a copy that could drift).
    for (const r of routes) {
      const key = `${r.method} ${r.url.slice('/api/v1'.length)}` as keyof typeof ENDPOINTS;
      expect((r.schema as { response?: object }).response, key).toBe(ENDPOINTS[key].response);
    }
    // And the contract names no route the server does not have.
    expect(Object.keys(ENDPOINTS).filter((key) => !keys.includes(key)), 'contract entries without a route').toEqual([]);
  });
});

describe('the answer check', () => {
  const app = Fastify();
  const schema = { response: { 200: Answer(Type.Object({ ahi: Nullable(Type.Number()), name: Type.String() })) } };
  beforeAll(async () => {
    checkAnswers(app);
    app.get('/right', { schema }, async () => ({ data: { ahi: null, name: 'x' } }));
    app.get('/null-where-a-number-must-be', { schema: { response: { 200: Answer(Type.Object({ ahi: Type.Number() })) } } }, async () => ({ data: { ahi: null } }));
    app.get('/missing-field', { schema }, async () => ({ data: { ahi: 3.5 } }));
    await app.ready();
  });
  afterAll(() => app.close());

  it('sends an answer that matches, nulls kept', async () => {
    const res = await app.inject('/right');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ data: { ahi: null, name: 'x' } });
  });

  it('fails an answer whose null the serialiser would have sent as 0, naming the field', async () => {
    const res = await app.inject('/null-where-a-number-must-be');
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toMatch(/GET \/null-where-a-number-must-be does not match its schema: answer\/data\/ahi must be number/);
  });

  it('fails an answer that lacks a field its schema requires', async () => {
    const res = await app.inject('/missing-field');
    expect(res.statusCode).toBe(500);
    expect(res.json().message).toMatch(/must have required property 'name'/);
  });
});
