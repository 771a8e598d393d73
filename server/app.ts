import { existsSync } from 'node:fs';
import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyError, type FastifyInstance, type FastifyReply } from 'fastify';
import fastifyStatic from '@fastify/static';
import type { AppContext } from './context';
import { ApiError, errorBody, fastifyErrorCode, isBadValue, isDatabaseOutage, isPoolExhausted, loggableUrl, OutageLog, RetryLater } from './errors';
import { guardInput, type RouteEntry } from './input-guard';
import { MAX_HEAP_USED_BYTES, shedOverload } from './overload';
import { accountRoutes } from './routes/accounts';
import { profileRoutes } from './routes/profile';
import { signupReviewRoutes } from './routes/signup-review';
import { authRoutes } from './routes/auth';
import { devRoutes } from './routes/dev';
import { patientRoutes } from './routes/patients';
import { recordingRoutes } from './routes/recordings';
import { analyticsRoutes } from './routes/analytics';
import { patientDetailRoutes } from './routes/patient-details';
import { preferenceRoutes } from './routes/preferences';
import { importRoutes } from './routes/imports';
import { exportRoutes } from './routes/exports';
import { scoringFileRoutes } from './routes/scoring-files';
import { nightFileRoutes } from './routes/night-files';
import { trendRoutes } from './routes/trends';
import { annotationRoutes } from './annotations/annotations';
import { categoryRoutes } from './annotations/categories';
import { patientAdminRoutes } from './routes/patient-admin';
import { patientNoteRoutes } from './routes/patient-notes';
import { patientHistoryRoutes } from './routes/patient-history';
import { questionnaireRoutes } from './routes/questionnaires';
import { practiceRoutes } from './routes/practice';
import { dashboardRoutes } from './routes/dashboard';
import { triageRoutes } from './routes/triage';
import { deviceRoutes } from './routes/devices';
import { actigraphRoutes, analyticsKpiRoutes } from './analytics/routes';
import { agreementRoutes } from './analytics/agreement';
import { correctionRoutes } from './routes/corrections';
import { registerSecurityHeaders } from './security-headers';
import { AuditTrail, recordAccesses } from './audit/trail';
import { auditRoutes } from './audit/routes';
import { applyTimeouts } from './timeouts';
import { bookingConflict } from './devices/allocations';
import fastifyWebsocket from '@fastify/websocket';
import { LiveHub } from './live/hub';
import { liveRoutes } from './live/routes';
import { deviceSocketRoute } from './live/device-socket';
import { viewerSocketRoute } from './live/viewer-socket';
import { ConfigPush } from './live/config-push';
import { deviceConfigRoutes } from './live/config-routes';
import { MAX_FRAME_BYTES } from '../contract/live-protocol';
import { reportRoutes } from './reports/routes';
import { sampleRoutes } from './samples/routes';
import { ReportWorker } from './reports/worker';
import { NightStatsQueue } from './analytics/nightStats';
import { AnswerCache } from './analytics/answerCache';
import { closeEnginePool, configureEnginePool } from './services/engine-pool';
import { configureLiveCache } from './analytics/liveCache';
import { createLogger, newRequestId, RequestLogController } from './log';

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

