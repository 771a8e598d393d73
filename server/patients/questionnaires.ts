import { ApiError } from '../errors';
import { screeningProblem, type Answers } from '../../contract/questionnaire-rules';

/** The questionnaires' validation messages. */
export const QUESTIONNAIRE_MESSAGES = {
  screening: 'The screening answers must be no implanted device, not pregnant, not under age and the information sheet shared.',
  checkup: 'Answer every check-up question with one of its choices (the note holds at most 1000 characters).',
  notComplete: 'Mark the check-up as complete before answering its questionnaire.',
  date: 'The date must be a day (YYYY-MM-DD).',
} as const;

/** 400 unless the screening answers clear allocation (spec 1 §4). */
export function checkScreening(answers: Answers): Answers {
  const problem = screeningProblem(answers);
  if (problem) throw new ApiError(400, 'validation_failed', QUESTIONNAIRE_MESSAGES.screening, { fieldRule: { field: `screening_answers.${problem}`, rule: 'screening' } });
  return answers;
}
