/** Request schemas of the spec's night file (GET /s3/analytics/…): a night's meta and signed link, a range's links, the file. */
import { Type } from '@sinclair/typebox';
import { deviceId, id, instantMs } from './common';

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
