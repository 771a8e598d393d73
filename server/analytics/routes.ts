import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { KpiAnswer, NightQuery } from '../../contract/analytics';
import { analyticsEndpoints } from '../../contract/endpoints/analytics';
import { indexFigures } from './figures';
import type { AppContext } from '../context';
import type { Api } from '../typed-api';
import { authenticate, currentUser } from '../context';
import { ApiError, forbidden } from '../errors';
import { visiblePatient, type PatientAccess } from '../patients/access';
import { nightOf } from '../annotations/annotations';
import type { DetectedEvent } from '../../engine/detect';
import { isLiveRecording, listChannels } from '../recordings/store';
import { actigraphOf, analysisOf, storedActigraphs } from './analyse';
import type { ActigraphNight } from './actigraphNight';
import { nightDate } from '../recordings/night-key';
import { analyticsSettings, saveAnalyticsSettings } from './settings';
import { replaceSystemAnnotations } from './system-annotations';
import { practiceNights } from './nightStats';
import { nightSummary } from './summary';

/** The caller, the night and the practice's settings; `read` also reaches sample patients. */
async function nightContext(ctx: AppContext, request: FastifyRequest, q: NightQuery, access: PatientAccess = 'write') {
  const user = currentUser(request);
  const patient = await visiblePatient(ctx.db, user, q.patient_id, access);
  const recording = await nightOf(ctx.db, patient, q);
  const settings = await analyticsSettings(ctx.db, patient.physician_id);
  return { user, patient, recording, settings, paid: user.membership_type === 'paid' };
}

/** The night's KPI summary as the caller may read it. */
async function summaryFor(ctx: AppContext, request: FastifyRequest, q: NightQuery) {
  const { recording, settings, paid } = await nightContext(ctx, request, q, 'read');
  return nightSummary(ctx.db, recording, settings, paid);
}

const KPIS = ['AHI', 'ODI', 'GSD', 'RECORDING', 'RII', 'TST', 'SE', 'ML_KPI_SUMMARY'] as const;

/** The summary fields each single-KPI call answers (ML_KPI_SUMMARY: all of them). */
const KPI_FIELDS: Record<string, string[]> = {
  AHI: ['ahi', 'apneas', 'hypopneas', 'events_source', 'events_round_id', 'total_sleep_time', 'index_basis', 'ahi_basis', 'monitoring_time'],
  ODI: ['odi', 'desaturations', 'desaturation_rule', 'total_sleep_time', 'index_basis', 'monitoring_time'],
  GSD: ['good_signal_duration', 'total_bed_time'],
  RII: ['rii', 'rii_divisor', 'index_basis', 'ahi_basis'],
  TST: ['total_sleep_time', 'sol', 'waso', 'sleep_basis'],
  SE: ['sleep_efficiency', 'total_sleep_time', 'total_bed_time', 'sleep_basis'],
  RECORDING: ['recording_start_time', 'recording_stop_time', 'bed_in_time', 'bed_out_time', 'total_bed_time', 'total_sleep_time', 'sleep_efficiency', 'sol', 'waso', 'good_signal_duration', 'sleep_basis'],
};

/** A night's KPIs: one by name, all of them, and the RII with the ODI. */
function kpiRoutes(app: Api, ctx: AppContext) {
  const auth = authenticate(ctx);
  app.get('/analytics/patient/summary/kpi=:kpi', { preHandler: auth, schema: analyticsEndpoints['GET /analytics/patient/summary/kpi=:kpi'] }, async (request) => {
    const kpi = request.params.kpi.toUpperCase();
    if (!(KPIS as readonly string[]).includes(kpi)) throw new ApiError(400, 'validation_failed', `Unknown kpi "${request.params.kpi}"; one of ${KPIS.join(', ')}.`);
    if ((kpi === 'AHI' || kpi === 'ODI') && currentUser(request).membership_type === 'paid') throw forbidden(`${kpi} is not part of your membership.`);
    const all = await summaryFor(ctx, request, request.query);
    const data: Partial<KpiAnswer> = kpi === 'ML_KPI_SUMMARY' ? all : Object.fromEntries((KPI_FIELDS[kpi] ?? []).map((k) => [k, (all as Record<string, unknown>)[k]]));
    return { data: { ...data, kpi, night: all.night } };
  });

  app.post('/analytics/patient/all-kpi-summary', { preHandler: auth, schema: analyticsEndpoints['POST /analytics/patient/all-kpi-summary'] }, async (request) => ({ data: await summaryFor(ctx, request, request.body) }));

  app.get('/patient/rii_odi_value', { preHandler: auth, schema: analyticsEndpoints['GET /patient/rii_odi_value'] }, async (request) => {
    const { recording, settings, paid } = await nightContext(ctx, request, request.query, 'read');
    const a = await analysisOf(ctx.db, recording, settings);
    const index = indexFigures(a);
    return { data: { night: recording.night_key, rii: index.rii, rii_divisor: a.kpis.riiDivisor, index_basis: index.indexBasis, ahi_basis: index.ahiBasis, ...(paid ? {} : { odi: index.odi }) } };
  });
}

