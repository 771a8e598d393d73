/** Schemas of a patient's nights (the list's answer) and the engine's binary channel calls (data, overviews). */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, id } from './common';

/** Columns of one overview at most, px (a 4K screen's plot, twice over). */
const MAX_OVERVIEW_PIXELS = 8192;
/** Channels of one overview request at most (a night has a few dozen). */
const MAX_OVERVIEW_CHANNELS = 64;

const code = Type.String({ minLength: 1, maxLength: 80 });

/** GET /patient/available-nights. */
export const AvailableNightsQuery = Type.Object({ patient_id: id });

/** Longest tail one channel-data call may ask for, ms (a day: longer is the whole channel). */
const MAX_TAIL_MS = 86_400_000;

/**
 * GET /analytics/patient/channel-data: one channel of the night, by code; with `tail_ms`, only
 * its samples of the last tail_ms as stored (a live tile's strip: a minute, not the night).
 */
export const ChannelDataQuery = Type.Object({
  patient_id: id,
  recording_id: id,
  code,
  tail_ms: Type.Optional(Type.Integer({ minimum: 1, maximum: MAX_TAIL_MS })),
  /** The channel's version as the night list gave it: kept by the browser's cache for a day when it is the stored one (decision 1019). */
  v: Type.Optional(Type.String({ maxLength: 40 })),
});

/** GET /analytics/patient/channel-overview: `code` once per channel, the window [t0, t1) in ms and its columns. */
export const ChannelOverviewQuery = Type.Object({
  patient_id: id,
  recording_id: id,
  code: Type.Array(code, { minItems: 1, maxItems: MAX_OVERVIEW_CHANNELS }),
  /**
   * The channels' versions as the night list gave them, once per `code` in its order: the
   * answer is kept by the browser's cache for a day when every one is the stored one (decision 1019).
   */
  v: Type.Optional(Type.Array(Type.String({ maxLength: 40 }), { maxItems: MAX_OVERVIEW_CHANNELS })),
  t0: Type.Number(),
  t1: Type.Number(),
  pixels: Type.Integer({ minimum: 1, maximum: MAX_OVERVIEW_PIXELS }),
});

const Str = Type.String();
const Num = Type.Number();
const Int = Type.Integer();

/** One stored channel of a night, as the night list gives it. */
export const NightChannel = Type.Object({
  code: Str,
  label: Str,
  unit: Str,
  /** Samples per second (fractional for a slow channel). */
  fs: Num,
  count: Int,
  /** Valid samples (missing ones not counted). */
  valid: Int,
  /**
   * What the channel's stored samples are at: another value once they changed (a later
   * session joined onto it, a live night's new samples). Ask channel-data with it as `v`;
   * a browser's caches key on it (decision 1019).
   */
  version: Str,
});
export type NightChannel = Static<typeof NightChannel>;

/** One session of a night: what its files cover together (ms UTC). */
export const NightSession = Type.Object({ start: Num, end: Num, duration_ms: Num, files: Type.Array(Str) });
export type NightSession = Static<typeof NightSession>;

const nightFields = {
  recording_id: Int,
  /** Night key, Unix seconds (00:00 UTC of the night's local date). */
  night: Int,
  recording_date: Str,
  device_id: Nullable(Str),
  timezone: Str,
  /** ms UTC. */
  recording_start_time: Num,
  recording_stop_time: Num,
  source: Str,
  /** A device session still streaming (its end grows with every frame). */
  live: Type.Boolean(),
  /** The night's sessions (a CPAP night where the mask came off: one per stretch of files). */
  sessions: Type.Array(NightSession),
  channels: Type.Array(NightChannel),
};

/** A night of the patient's list (GET /patient/available-nights). */
export const NightInfo = Type.Object({
  ...nightFields,
  /** Other recordings with this night's key (a device that streamed beside an imported night): shown from this night, not as nights of their own. */
  others: Type.Optional(Type.Array(Type.Object(nightFields))),
});
export type NightInfo = Static<typeof NightInfo>;

/** GET /patient/available-nights. */
export const AvailableNightsAnswer = Type.Object({ nights: Type.Array(NightInfo) });
export type AvailableNightsAnswer = Static<typeof AvailableNightsAnswer>;
