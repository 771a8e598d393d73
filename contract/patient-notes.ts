/** Request schemas of the Patient details tab: histories, comments and check-ups (spec 2 §7). */
import { Type, type Static } from '@sinclair/typebox';
import { HISTORY_KINDS, HISTORY_VALUE_MAX } from './questionnaire-rules';
import { Enum, id, instantMs } from './common';

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

/** A comment as the calls answer it: its author by name, its times as ISO strings in UTC. */
export interface PatientComment {
  id: number;
  user_id: number;
  author: string;
  comment: string;
  created_date: string;
  updated_date: string;
}