/** Builds the HTTP server: the API under /api/v1 and, when built, the SPA. */
export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const log = ctx.log ?? createLogger(ctx.config.logLevel, ctx.config.logStream);
  const app = Fastify({
    loggerInstance: log as FastifyBaseLogger,
    logController: new RequestLogController(),
    requestIdHeader: false,
    genReqId: newRequestId,
    trustProxy: trustProxyOption(ctx.config.trustProxy),
    bodyLimit: 1024 * 1024,
    ajv: { customOptions: { allErrors: false, coerceTypes: 'array', removeAdditional: false, allowUnionTypes: true } },
  });
  applyTimeouts(app, ctx.config.uploadIdleMs);
  await registerSecurityHeaders(app);
  app.decorateRequest('user', null);
  app.decorateRequest('tokenId', null);

  app.decorate('apiRoutes', guardInput(app));

  // One error handler: a client's mistake is 4xx with the field named, a lost database is 503
  // with one log line per outage, and only a real bug is 500 (with its stack, once).
  const outage = new OutageLog((line) => log.error(line));
  app.setErrorHandler((err: FastifyError | ApiError, request, reply) => {
    const refusedBooking = bookingConflict(err);
    if (refusedBooking) err = refusedBooking;
    if (err instanceof ApiError) {
      if (err instanceof RetryLater) reply.header('retry-after', String(err.retryAfterS));
      return reply.code(err.status).send(err.body());
    }
    const validation = (err as FastifyError).validation;
    if (validation) {
      // The field and the broken rule, so forms can say it in the user's words (issue 16 point 4).
      // A nested field (Device Config's /config/radar/range_m) also by its whole path, and a bound by its limit.
      const first = validation[0] as { instancePath?: string; keyword?: string; params?: { missingProperty?: string; limit?: unknown } } | undefined;
      const field = first?.params?.missingProperty ?? first?.instancePath?.replace(/^\//, '').split('/')[0] ?? '';
      const path = first?.instancePath ? { path: first.instancePath } : {};
      const limit = typeof first?.params?.limit === 'number' ? { limit: first.params.limit } : {};
      return reply.code(400).send(errorBody('validation_failed', err.message, { field, rule: first?.keyword ?? '', ...path, ...limit }));
    }
    const status = (err as FastifyError).statusCode;
    if (status && status >= 400 && status < 500) {
      return reply.code(status).send(errorBody(fastifyErrorCode((err as FastifyError).code), err.message));
    }
    // The client went away mid-request (an aborted upload): said as that, not as a lost database.
    if (request.raw.aborted || request.raw.socket?.destroyed || ((err as { code?: string }).code === 'ECONNRESET' && !request.raw.complete)) {
      request.log.warn({ req: request }, `${request.method} ${loggableUrl(request.url)}: the client aborted the request`);
      return reply.code(400).send(errorBody('client_aborted', 'The request was aborted by the client.'));
    }
    if (isPoolExhausted(err)) {
      return reply.code(503).header('retry-after', '5').send(errorBody('overloaded', 'The server is busy (every database connection is in use); try again in a few seconds.'));
    }
    if (isDatabaseOutage(err)) {
      outage.failed(err);
      return reply.code(503).header('retry-after', '10').send(errorBody('database_unavailable', 'The database is unavailable. Try again in a moment.'));
    }
    if (isBadValue(err)) {
      return reply.code(400).send(errorBody('invalid_value', `A value is out of range or malformed: ${err.message}`));
    }
    request.log.error({ req: request, err }, `${request.method} ${loggableUrl(request.url)} failed: ${err.message}`);
    return reply.code(500).send(errorBody('server_error', 'Sorry, server goes wrong'));
  });

  // A frame over the protocol's limit (up to 16×) still arrives, so the device is told what was wrong.
  await app.register(fastifyWebsocket, { options: { maxPayload: MAX_FRAME_BYTES * 16 } });
  const hub = new LiveHub(ctx.db, log.child({ module: 'live' }));
  await hub.start();
  const configPush = new ConfigPush(ctx.db, log.child({ module: 'live' }));
  await configPush.start();
  // Report jobs: worked here one at a time (unless REPORT_WORKER=0 leaves them to `npm run reports`).
  const reportWorker = ctx.config.reportWorker ? new ReportWorker(ctx.db, {}, log.child({ module: 'reports' })) : null;
  // Per-night statistics computed when a night is stored or changed (issue 18 point 4).
  const nightStats = ctx.nightStats ?? new NightStatsQueue(ctx.db, (m) => log.error(m));
  // Trend and triage answers kept under the revision of what they are made of (issue 18 point 4).
  const answers = ctx.answers ?? new AnswerCache();
  ctx = { ...ctx, nightStats, answers, log };
  app.decorate('nightStats', nightStats);
  app.decorate('answers', answers);
  // Every signed-in API request is recorded (who, when, from where, what, outcome), written in batches.
  const trail = new AuditTrail(ctx.db, (line) => log.child({ module: 'audit' }).warn(line));
  app.decorate('accessTrail', trail);
  app.decorateRequest('accessSubject', null);
  if (ctx.config.accessTrail) recordAccesses(app, trail, API_PREFIX);
  // Night analysis, statistics and overviews run in worker threads (ENGINE_POOL=0: on the event loop).
  configureEnginePool(ctx.config.enginePool);
  // A live night's figures: kept between reads, computed again at most every LIVE_ANALYSIS_SECONDS.
  configureLiveCache(ctx.config.liveRefreshMs);
  app.addHook('onClose', async () => {
    await trail.flush();
    await nightStats.close();
    await reportWorker?.stop();
    for (const client of app.websocketServer.clients) client.terminate();
    await hub.close();
    await configPush.close();
    await closeEnginePool();
  });

  await shedOverload(app, { maxEventLoopDelayMs: ctx.config.maxEventLoopDelayMs, maxHeapUsedBytes: MAX_HEAP_USED_BYTES, sampleIntervalMs: 250 });

  await app.register(
    async (api) => {
      authRoutes(api, ctx);
      accountRoutes(api, ctx);
      patientRoutes(api, ctx);
      recordingRoutes(api, ctx);
      analyticsRoutes(api, ctx);
      patientDetailRoutes(api, ctx);
      preferenceRoutes(api, ctx);
      await importRoutes(api, ctx);
      // After importRoutes: the profile update reads multipart forms with the parser it registers.
      profileRoutes(api, ctx);
      signupReviewRoutes(api, ctx);
      exportRoutes(api, ctx);
      scoringFileRoutes(api, ctx);
      nightFileRoutes(api, ctx);
      trendRoutes(api, ctx);
      annotationRoutes(api, ctx);
      categoryRoutes(api, ctx);
      patientAdminRoutes(api, ctx);
      patientNoteRoutes(api, ctx);
      patientHistoryRoutes(api, ctx);
      questionnaireRoutes(api, ctx);
      practiceRoutes(api, ctx);
      dashboardRoutes(api, ctx);
      triageRoutes(api, ctx);
      deviceRoutes(api, ctx);
      analyticsKpiRoutes(api, ctx);
      actigraphRoutes(api, ctx);
      agreementRoutes(api, ctx);
      correctionRoutes(api, ctx);
      reportRoutes(api, ctx, reportWorker);
      sampleRoutes(api, ctx);
      liveRoutes(api, ctx);
      await deviceSocketRoute(api, ctx, hub, configPush);
      deviceConfigRoutes(api, ctx, configPush);
      auditRoutes(api, ctx, trail);
      await viewerSocketRoute(api, ctx, hub);
      if (ctx.mailer.kind === 'outbox' && !ctx.config.production) devRoutes(api, ctx);
    },
    { prefix: API_PREFIX },
  );

  await reportWorker?.start();

  const webRoot = ctx.config.webRoot;
  const hasWeb = webRoot !== null && existsSync(path.join(webRoot, 'index.html'));
  if (hasWeb) {
    const sendIndex = (_req: unknown, reply: FastifyReply) => reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
    app.get('/', sendIndex);
    await app.register(fastifyStatic, {
      root: webRoot,
      index: false,
      setHeaders: (reply, file) => {
        // Vite's hashed assets never change; the HTML always revalidates.
        const immutable = file.includes(`${path.sep}assets${path.sep}`);
        reply.header('cache-control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (url.startsWith('/api/') || url === '/api') {
      return reply.code(404).send(new ApiError(404, 'not_found', `No such endpoint: ${request.method} ${url}`, { params: { thing: 'endpoint' } }).body());
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.code(404).send(new ApiError(404, 'not_found', `No such page: ${url}`, { params: { thing: 'page' } }).body());
    }
    if (!hasWeb) {
      return reply
        .code(503)
        .type('text/plain')
        .send('The web app is not built. Run "npm start" (or "npm run build") and reload.');
    }
    // Any path that is not a file is a client-side route of the SPA.
    return reply.type('text/html').header('cache-control', 'no-cache').sendFile('index.html');
  });

  return app;
}
