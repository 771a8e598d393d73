/** Request and answer schemas of the questionnaire answers on the Patient details tab (spec 2 §7). */
import { Type, type Static } from '@sinclair/typebox';
import { QUESTIONNAIRE_KINDS, type Answers } from './questionnaire-rules';
import { Enum, id, Nullable } from './common';

/** One questionnaire's answers as GET /device/qna answers them. */
export const QuestionnaireAnswers = Type.Object({
  id: Type.Integer(),
  questionnaire: Enum(QUESTIONNAIRE_KINDS),
  /** As stored: question → choice (the routes store strings only). */
  answers: Type.Record(Type.String(), Type.String()),
  answered_by: Type.Integer(),
  answered_by_name: Type.String(),
  /** ISO instant. */
  answered_at: Type.String(),
  /** The device of the allocation a screening cleared (null for a check-up, or once that allocation is gone). */
  device_id: Nullable(Type.String()),
  checkup_date_id: Nullable(Type.Integer()),
  /** YYYY-MM-DD of the check-up answered. */
  checkup_date: Nullable(Type.String()),
});
export type QuestionnaireAnswers = Static<typeof QuestionnaireAnswers>;

/** GET /device/qna: the patient, and a day (YYYY-MM-DD, checked by the route) to keep that day's answers. */
export const QuestionnairesQuery = Type.Object({ patient_id: id, date: Type.Optional(Type.String({ maxLength: 10 })) });

/** The answers as an object of strings (question → choice, and the check-up's note), or a 400 naming `answers`. */
const answers = Type.Unsafe<Answers>({ type: 'object', maxProperties: 20, additionalProperties: { type: 'string', maxLength: 2000 } });

/** POST /patient/checkup-questionnaire: the answers to a completed check-up's questionnaire. */
export const CheckupAnswersBody = Type.Object({ patient_id: id, checkup_date_id: id, answers });
export type CheckupAnswersBody = Static<typeof CheckupAnswersBody>;

/** GET /device/qna and POST /patient/checkup-questionnaire: the patient's questionnaires, newest first. */
export const QuestionnairesAnswer = Type.Object({ questionnaires: Type.Array(QuestionnaireAnswers) });
