/**
 * Request schemas of the night's analytics (spec 2 §3, §7): the JSON series, the KPI summaries,
 * system annotations, the practice's analytics settings and the actigraph.
 */
import { Type, type Static } from '@sinclair/typebox';
import { deviceId, Enum, id, isoDay, Strict } from './common';

/** GET /analytics/patient/type=:type: channel codes, comma-separated (the path always names some). */
export const SeriesParams = Type.Object({ type: Type.String({ minLength: 1, maxLength: 400 }) });

/**
 * GET /analytics/patient/type=:type: the night (Unix seconds, YYYY-MM-DD or YYYYMMDD), a window of it
 * (seconds or ms), more codes in graph_type, and `multiple` for the SQB channel too.
 */
export const SeriesQuery = Type.Object({
  patient_id: id,
  recording_date: Type.String({ minLength: 8, maxLength: 20 }),
  device_id: Type.Optional(deviceId),
  device_start_time: Type.Optional(Type.Number()),
  device_stop_time: Type.Optional(Type.Number()),
  graph_type: Type.Optional(Type.String({ maxLength: 400 })),
  multiple: Type.Optional(Type.Boolean()),
});
export type SeriesQuery = Static<typeof SeriesQuery>;

/** A patient's night by key (Unix seconds) or date, and the device when the night has several; device_allocation_time is accepted and not read. */
const nightFields = {
  patient_id: id,
  night: Type.Optional(Type.Integer()),
  recording_date: Type.Optional(Type.String({ maxLength: 20 })),
  device_id: Type.Optional(deviceId),
  device_allocation_time: Type.Optional(Type.Number()),
};

/** The night of the KPI calls: GET …/summary/kpi=:kpi, POST …/all-kpi-summary, GET /patient/rii_odi_value. */
export const NightQuery = Type.Object(nightFields);
export type NightQuery = Static<typeof NightQuery>;

/** GET /analytics/patient/summary/kpi=:kpi: the KPI's name, any case (the route lists those it knows). */
export const KpiParams = Type.Object({ kpi: Type.String({ maxLength: 40 }) });

/** POST /analytics/patient/generate-system-annotations: apneas and hypopneas ('system', the default) or desaturations; doctor_id is accepted and not read. */
export const SystemAnnotationsBody = Type.Object({ ...nightFields, type: Type.Optional(Enum(['system', 'desaturation'])), doctor_id: Type.Optional(Type.Integer()) });
export type SystemAnnotationsBody = Static<typeof SystemAnnotationsBody>;

/** POST /physician/update-analytics-settings: the desaturation rule (%) and the RII's divisor, each kept when left out. */
export const AnalyticsSettingsBody = Strict({ desaturation_rule: Type.Optional(Enum([3, 4])), rii_divisor: Type.Optional(Enum(['GSD', 'TST', 'TBT', 'TBR'])) });
export type AnalyticsSettingsBody = Static<typeof AnalyticsSettingsBody>;

/** GET /analytics/patient/actigraph: the nights from start_date to end_date. */
export const ActigraphQuery = Type.Object({ patient_id: id, start_date: isoDay, end_date: isoDay, device_id: Type.Optional(deviceId) });

/** GET /analytics/patient/agreement: the night (as the series call names it) whose device events are compared. */
export const AgreementQuery = Strict({
  patient_id: Type.Integer({ minimum: 1 }),
  night: Type.Optional(Type.Integer({ minimum: 0 })),
  recording_date: Type.Optional(Type.String({ maxLength: 20 })),
  device_id: Type.Optional(Type.String({ maxLength: 40 })),
});
export type AgreementQuery = Static<typeof AgreementQuery>;
