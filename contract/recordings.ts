/** Request schemas of a patient's nights and the engine's binary channel calls (data, overviews). */
import { Type } from '@sinclair/typebox';
import { id } from './common';

/** Columns of one overview at most, px (a 4K screen's plot, twice over). */
const MAX_OVERVIEW_PIXELS = 8192;
/** Channels of one overview request at most (a night has a few dozen). */
const MAX_OVERVIEW_CHANNELS = 64;

const code = Type.String({ minLength: 1, maxLength: 80 });

/** GET /patient/available-nights. */
export const AvailableNightsQuery = Type.Object({ patient_id: id });

/** GET /analytics/patient/channel-data: one channel of the night, by code. */
export const ChannelDataQuery = Type.Object({ patient_id: id, recording_id: id, code });

/** GET /analytics/patient/channel-overview: `code` once per channel, the window [t0, t1) in ms and its columns. */
export const ChannelOverviewQuery = Type.Object({
  patient_id: id,
  recording_id: id,
  code: Type.Array(code, { minItems: 1, maxItems: MAX_OVERVIEW_CHANNELS }),
  t0: Type.Number(),
  t1: Type.Number(),
  pixels: Type.Integer({ minimum: 1, maximum: MAX_OVERVIEW_PIXELS }),
});
