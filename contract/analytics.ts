/**
 * Request and answer schemas of the night's analytics (spec 2 §3, §7): the JSON series, the KPI
 * summaries, system annotations, the practice's analytics settings, the actigraph and the
 * agreement with the device's own scoring.
 */
import { Type, type Static } from '@sinclair/typebox';
import { deviceId, Enum, id, isoDay, Nullable, Strict, Types } from './common';
import { DeviceSummaryDay } from './deviceSummaries';

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

const Str = Type.String();
const Num = Type.Number();
const Int = Type.Integer();
/** A figure that is "–" (null) where the night has no data to compute it from. */
const Figure = Nullable(Num);
/** Minutes rounded to whole ones, or null ("–"). */
const Minutes = Nullable(Int);

/** What AHI and ODI are per hour of: sleep, or monitoring time without sleep staging (REI). */
export const IndexBasis = Enum(['sleep', 'monitoring']);
/** What TST, SE, SOL and WASO rest on: sleep/wake data, none (a CPAP or oximeter night: they are "–"), or no time in bed. */
export const SleepBasis = Enum(['staging', 'no_staging', 'no_bed_time']);
/**
 * 'no_breathing_signal': AHI/REI and RII are null for want of a breathing signal, never 0;
 * 'no_breathing_signal_in_sleep': the night has one, but it was recorded during none of the staged sleep.
 */
export const AhiBasis = Enum(['breathing_signal', 'no_breathing_signal', 'no_breathing_signal_in_sleep']);
export const RiiDivisor = Enum(['GSD', 'TST', 'TBT', 'TBR']);
export const DesaturationRule = Enum([3, 4]);

/** A channel's whole-night figures, 2 decimals, and the count of valid samples they are made of (0: every figure is "–"). */
export const NightStat = Type.Object({
  lowerPercentile: Figure,
  medianPercentile: Figure,
  upperPercentile: Figure,
  mean: Figure,
  min: Figure,
  max: Figure,
  count: Int,
});
export type NightStat = Static<typeof NightStat>;

/** The fields of a night's KPI summary (spec 2 §3 "Summary KPI record"). */
const summaryFields = {
  night: Int,
  device_id: Nullable(Str),
  /** The channel apneas were scored on, or null (no breathing signal). */
  breathing_source: Nullable(Enum(['NC_PSG', 'Y_DIST'])),
  rii: Figure,
  rii_divisor: RiiDivisor,
  index_basis: IndexBasis,
  ahi_basis: AhiBasis,
  /** Monitoring time, h; null in analyses stored before it was counted. */
  monitoring_time: Figure,
  /**
   * The hours AHI (and RII over TST) is per: the sleep with a valid breathing signal (staged
   * nights; less than TST when the sensor was off for part of the sleep), else the monitoring time.
   */
  ahi_hours: Figure,
  /** null: the night has no signal-quality (SQB) channel ("–"). */
  good_signal_duration: Figure,
  /** null: the night has no breathing-rate channel ("–"). */
  total_breathing_time: Figure,
  /** null without sleep staging or time in bed (sleep_basis says which, "–" with it). */
  total_sleep_time: Figure,
  /** Why TST, SE, SOL and WASO are null when they are: 'no_staging' or 'no_bed_time'; 'staging' otherwise (SOL null then: no sleep scored). */
  sleep_basis: SleepBasis,
  total_bed_time: Num,
  sleep_efficiency: Figure,
  sol: Minutes,
  /** null without sleep staging ("–"). */
  waso: Minutes,
  /** Minutes from sleep onset to the first deep, light and REM epoch. */
  latencies: Type.Object({ deep: Minutes, light: Minutes, rem: Minutes }),
  /** The device's own summary of this night's day (ResMed STR.edf), or null. */
  device_summary: Nullable(DeviceSummaryDay),
  bed_in_time: Nullable(Str),
  bed_out_time: Nullable(Str),
  /** The night's weight readings (median), kg; null without a weight channel. */
  recorded_weight: Figure,
  /** The night's lowest SpO2, %; null without SpO2. */
  lowest_spo2: Figure,
  recording_start_time: Int,
  recording_stop_time: Int,
  apneas: Int,
  hypopneas: Int,
  /** Where apneas, hypopneas and AHI come from: the detectors, or a double scoring's consensus (issue 36). */
  events_source: Enum(['consensus', 'automatic']),
  /** The adjudicated round whose consensus they come from, or null. */
  events_round_id: Nullable(Int),
  desaturations: Int,
  desaturation_rule: DesaturationRule,
  /** Marks of the night per built-in category name. */
  customized_index: Type.Record(Str, Int),
  /** Whole-night figures of the vital channels, by channel code. */
  percentiles: Type.Record(Str, NightStat),
  /** The night is analysed under manual corrections (bed times, invalid spans). */
  corrected: Type.Boolean(),
  /** Bed-in and bed-out are the files' lights-off and lights-on markers, not a physician's correction (decision 1023). */
  bed_times_from_lights: Type.Boolean(),
  /** Bed-in and bed-out are the recording's start and stop: no correction, no lights markers, no in-bed (TB) signal. */
  bed_times_from_recording: Type.Boolean(),
  /** AHI, ODI and the ODI's basis: absent for paid memberships (spec 2 §1). */
  ahi: Type.Optional(Figure),
  odi: Type.Optional(Figure),
  /** Why the ODI is "–" when it is: no SpO2 channel, none valid, none during the staged sleep, or no monitoring time. */
  odi_basis: Type.Optional(Enum(['spo2', 'no_spo2_channel', 'no_valid_spo2', 'no_spo2_in_sleep', 'no_monitoring_time'])),
  /** The hours ODI is per: the sleep with a valid SpO2 (staged nights), else the time with a valid SpO2. */
  odi_hours: Type.Optional(Figure),
};

