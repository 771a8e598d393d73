/** Schemas of the spec's night file (GET /s3/analytics/…): a night's meta and signed link, a range's links, the file. */
import { Type, type Static } from '@sinclair/typebox';
import { Nullable, deviceId, id, instantMs } from './common';

/** GET /s3/analytics/patient: the night of `recording_date` (YYYYMMDD), of one device when the patient had several. */
export const NightMetaQuery = Type.Object({ recording_date: Type.String({ minLength: 8, maxLength: 20 }), patient_id: id, device_id: Type.Optional(deviceId) });

/** GET /s3/analytics/patient/range: the nights from `start_date` to `end_date` (YYYYMMDD). */
export const NightRangeQuery = Type.Object({
  start_date: Type.String({ minLength: 8, maxLength: 10 }),
  end_date: Type.String({ minLength: 8, maxLength: 10 }),
  patient_id: id,
  device_id: Type.Optional(deviceId),
});

/** GET /s3/analytics/night-file/:id (the path names the recording, so `id` is always there). */
export const NightFileParams = Type.Object({ id });

/** The signed link's expiry (ms since 1970) and signature. */
export const SignedLinkQuery = Type.Object({ exp: instantMs, sig: Type.String({ maxLength: 100 }) });

/** GET /s3/analytics/patient: the night's meta and the signed link to its file. */
export const NightMetaAnswer = Type.Object({
  meta: Type.Object({
    recording_id: Type.Integer(),
    /** Night key, Unix seconds. */
    night: Type.Integer(),
    device_id: Nullable(Type.String()),
    timezone: Type.String(),
    /** ms UTC. */
    recording_start_time: Type.Number(),
    recording_stop_time: Type.Number(),
    /** The codes the file holds (channels of at most 1 Hz). */
    channels: Type.Array(Type.String()),
  }),
  /** The file's path under the API, signed and expiring. */
  link: Type.String(),
});
export type NightMetaAnswer = Static<typeof NightMetaAnswer>;

/** GET /s3/analytics/patient/range: the days with a night, each with its signed link. */
export const NightRangeAnswer = Type.Object({
  days: Type.Array(Type.Object({ recording_date: Type.String(), night: Type.Integer(), recording_id: Type.Integer(), link: Type.String() })),
});
export type NightRangeAnswer = Static<typeof NightRangeAnswer>;
