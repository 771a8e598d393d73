/** Request and answer schemas of a night's manual corrections (issue 17 point 4, spec 2 Actions "manual corrections"). */
import { Type, type Static } from '@sinclair/typebox';
import { Enum, Nullable, Strict } from './common';

/** Latest time a correction may name (ms UTC; a bigint column, JavaScript's exact integers). */
const MAX_MS = Number.MAX_SAFE_INTEGER;
/** Longest reason, characters. */
const REASON_MAX = 500;

const ms = Type.Integer({ minimum: 0, maximum: MAX_MS });

/** The night: the patient, the night's key (Unix seconds) or date, and the device when the night has several. */
const nightFields = {
  patient_id: Type.Integer({ minimum: 1 }),
  night: Type.Optional(Type.Integer({ minimum: 0 })),
  recording_date: Type.Optional(Type.String({ maxLength: 20 })),
  device_id: Type.Optional(Type.String({ maxLength: 40 })),
};

/** A bed-times correction (bed-in to bed-out) or a span of the night to leave out. */
export const CorrectionKind = Enum(['bed_times', 'invalid_span']);
export type CorrectionKind = Static<typeof CorrectionKind>;

/** GET /analytics/patient/corrections: the night whose window and audit trail are read. */
export const CorrectionsQuery = Strict(nightFields);
export type CorrectionsQuery = Static<typeof CorrectionsQuery>;

/** POST /analytics/patient/corrections. */
export const AddCorrectionBody = Strict({
  ...nightFields,
  kind: CorrectionKind,
  start_ms: ms,
  end_ms: ms,
  reason: Type.String({ minLength: 1, maxLength: REASON_MAX }),
});
export type AddCorrectionBody = Static<typeof AddCorrectionBody>;

/** POST /analytics/patient/corrections/undo: the correction's id. */
export const UndoCorrectionBody = Strict({ ...nightFields, id: Type.Integer({ minimum: 1 }) });
export type UndoCorrectionBody = Static<typeof UndoCorrectionBody>;

/** A correction of the night's audit trail: who made it and why, and who undid it when. */
export const Correction = Type.Object({
  id: Type.Integer(),
  recording_id: Type.Integer(),
  kind: CorrectionKind,
  start_ms: Type.Integer(),
  end_ms: Type.Integer(),
  reason: Type.String(),
  created_by: Type.Integer(),
  created_by_name: Type.String(),
  created_at: Type.String(),
  undone_by: Nullable(Type.Integer()),
  undone_by_name: Nullable(Type.String()),
  undone_at: Nullable(Type.String()),
  /** In force, replaced by a newer bed-times correction, or undone. */
  status: Enum(['active', 'superseded', 'undone']),
});
export type Correction = Static<typeof Correction>;

/** The night's corrections as the night view reads them: the window in force (the recording when none) and the audit trail, oldest first. */
export const NightCorrections = Type.Object({
  night: Type.Integer(),
  recording_id: Type.Integer(),
  recording_start_time: Type.Integer(),
  recording_stop_time: Type.Integer(),
  /** The caller may make and undo corrections (not an annotator or an admin). */
  can_correct: Type.Boolean(),
  corrected: Type.Boolean(),
  window: Type.Object({
    bed_in_time: Type.Integer(),
    bed_out_time: Type.Integer(),
    bed_times_corrected: Type.Boolean(),
    /** Where bed-in and bed-out come from: a physician's correction, the files' "Lights off" / "Lights on" markers (decision 1023), or the recording's start and stop. */
    bed_times_from: Enum(['correction', 'lights', 'recording']),
    invalid_spans: Type.Array(Type.Object({ start_ms: Type.Integer(), end_ms: Type.Integer() })),
  }),
  corrections: Type.Array(Correction),
});
export type NightCorrections = Static<typeof NightCorrections>;