/** The detectors' events as system annotations of the night, replacing their earlier output. */
function systemAnnotationRoutes(app: Api, ctx: AppContext) {
  app.post('/analytics/patient/generate-system-annotations', { preHandler: authenticate(ctx), schema: analyticsEndpoints['POST /analytics/patient/generate-system-annotations'] }, async (request) => {
    const { user, patient, recording, settings, paid } = await nightContext(ctx, request, request.body);
    if (paid) throw forbidden('Generating system annotations is not part of your membership.');
    const type = request.body.type ?? 'system';
    const a = await analysisOf(ctx.db, recording, settings);
    const events: DetectedEvent[] = type === 'system' ? a.respiratory : a.desaturations;
    if (type === 'system' && !a.breathingSource) throw new ApiError(422, 'no_breathing_signal', 'This night has no breathing signal (Y_DIST or NC_PSG) to detect apneas in.');
    if (type === 'desaturation' && !a.desaturations.length && !(await listChannels(ctx.db, [recording.id])).some((c) => c.code === 'SPO2' || c.code === 'SPO2_PSG')) {
      throw new ApiError(422, 'no_spo2_signal', 'This night has no SpO2 signal to detect desaturations in.');
    }
    const created = await replaceSystemAnnotations(ctx.db, { patient, recording, type, events, breathingSource: a.breathingSource, userId: user.id });
    return { code: 'system_annotations_generated', message: `${created} ${type === 'system' ? 'apneas and hypopneas' : 'desaturations'} found.`, data: { created, type } };
  });
}

/** The practice physician's analytics settings (desaturation rule, RII divisor). */
function settingsRoutes(app: Api, ctx: AppContext) {
  app.post('/physician/update-analytics-settings', { preHandler: authenticate(ctx), schema: analyticsEndpoints['POST /physician/update-analytics-settings'] }, async (request) => {
    const user = currentUser(request);
    if (user.is_annotator) throw forbidden('Annotators cannot change analytics settings.');
    // The practice's settings belong to its physician: secondary and tertiary users (and admins) read them only.
    if (user.role !== 'physician' || user.physician_id !== null || user.is_secondary_user || user.is_ternary_user) throw forbidden('Only the practice physician can change analytics settings.');
    const physicianId = user.physician_id ?? user.id;
    const current = await analyticsSettings(ctx.db, physicianId);
    const next = { desaturationRule: request.body.desaturation_rule ?? current.desaturationRule, riiDivisor: request.body.rii_divisor ?? current.riiDivisor };
    await saveAnalyticsSettings(ctx.db, physicianId, next, user.id);
    // The practice's nights under the new settings: analysed now, in the background.
    if (next.desaturationRule !== current.desaturationRule || next.riiDivisor !== current.riiDivisor) ctx.nightStats?.schedule(await practiceNights(ctx.db, physicianId));
    return { code: 'settings_updated', data: { desaturation_rule: next.desaturationRule, rii_divisor: next.riiDivisor } };
  });
}

/** Clinical analytics (issue 7, spec 2 §7): system annotations, the night's KPI summaries, settings. */
export function analyticsKpiRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  kpiRoutes(app, ctx);
  systemAnnotationRoutes(app, ctx);
  settingsRoutes(app, ctx);
}

/** GET /analytics/patient/actigraph?start_date&end_date&patient_id: per night, the actigraph of spec 2 §3. */
export function actigraphRoutes(server: FastifyInstance, ctx: AppContext) {
  const app = server.withTypeProvider<TypeBoxTypeProvider>();
  app.get(
    '/analytics/patient/actigraph',
    { preHandler: authenticate(ctx), schema: analyticsEndpoints['GET /analytics/patient/actigraph'] },
    async (request) => {
      const q = request.query;
      const from = Date.parse(`${q.start_date}T00:00:00Z`) / 1000;
      const to = Date.parse(`${q.end_date}T00:00:00Z`) / 1000;
      if (!(to >= from)) throw new ApiError(400, 'validation_failed', 'end_date is before start_date.');
      if (to - from > 92 * 86_400) throw new ApiError(400, 'validation_failed', 'An actigraph covers at most 92 days.');
      const patient = await visiblePatient(ctx.db, currentUser(request), q.patient_id, 'read');
      const settings = await analyticsSettings(ctx.db, patient.physician_id);
      const { listRecordings } = await import('../recordings/store');
      const nights = (await listRecordings(ctx.db, patient.id)).filter((r) => r.night_key >= from && r.night_key <= to && (!q.device_id || r.device_id === q.device_id));
      // Ended nights from their stored rows in one query; the others (live, not analysed yet) made here.
      const stored = await storedActigraphs(ctx.db, nights.filter((r) => !isLiveRecording(r)).map((r) => r.id), settings);
      const out: Record<string, ActigraphNight> = {};
      for (const r of nights) out[nightDate(r.night_key)] = stored.get(r.id) ?? (await actigraphOf(ctx.db, r, settings));
      return { data: out };
    },
  );
}
