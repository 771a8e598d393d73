/** Request and answer schemas of the questionnaire answers on the Patient details tab (spec 2 §7). */
import { Type, type Static } from '@sinclair/typebox';
import { QuestionnaireAnswers, type Answers } from './questionnaire-rules';
import { id } from './common';

/** GET /device/qna: the patient, and a day (YYYY-MM-DD, checked by the route) to keep that day's answers. */
export const QuestionnairesQuery = Type.Object({ patient_id: id, date: Type.Optional(Type.String({ maxLength: 10 })) });

/** The answers as an object of strings (question → choice, and the check-up's note), or a 400 naming `answers`. */
const answers = Type.Unsafe<Answers>({ type: 'object', maxProperties: 20, additionalProperties: { type: 'string', maxLength: 2000 } });

/** POST /patient/checkup-questionnaire: the answers to a completed check-up's questionnaire. */
export const CheckupAnswersBody = Type.Object({ patient_id: id, checkup_date_id: id, answers });
export type CheckupAnswersBody = Static<typeof CheckupAnswersBody>;

/** GET /device/qna and POST /patient/checkup-questionnaire: the patient's questionnaires, newest first. */
export const QuestionnairesAnswer = Type.Object({ questionnaires: Type.Array(QuestionnaireAnswers) });
