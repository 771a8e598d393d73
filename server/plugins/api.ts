import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import type { AppServices } from './services';
import { compose } from './compose';
import { accountRoutes } from '../auth/account-routes';
import { profileRoutes } from '../profile/routes';
import { signupReviewRoutes } from '../auth/signup-review-routes';
import { authRoutes } from '../auth/routes';
import { devRoutes } from '../dev/routes';
import { patientRoutes } from '../patients/list-routes';
import { recordingRoutes } from '../recordings/routes';
import { analyticsRoutes } from '../analytics/series-routes';
import { patientDetailRoutes } from '../patients/details-routes';
import { preferenceRoutes } from '../profile/preferences-routes';
import { importRoutes, registerMultipart } from '../recordings/import-routes';
import { exportRoutes } from '../recordings/export-routes';
import { scoringFileRoutes } from '../annotations/scoring-file-routes';
import { nightFileRoutes } from '../recordings/night-file-routes';
import { trendRoutes } from '../analytics/trend-routes';
import { annotationRoutes } from '../annotations/routes';
import { categoryRoutes } from '../annotations/category-routes';
import { patientAdminRoutes } from '../patients/admin-routes';
import { patientNoteRoutes } from '../patients/notes-routes';
import { patientHistoryRoutes } from '../patients/history-routes';
import { questionnaireRoutes } from '../patients/questionnaire-routes';
import { practiceRoutes } from '../practice/routes';
import { dashboardRoutes } from '../dashboard/routes';
import { triageRoutes } from '../dashboard/triage-routes';
import { deviceRoutes } from '../devices/routes';
import { actigraphRoutes, analyticsKpiRoutes } from '../analytics/routes';
import { agreementRoutes } from '../analytics/agreement';
import { correctionRoutes } from '../analytics/corrections-routes';
import { annotationColumnRoutes } from '../annotations/columns';
import { scoringRoutes } from '../scoring/routes';
import { auditRoutes } from '../audit/routes';
import { liveRoutes } from '../live/routes';
import { deviceSocketRoute } from '../live/device-socket';
import { viewerSocketRoute } from '../live/viewer-socket';
import { deviceConfigRoutes } from '../live/config-routes';
import { reportRoutes } from '../reports/routes';
import { sampleRoutes } from '../samples/routes';

/** Accounts, people and their records: sign-in, profiles, patients, the practice and its dashboard. */
function peopleRoutes(api: FastifyInstance, ctx: AppContext) {
  authRoutes(api, ctx);
  accountRoutes(api, ctx);
  profileRoutes(api, ctx);
  signupReviewRoutes(api, ctx);
  preferenceRoutes(api, ctx);
  patientRoutes(api, ctx);
  patientDetailRoutes(api, ctx);
  patientAdminRoutes(api, ctx);
  patientNoteRoutes(api, ctx);
  patientHistoryRoutes(api, ctx);
  questionnaireRoutes(api, ctx);
  practiceRoutes(api, ctx);
  dashboardRoutes(api, ctx);
  triageRoutes(api, ctx);
  deviceRoutes(api, ctx);
  if (ctx.mailer.kind === 'outbox' && !ctx.config.production) devRoutes(api, ctx);
}

/** Nights and what is made of them: recordings, files in and out, annotations, analytics, reports, samples. */
async function nightRoutes(api: FastifyInstance, ctx: AppContext, services: AppServices) {
  recordingRoutes(api, ctx);
  analyticsRoutes(api, ctx);
  await importRoutes(api, ctx);
  exportRoutes(api, ctx);
  scoringFileRoutes(api, ctx);
  nightFileRoutes(api, ctx);
  trendRoutes(api, ctx);
  annotationRoutes(api, ctx);
  annotationColumnRoutes(api, ctx);
  categoryRoutes(api, ctx);
  analyticsKpiRoutes(api, ctx);
  actigraphRoutes(api, ctx);
  agreementRoutes(api, ctx);
  correctionRoutes(api, ctx);
  scoringRoutes(api, ctx);
  reportRoutes(api, ctx, services.reportWorker);
  sampleRoutes(api, ctx);
}

/** The live path: device and viewer sockets, device configuration, and the access trail's reader. */
async function liveAndAuditRoutes(api: FastifyInstance, ctx: AppContext, services: AppServices) {
  liveRoutes(api, ctx);
  await deviceSocketRoute(api, ctx, services.hub, services.configPush);
  deviceConfigRoutes(api, ctx, services.configPush);
  auditRoutes(api, ctx, services.trail);
  await viewerSocketRoute(api, ctx, services.hub);
}

/** Every route of the API (registered under its prefix). */
export async function apiRoutes(api: FastifyInstance, services: AppServices): Promise<void> {
  const { ctx } = services;
  await compose(api, [
    { name: 'multipart', run: (a) => registerMultipart(a, ctx) },
    { name: 'people', after: ['multipart'], run: (a) => peopleRoutes(a, ctx) },
    { name: 'nights', after: ['multipart'], run: (a) => nightRoutes(a, ctx, services) },
    { name: 'live', run: (a) => liveAndAuditRoutes(a, ctx, services) },
  ]);
}
