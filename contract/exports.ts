/** Request schemas of the downloads: a night as EDF+, its annotations as CSV, a channel's data points as CSV. */
import { Type } from '@sinclair/typebox';
import { id } from './common';

/** GET /analytics/patient/export-edf and /annotations-csv: the patient's night. */
export const NightFileQuery = Type.Object({ patient_id: id, recording_id: id });

/** GET /analytics/patient/data-points: the night and the channel's code. */
export const DataPointsQuery = Type.Object({ patient_id: id, recording_id: id, code: Type.String({ minLength: 1, maxLength: 80 }) });