/** POST /analytics/patient/all-kpi-summary: the night's KPI summary. */
export const NightSummary = Type.Object(summaryFields);
export type NightSummary = Static<typeof NightSummary>;

/** GET /analytics/patient/summary/kpi=:kpi: the summary fields of that KPI (ML_KPI_SUMMARY: all of them), the KPI's name and the night. */
export const KpiAnswer = Type.Object({ ...Type.Partial(NightSummary).properties, kpi: Str, night: Int });
export type KpiAnswer = Static<typeof KpiAnswer>;

/** GET /patient/rii_odi_value (the ODI absent for paid memberships). */
export const RiiOdiAnswer = Type.Object({ night: Int, rii: Figure, rii_divisor: RiiDivisor, index_basis: IndexBasis, ahi_basis: AhiBasis, odi: Type.Optional(Figure) });
export type RiiOdiAnswer = Static<typeof RiiOdiAnswer>;

/** POST /analytics/patient/generate-system-annotations: how many events became annotations. */
export const SystemAnnotationsAnswer = Type.Object({ created: Int, type: Enum(['system', 'desaturation']) });

/** POST /physician/update-analytics-settings: the practice's settings now. */
export const AnalyticsSettingsAnswer = Type.Object({ desaturation_rule: DesaturationRule, rii_divisor: RiiDivisor });

/** A stretch of one state, ms UTC. */
const Band = Type.Object({ from: Num, to: Num });

/** One night of GET /analytics/patient/actigraph (spec 2 §3 "Actigraph per date"), as stored in night_analyses.actigraph. */
export const ActigraphNight = Type.Object({
  /**
   * [minute start ms, mean movement or null where no valid sample]. The null is a type list, not
   * Nullable's anyOf: the serialiser checks a tuple's items by their `type` only (an anyOf item fails).
   */
  line_data: Type.Array(Type.Tuple([Num, Types<number | null>(['number', 'null'])])),
  sleep_bands: Type.Array(Band),
  awake_bands: Type.Array(Band),
  undefined_bands: Type.Array(Band),
  meta_data: Type.Object({
    graph_start_time: Int,
    graph_stop_time: Int,
    waso: Minutes,
    total_sleep_time: Figure,
    sol: Minutes,
    bed_in_time: Nullable(Str),
    bed_out_time: Nullable(Str),
  }),
  timezone: Str,
});
export type ActigraphNight = Static<typeof ActigraphNight>;

