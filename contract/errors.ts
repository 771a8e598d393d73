/**
 * Every error code the API answers with, and the parameters each one's message needs. The
 * server's ApiError takes only these codes (an unknown one fails the typecheck); the client
 * words each code from `errors.codes.<code>` in the user's language with the answer's
 * `data.params`; tests/unit/error-catalogue.test.ts checks every locale has every code with
 * the same parameters. The English `message` stays in the answer for API clients and logs.
 */
export const ERROR_PARAMS = {
  // Sign-in, session and account forms.
  invalid_credentials: [],
  invalid_login: [],
  invalid_otp: [],
  invalid_reset_token: [],
  account_pending: [],
  account_refused: [],
  account_disabled: [],
  rate_limited: ['minutes'],
  password_mismatch: [],
  repeated_secondary: [],
  // Any call.
  validation_failed: [],
  invalid_value: [],
  bad_request: [],
  body_too_large: [],
  unsupported_media_type: [],
  not_found: ['thing'],
  forbidden: [],
  client_aborted: [],
  overloaded: [],
  engine_busy: [],
  database_unavailable: [],
  server_error: [],
  // Patients, devices and their requests.
  sample_read_only: [],
  patient_id_exists: [],
  patient_changed: [],
  no_code: [],
  last_condition: [],
  device_occupied: ['patient', 'from', 'to'],
  device_booked_meanwhile: [],
  patient_already_assigned: ['device', 'from', 'to'],
  patient_booked_meanwhile: [],
  device_not_mapped: [],
  dates_out_of_range: [],
  past_date: [],
  device_not_confirmed: [],
  request_decided: [],
  signup_decided: [],
  invalid_config: [],
  no_changes: [],
  // Comments, check-ups and questionnaires.
  stale_comment: [],
  checkup_taken: [],
  checkup_not_complete: [],
  // Uploads and imports.
  malformed_upload: [],
  upload_damaged: ['file'],
  upload_too_large: ['max_mb'],
  file_too_large: ['file', 'max_mb'],
  field_too_large: ['field', 'max_mb'],
  too_many_files: ['max'],
  duplicate_file: ['file', 'night'],
  duplicate_in_upload: ['file', 'other'],
  files_not_one_night: ['files'],
  no_night_for_events: ['files', 'night'],
  timezone_mismatch: ['night', 'zone', 'picked'],
  import_partly_stored: ['stored', 'night'],
  invalid_recording_file: [],
  invalid_recording: [],
  export_impossible: [],
  series_too_large: ['points', 'max'],
  // Scoring files, annotations and categories.
  scoring_format_unknown: ['file'],
  scoring_file_unreadable: [],
  scoring_empty: ['file'],
  scoring_label_empty: [],
  scoring_outside_night: ['marks'],
  too_many_categories: ['needed', 'labels', 'max', 'has'],
  annotation_changed: ['who', 'at'],
  category_changed: ['who', 'at'],
  built_in_category: [],
  already_undone: [],
  no_breathing_signal: [],
  no_spo2_signal: [],
  // Double scoring (decision 0989).
  scoring_round_open: [],
  scoring_not_annotator: [],
  scoring_not_scorer: [],
  scoring_already_submitted: [],
  scoring_set_frozen: [],
  scoring_own_marks_only: [],
  scoring_round_closed: [],
  scoring_not_submitted: [],
  scoring_undecided: ['count'],
  scoring_unknown_item: [],
  scoring_invalid_decision: [],
  // Reports, sample patients and data links.
  not_failed: [],
  report_not_ready: [],
  night_still_recording: [],
  sample_night_exists: [],
  sample_name_taken: [],
  link_expired: [],
} as const satisfies Record<string, readonly string[]>;

/** A code the API may answer an error with. */
export type ErrorCode = keyof typeof ERROR_PARAMS;

/** Every error code, for tests and lookups. */
export const ERROR_CODES = Object.keys(ERROR_PARAMS) as ErrorCode[];

/** A parameter's value: a name, a number, or a calendar day as YYYY-MM-DD (the client formats it). */
export type ErrorParamValue = string | number;

/** The parameters code's message needs, each named. */
export type ErrorParamsOf<C extends ErrorCode> = { readonly [K in (typeof ERROR_PARAMS)[C][number]]: ErrorParamValue };

/** The codes whose message needs no parameter. */
export type PlainErrorCode = { [C in ErrorCode]: (typeof ERROR_PARAMS)[C] extends readonly [] ? C : never }[ErrorCode];

/** What `not_found` names (its `thing` parameter); the client words each from `errors.things.<thing>`. */
export const NOT_FOUND_THINGS = [
  'account',
  'annotation',
  'category',
  'channel',
  'checkup',
  'comment',
  'correction',
  'device',
  'device_allocation',
  'endpoint',
  'history_entry',
  'image',
  'notification',
  'page',
  'patient',
  'recording',
  'report',
  'request',
  'sample_patient',
  'scoring_round',
] as const;

export type NotFoundThing = (typeof NOT_FOUND_THINGS)[number];

/** True when code is one the API answers with (the client words only these). */
export function isErrorCode(code: string): code is ErrorCode {
  return Object.prototype.hasOwnProperty.call(ERROR_PARAMS, code);
}

/** The error envelope: a stable code, an English message for API clients and logs, and the data the UI words it with. */
export interface ErrorAnswer {
  code: ErrorCode;
  message: string;
  data?: {
    /** The values the code's message names (`errors.codes.<code>` interpolates them). */
    params?: Readonly<Record<string, ErrorParamValue>>;
    /** Every message of a multi-part refusal. */
    errors?: readonly string[];
    /** The refused field and the rule it broke (validation). */
    field?: string;
    rule?: string;
    path?: string;
    limit?: number;
    /** The admin's reason for a refused account. */
    reason?: string;
  };
}
