/** Request and answer schemas of the report service (issue 17 point 1, spec 2 §7 report provider). */
import { Type, type Static } from '@sinclair/typebox';
import { REPORT_LANGUAGES, REPORT_STEPS, REPORT_TYPES } from './report-types';
import { Enum, Nullable, StringEnum, Strict } from './common';

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

const Str = Type.String();
const Int = Type.Integer();

/** A report job as the client follows it (GET /reports/:id, and the list, the request and the retry). */
export const ReportJob = Type.Object({
  id: Int,
  patient_id: Int,
  patient_code: Str,
  patient_name: Str,
  /** The patient code, as the request named it (spec 2 §7). */
  order_id: Str,
  report_type: StringEnum(REPORT_TYPES),
  view: StringEnum(['single', 'trend']),
  language: StringEnum(REPORT_LANGUAGES),
  version: Int,
  /** The nights, YYYY-MM-DD. */
  dates: Type.Array(Str),
  status: StringEnum(['queued', 'running', 'done', 'failed']),
  /** The step being worked on while running; null otherwise. */
  step: Nullable(StringEnum(REPORT_STEPS)),
  steps: Type.Array(StringEnum(REPORT_STEPS)),
  /** 0 to 1 (a fraction of the steps done). */
  progress: Type.Number(),
  error: Nullable(Str),
  attempts: Int,
  file_name: Nullable(Str),
  file_bytes: Nullable(Int),
  pages: Nullable(Int),
  created_at: Str,
  finished_at: Nullable(Str),
});
export type ReportJob = Static<typeof ReportJob>;
