/** Request and answer schemas of the Patient details tab: histories, comments and check-ups (spec 2 §7). */
import { Type, type Static } from '@sinclair/typebox';
import { HISTORY_KINDS, HISTORY_VALUE_MAX } from './questionnaire-rules';
import { Enum, id, instantMs } from './common';

/** One history entry as the fetch routes answer it (times ISO, UTC). */
export const HistoryEntry = Type.Object({
  id: Type.Integer(),
  kind: Enum(HISTORY_KINDS),
  /** The instant the entry is about, ms UTC. */
  timestamp: Type.Number(),
  symptom_medication_value: Type.String(),
  created_by: Type.Integer(),
  created_by_name: Type.String(),
  updated_by: Type.Integer(),
  updated_by_name: Type.String(),
  created_date: Type.String(),
  updated_date: Type.String(),
});
export type HistoryEntry = Static<typeof HistoryEntry>;

/** ?patient_id of the history fetches. */
export const PatientIdQuery = Type.Object({ patient_id: id });

// Longer than the limit so historyProblem can say it in words (`valueTooLong`), not a schema error.
const entryValue = Type.String({ maxLength: HISTORY_VALUE_MAX * 4 });

/** POST /patient/add-history-entry. */
export const AddHistoryEntryBody = Type.Object({ patient_id: id, kind: Enum(HISTORY_KINDS), timestamp: instantMs, symptom_medication_value: entryValue });
export type AddHistoryEntryBody = Static<typeof AddHistoryEntryBody>;

/** POST /patient/update-history-entry. */
export const UpdateHistoryEntryBody = Type.Object({ patient_id: id, id, timestamp: instantMs, symptom_medication_value: entryValue });
export type UpdateHistoryEntryBody = Static<typeof UpdateHistoryEntryBody>;

/** POST /patient/delete-history-entry. */
export const DeleteHistoryEntryBody = Type.Object({ patient_id: id, id });
export type DeleteHistoryEntryBody = Static<typeof DeleteHistoryEntryBody>;

const positive = Type.Integer({ minimum: 1 });

/** POST /patient/get-comment (`id` names the patient, as in the spec). */
export const GetCommentsBody = Type.Object({ id: positive });

/** POST /patient/add-comment (`user_id` names the patient). */
export const AddCommentBody = Type.Object({ user_id: positive, comment: Type.String() });
export type AddCommentBody = Static<typeof AddCommentBody>;

/** POST /patient/update-comment: `updated_date` is the version the edit started from. */
export const UpdateCommentBody = Type.Object({ user_id: positive, id: positive, comment: Type.String(), updated_date: Type.Optional(Type.String({ maxLength: 40 })) });
export type UpdateCommentBody = Static<typeof UpdateCommentBody>;

/** POST /patient/delete-comment. */
export const DeleteCommentBody = Type.Object({ user_id: positive, id: positive });
export type DeleteCommentBody = Static<typeof DeleteCommentBody>;

/** POST /patient/get-checkup-list. */
export const PatientIdBody = Type.Object({ patient_id: positive });

/** POST /patient/add-checkup (the spec's client also sends `doctor_id`; the caller decides). */
export const AddCheckupBody = Type.Object({ patient_id: positive, doctor_id: Type.Optional(Type.Integer()), checkup_date: Type.String({ maxLength: 10 }) });
export type AddCheckupBody = Static<typeof AddCheckupBody>;

/** POST /patient/mark-as-complete. */
export const MarkCheckupBody = Type.Object({ patient_id: positive, doctor_id: Type.Optional(Type.Integer()), checkup_date_id: positive });
export type MarkCheckupBody = Static<typeof MarkCheckupBody>;

// ---- Answers ----

/** A comment as the calls answer it: its author by name, its times as ISO strings in UTC (`updated_date` is its version). */
export const PatientComment = Type.Object({
  id: Type.Integer(),
  /** The author. */
  user_id: Type.Integer(),
  author: Type.String(),
  comment: Type.String(),
  created_date: Type.String(),
  updated_date: Type.String(),
});
export type PatientComment = Static<typeof PatientComment>;

/** POST /patient/get-comment. */
export const CommentsAnswer = Type.Object({ comments: Type.Array(PatientComment) });
/** POST /patient/add-comment and /patient/update-comment: the comment as saved. */
export const CommentAnswer = Type.Object({ comment: PatientComment });

/** A check-up date (YYYY-MM-DD); 1 once marked complete. */
export const Checkup = Type.Object({ checkup_date_id: Type.Integer(), checkup_date: Type.String(), mark_as_complete_flag: Type.Integer() });
export type Checkup = Static<typeof Checkup>;

/** A patient's check-ups: upcoming (not complete) by date, past (complete) newest first. */
export const Checkups = Type.Object({ upcoming: Type.Array(Checkup), past: Type.Array(Checkup) });
export type Checkups = Static<typeof Checkups>;

/** The history fetches and writes: the patient's live entries of the kind, newest first. */
export const HistoryAnswer = Type.Object({ entries: Type.Array(HistoryEntry) });
