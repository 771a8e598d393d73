/** Request schemas of the report service (issue 17 point 1, spec 2 §7 report provider). */
import { Type, type Static } from '@sinclair/typebox';
import { REPORT_LANGUAGES, REPORT_TYPES } from './report-types';
import { Enum, Strict } from './common';

/** One date of the dialog: the night (Unix seconds) and whether it is checked (only checked ones are reported). */
const ReportDate = Strict({ numDate: Type.Integer({ minimum: 0 }), checked: Type.Boolean() });

/** POST /reports: a report of the patient's checked nights; order_id is the patient code. */
export const NewReportBody = Strict({
  patient_id: Type.Integer({ minimum: 1 }),
  order_id: Type.String({ minLength: 1, maxLength: 20 }),
  language: Enum(REPORT_LANGUAGES),
  version: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000 })),
  report_type: Enum(REPORT_TYPES),
  // Every date the dialog lists, checked or not (the route counts the checked ones against MAX_REPORT_DATES).
  dates: Type.Array(ReportDate, { maxItems: 400 }),
});
export type NewReportBody = Static<typeof NewReportBody>;

/** GET /reports: the practice's reports, or one patient's. */
export const ReportsQuery = Type.Object({ patient_id: Type.Optional(Type.Integer({ minimum: 1 })) });

/** GET /reports/:id, POST /reports/:id/retry, GET /reports/:id/file. */
export const ReportIdParams = Type.Object({ id: Type.Integer({ minimum: 1 }) });
