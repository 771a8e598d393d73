/** The routes of this part of the API and their schemas (contract/api.ts): a night's analytics, its series, the trend, corrections and agreement. */
import { Answer } from '../answers';
import {
  ActigraphAnswer,
  ActigraphQuery,
  AgreementQuery,
  AnalyticsSettingsAnswer,
  AnalyticsSettingsBody,
  KpiAnswer,
  KpiParams,
  NightAgreement,
  NightQuery,
  NightSummary,
  RiiOdiAnswer,
  SeriesAnswer,
  SeriesParams,
  SeriesQuery,
  SystemAnnotationsAnswer,
  SystemAnnotationsBody,
} from '../analytics';
import { TrendAnswer, TrendParams, TrendQuery } from '../trends';
import { AddCorrectionBody, CorrectionsQuery, NightCorrections, UndoCorrectionBody } from '../corrections';

export const analyticsEndpoints = {
  'GET /analytics/patient/summary/kpi=:kpi': { params: KpiParams, querystring: NightQuery, response: { 200: Answer(KpiAnswer) } },
  'POST /analytics/patient/all-kpi-summary': { body: NightQuery, response: { 200: Answer(NightSummary) } },
  'GET /patient/rii_odi_value': { querystring: NightQuery, response: { 200: Answer(RiiOdiAnswer) } },
  'POST /analytics/patient/generate-system-annotations': { body: SystemAnnotationsBody, response: { 200: Answer(SystemAnnotationsAnswer) } },
  'POST /physician/update-analytics-settings': { body: AnalyticsSettingsBody, response: { 200: Answer(AnalyticsSettingsAnswer) } },
  'GET /analytics/patient/actigraph': { querystring: ActigraphQuery, response: { 200: Answer(ActigraphAnswer) } },
  'GET /analytics/patient/type=:type': { params: SeriesParams, querystring: SeriesQuery, response: { 200: Answer(SeriesAnswer) } },
  // Sent as the JSON kept in the answer cache (a Buffer): the serialiser and the answer check do not see it.
  'GET /analytics/patient-trendview/type=:type': { params: TrendParams, querystring: TrendQuery, response: { 200: Answer(TrendAnswer) } },
  'GET /analytics/patient/corrections': { querystring: CorrectionsQuery, response: { 200: Answer(NightCorrections) } },
  'POST /analytics/patient/corrections': { body: AddCorrectionBody, response: { 201: Answer(NightCorrections) } },
  'POST /analytics/patient/corrections/undo': { body: UndoCorrectionBody, response: { 200: Answer(NightCorrections) } },
  'GET /analytics/patient/agreement': { querystring: AgreementQuery, response: { 200: Answer(NightAgreement) } },
};