/** GET /analytics/patient/actigraph: the nights by date (YYYY-MM-DD). */
export const ActigraphAnswer = Type.Record(Str, ActigraphNight);

/** One channel of the JSON series: ts in seconds, values with NaN as null; a code the night lacks has ts and dataset only, empty. */
export const ChannelSeries = Type.Object({
  ts: Type.Array(Num),
  dataset: Type.Array(Figure),
  fs: Type.Optional(Num),
  t0: Type.Optional(Int),
  unit: Type.Optional(Str),
  label: Type.Optional(Str),
});
export type ChannelSeries = Static<typeof ChannelSeries>;

/** The night's fields beside the series. */
const SeriesNight = Type.Object({
  // The recording's stored metadata (files, device, import) with its zone: free-form stored JSON, passed on as it is.
  recording_meta: Type.Record(Str, Type.Unknown()),
  recording_start_time: Int,
  recording_stop_time: Int,
  start_time: Num,
  stop_time: Num,
  device_values: Type.Array(Num),
  device_id: Nullable(Str),
  night: Int,
});

/**
 * GET /analytics/patient/type=:type: each asked-for channel's series under its code (any other
 * property: `additionalProperties`), beside the night's fields.
 */
export const SeriesAnswer = Type.Unsafe<Static<typeof SeriesNight> & { [code: string]: ChannelSeries | undefined }>({ ...SeriesNight, additionalProperties: ChannelSeries });
export type SeriesAnswer = Static<typeof SeriesAnswer>;

/** Device or Nocturne events of one kind, matched one to one. */
const KindAgreement = Type.Object({ device: Int, nocturne: Int, matched: Int, missed: Int, extra: Int, sensitivity: Figure, ppv: Figure });

/** GET /analytics/patient/agreement: Nocturne against the night's device- or PSG-scored events. */
export const NightAgreement = Type.Object({
  night: Int,
  has_reference: Type.Boolean(),
  vendors: Type.Array(Str),
  files: Type.Array(Str),
  device: Type.Object({ by_kind: Type.Record(Str, Int), apneas: Int, hypopneas: Int, desaturations: Int, total: Int }),
  nocturne: Type.Object({ apneas: Int, hypopneas: Int }),
  matched: Int,
  missed: Int,
  extra: Int,
  sensitivity: Figure,
  ppv: Figure,
  tolerance_s: Num,
  index_basis: IndexBasis,
  /**
   * Whether Nocturne could score apneas at all (its AHI's basis): without a breathing signal
   * (during sleep) nothing is compared: sensitivity and PPV are null, the counts not shown.
   */
  nocturne_basis: AhiBasis,
  index_hours: Figure,
  device_hours: Figure,
  by_kind: Type.Object({ apneas: KindAgreement, hypopneas: KindAgreement }),
  /** device: 'device' (a CPAP scored its own events) or 'scorer' (a PSG's scoring file: a person or a lab's software scored them). */
  rules: Type.Object({ device: Enum(['device', 'scorer']), nocturne: Enum(['aasm', 'flow_only']) }),
  /** Absent for paid memberships (no AHI items, spec 2 §1). */
  nocturne_ahi: Type.Optional(Figure),
  device_ahi: Type.Optional(Figure),
  /**
   * 'device_summary': the device's own daily value; 'device_recording_time': its events over its
   * own recording time; 'scorer_sleep_time': a scoring file's events over the night's sleep (TST,
   * device_hours), as a sleep lab reports its AHI.
   */
  device_ahi_basis: Type.Optional(Enum(['device_summary', 'device_recording_time', 'scorer_sleep_time'])),
});
export type NightAgreement = Static<typeof NightAgreement>;
