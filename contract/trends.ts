/** Request and answer schemas of the trend view's call (spec 2 §7 "GET /analytics/patient-trendview"). */
import { Type, type Static } from '@sinclair/typebox';
import { Enum, Nullable } from './common';

/** The channel codes, comma-separated, as the path names them (the route checks each code). */
export const TrendParams = Type.Object({ type: Type.String({ minLength: 1, maxLength: 200 }) });

/** The patient and the range: seconds or ms since 1970 (09:00 of the first and last day). */
export const TrendQuery = Type.Object({ patient_id: Type.Integer({ minimum: 1 }), device_start_time: Type.Number(), device_stop_time: Type.Number() });

const Figure = Nullable(Type.Number());

/** Every point's night: its date (YYYY-MM-DD), its key (Unix seconds) and its recording. */
const night = { date: Type.String(), night: Type.Integer(), recording_id: Type.Integer() };

/** A night of a signal channel: the engine's whole-night statistics, 2 decimals (a night without a valid sample has no point). */
export const TrendStatPoint = Type.Object({
  ...night,
  min: Figure,
  max: Figure,
  mean: Figure,
  lowerPercentile: Figure,
  medianPercentile: Figure,
  upperPercentile: Figure,
  count: Type.Integer(),
  missing_fraction: Figure,
});

/** A night of an index channel (RII, AHI, ODI, SE, SQ): its value from the detectors (or a double scoring's consensus). */
export const TrendValuePoint = Type.Object({
  ...night,
  value: Type.Number(),
  /** AHI, ODI (and RII over TST): per hour of sleep, or of monitoring without sleep staging (REI). */
  index_basis: Type.Optional(Enum(['sleep', 'monitoring'])),
  /** A double-scored night's AHI: its consensus's. */
  events_source: Type.Optional(Type.Literal('consensus')),
});

/** A night whose AHI or RII has no basis (no breathing signal, or none during its sleep): "–" with the reason, never 0. */
export const TrendNoBasisPoint = Type.Object({ ...night, value: Type.Null(), ahi_basis: Enum(['no_breathing_signal', 'no_breathing_signal_in_sleep']) });
export type TrendNoBasisPoint = Static<typeof TrendNoBasisPoint>;

/** A day of DEVICE_AHI: the device's own AHI from its daily summary, with its usage. */
export const TrendDevicePoint = Type.Object({
  date: Type.String(),
  night: Type.Integer(),
  value: Type.Number(),
  source: Type.Literal('device_summary'),
  usage_min: Figure,
});

export const TrendAnswerPoint = Type.Union([TrendStatPoint, TrendValuePoint, TrendNoBasisPoint, TrendDevicePoint]);
export type TrendAnswerPoint = Static<typeof TrendAnswerPoint>;

/** GET /analytics/patient-trendview/type=:type: the points of each asked-for code, by code, one per night of the range. */
export const TrendAnswer = Type.Record(Type.String(), Type.Array(TrendAnswerPoint));
export type TrendAnswer = Static<typeof TrendAnswer>;
