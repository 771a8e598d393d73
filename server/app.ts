import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { AjvCompiler } from '@fastify/ajv-compiler';
import { SerializerSelector } from '@fastify/fast-json-stringify-compiler';
import fastifyWebsocket from '@fastify/websocket';
import type { AppContext } from './context';
import { guardInput, type RouteEntry } from './input-guard';
import { MAX_HEAP_USED_BYTES, shedOverload } from './overload';
import { registerSecurityHeaders } from './security-headers';
import type { AuditTrail } from './audit/trail';
import { applyTimeouts } from './timeouts';
import { MAX_FRAME_BYTES } from '../contract/live-protocol';
import { createLogger, newRequestId, RequestLogController } from './log';
import { compose } from './plugins/compose';
import { registerErrorHandler } from './plugins/error-handler';
import { checkAnswers } from './plugins/answer-check';
import { registerAccessTrail, registerServices, type AppServices } from './plugins/services';
import { apiRoutes } from './plugins/api';
import { registerWeb } from './plugins/web';

const API_PREFIX = '/api/v1';

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered on this app (the fuzz and access tests walk them all). */
    apiRoutes: RouteEntry[];
    /** The access trail's writer (bench:trail switches its recording between rounds). */
    accessTrail: AuditTrail;
  }
}

/** TRUST_PROXY as Fastify takes it: a hop count trusts that many proxies nearest to us. */
function trustProxyOption(trust: false | number | string[]): boolean | string[] | ((address: string, hop: number) => boolean) {
  return typeof trust === 'number' ? (_address, hop) => hop < trust : trust;
}

/**
 * Every app this process builds compiles a route schema once: Fastify compiles each route's schemas
 * again for every app, and our route plugins make their schema objects afresh, so schemas are known
 * by their JSON text. The test suites build hundreds of apps in one process (Ajv was 10 % of the
 * server stage's CPU); a server process builds one.
 */
function onceByText(build: RouteCompiler): RouteCompiler {
  const made = new Map<string, unknown>();
  return (route) => {
    const text = JSON.stringify(route.schema);
    let fn = made.get(text);
    if (fn === undefined) made.set(text, (fn = build(route)));
    return fn;
  };
}

type Factories = NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>;
/** A route's compiler as both pools make them: route → validator or serialiser. */
type RouteCompiler = (route: { schema: unknown }) => unknown;

const validatorPool = AjvCompiler() as unknown as (external: unknown, options: unknown) => RouteCompiler;
const serializerPool = SerializerSelector() as unknown as (external: unknown, options: unknown) => RouteCompiler;
const sharedByPool = new WeakMap<RouteCompiler, RouteCompiler>();

/** The pool's compiler for these externals and options, made to compile each schema text once. */
function shared(pooled: RouteCompiler): RouteCompiler {
  let once = sharedByPool.get(pooled);
  if (!once) sharedByPool.set(pooled, (once = onceByText(pooled)));
  return once;
}

/** Fastify's request validators (its own Ajv, one pool per process), each schema compiled once. */
const sharedValidators = ((external: unknown, options: unknown) => shared(validatorPool(external, options))) as unknown as Factories['buildValidator'];

/**
 * Fastify's answer serialisers, each compiled when its route first answers rather than at start,
 * and once per process (as the validators): 135 routes' response schemas took about 1 ms each to
 * compile, on every start. A broken schema still fails at its route's first answer, which the
 * access-matrix test makes for every route.
 */
const lazySerializers = ((external: unknown, options: unknown) => {
  const compile = shared(serializerPool(external, options));
  return (route: { schema: unknown }) => {
    let serialize: ((doc: unknown) => string) | null = null;
    return (doc: unknown) => (serialize ??= compile(route) as (doc: unknown) => string)(doc);
  };
}) as unknown as Factories['buildSerializer'];

/** The bare Fastify instance: logging, request ids, proxies, body limit, the schema validator's options. */
function createFastify(ctx: AppContext, log: FastifyBaseLogger): FastifyInstance {
  return Fastify({
    loggerInstance: log,
    logController: new RequestLogController(),
    requestIdHeader: false,
    genReqId: newRequestId,
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { allErrors: false, coerceTypes: 'array', removeAdditional: false, allowUnionTypes: true } },
    schemaController: { compilersFactory: { buildValidator: sharedValidators, buildSerializer: lazySerializers } },
  });
}

/** The request fields authentication fills in (context.ts `authenticate`). */
function decorateAuth(app: FastifyInstance): void {
  app.decorateRequest('user', null);
  app.decorateRequest('tokenId', null);
}

/** Builds the HTTP server: the API under /api/v1 and, when built, the SPA. */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const log = ctx.log ?? createLogger(ctx.config.logLevel, ctx.config.logStream);
  const app = createFastify(ctx, log as FastifyBaseLogger);
  let services: AppServices | null = null;
  const started = (): AppServices => {
    if (!services) throw new Error('Building the app: the services are not started yet.');
    return services;
  };
  await compose(app, [
    { name: 'timeouts', run: (a) => applyTimeouts(a, ctx.config.uploadIdleMs) },
    { name: 'helmet', run: registerSecurityHeaders },
    { name: 'auth', run: decorateAuth },
    { name: 'input-guard', run: (a) => a.decorate('apiRoutes', guardInput(a)) },
    { name: 'errors', run: (a) => registerErrorHandler(a, (line) => log.error(line)) },
    { name: 'answer-check', run: (a) => (ctx.config.checkAnswers ? checkAnswers(a) : undefined) },
    // A frame over the protocol's limit (up to 16×) still arrives, so the device is told what was wrong.
    { name: 'websocket', run: (a) => a.register(fastifyWebsocket, { options: { maxPayload: MAX_FRAME_BYTES * 16 } }) },
    { name: 'services', after: ['websocket'], run: async (a) => (services = await registerServices(a, ctx, log)) },
    { name: 'access-trail', after: ['services'], run: (a) => registerAccessTrail(a, started(), API_PREFIX) },
    { name: 'under-pressure', run: (a) => shedOverload(a, { maxEventLoopDelayMs: ctx.config.maxEventLoopDelayMs, maxHeapUsedBytes: MAX_HEAP_USED_BYTES, sampleIntervalMs: 250 }) },
    { name: 'api', after: ['helmet', 'auth', 'input-guard', 'errors', 'answer-check', 'access-trail', 'under-pressure'], run: (a) => a.register((api) => apiRoutes(api, started()), { prefix: API_PREFIX }) },
    { name: 'report-worker', after: ['api'], run: () => started().reportWorker?.start() },
    { name: 'web', after: ['api'], run: (a) => registerWeb(a, ctx.config.webRoot) },
  ]);
  return app;
}
