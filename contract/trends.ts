/** Request schemas of the trend view's call (spec 2 §7 "GET /analytics/patient-trendview"). */
import { Type } from '@sinclair/typebox';

/** The channel codes, comma-separated, as the path names them (the route checks each code). */
export const TrendParams = Type.Object({ type: Type.String({ minLength: 1, maxLength: 200 }) });

/** The patient and the range: seconds or ms since 1970 (09:00 of the first and last day). */
export const TrendQuery = Type.Object({ patient_id: Type.Integer({ minimum: 1 }), device_start_time: Type.Number(), device_stop_time: Type.Number() });
