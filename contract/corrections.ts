/** Request schemas of a night's manual corrections (issue 17 point 4, spec 2 Actions "manual corrections"). */
import { Type, type Static } from '@sinclair/typebox';
import { Enum, Strict } from './common';

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
