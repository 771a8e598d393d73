import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';
import type { AppContext } from '../context';
import { AuditTrail, recordAccesses } from '../audit/trail';
import { LiveHub } from '../live/hub';
import { ConfigPush } from '../live/config-push';
import { ReportWorker } from '../reports/worker';
import { NightStatsQueue } from '../analytics/nightStats';
import { AnswerCache } from '../analytics/answerCache';
import { closeEnginePool, configureEnginePool } from '../services/engine-pool';
import { configureLiveCache } from '../analytics/liveCache';

/** The long-lived parts the routes share, started with the app and stopped when it closes. */
export interface AppServices {
  hub: LiveHub;
  configPush: ConfigPush;
  reportWorker: ReportWorker | null;
  trail: AuditTrail;
  nightStats: NightStatsQueue;
  answers: AnswerCache;
  /** The context with the log, the statistics queue and the answer cache filled in. */
  ctx: AppContext;
}

/** Starts the live hub, the config push, the report worker (not yet working), the statistics queue and the answer cache. */
async function startServices(ctx: AppContext, log: Logger): Promise<AppServices> {
  const hub = new LiveHub(ctx.db.live(), log.child({ module: 'live' }));
  await hub.start();
  const configPush = new ConfigPush(ctx.db, log.child({ module: 'live' }));
  await configPush.start();
  // Report jobs: worked here one at a time (unless REPORT_WORKER=0 leaves them to `npm run reports`).
  const reportWorker = ctx.config.reportWorker ? new ReportWorker(ctx.db, {}, log.child({ module: 'reports' })) : null;
  // Per-night statistics computed when a night is stored or changed (issue 18 point 4).
  const nightStats = ctx.nightStats ?? new NightStatsQueue(ctx.db, (m) => log.error(m));
  // Trend and triage answers kept under the revision of what they are made of (issue 18 point 4).
  const answers = ctx.answers ?? new AnswerCache();
  const trail = new AuditTrail(ctx.db, (line) => log.child({ module: 'audit' }).warn(line));
  return { hub, configPush, reportWorker, trail, nightStats, answers, ctx: { ...ctx, nightStats, answers, log } };
}

/**
 * Every signed-in API request is recorded (who, when, from where, what, outcome), written in
 * batches by the services' trail.
 */
export function registerAccessTrail(app: FastifyInstance, services: AppServices, apiPrefix: string): void {
  app.decorate('accessTrail', services.trail);
  app.decorateRequest('accessSubject', null);
  if (services.ctx.config.accessTrail) recordAccesses(app, services.trail, apiPrefix);
}

/** Starts the shared services, decorates the app with them and stops them when it closes (the websocket plugin first: closing ends its clients). */
export async function registerServices(app: FastifyInstance, ctx: AppContext, log: Logger): Promise<AppServices> {
  const services = await startServices(ctx, log);
  const { hub, configPush, reportWorker, trail, nightStats, answers } = services;
  app.decorate('nightStats', nightStats);
  app.decorate('answers', answers);
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
  return services;
}
