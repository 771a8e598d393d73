/**
 * The device screening questions (spec 1 §4) as a reducer: asked in order once a device
 * is chosen; changing an answer clears the later ones; deselecting the device clears all.
 */
import { SCREENING_BLOCKING, SCREENING_QUESTIONS, type ScreeningQuestion } from '../../../../contract/questionnaire-rules';

const QUESTIONS = SCREENING_QUESTIONS;
export type Question = ScreeningQuestion;
export type Answer = 'yes' | 'no';

export interface ScreeningState {
  answers: Record<Question, Answer | null>;
}

export type ScreeningAction = { type: 'answer'; question: Question; answer: Answer } | { type: 'reset' };

export const initialScreening: ScreeningState = {
  answers: { implant: null, pregnant: null, underAge: null, infoSheet: null },
};

/** The answer that blocks for each question: yes for the first three, no for the information sheet. */
const BLOCKING: Record<Question, Answer> = SCREENING_BLOCKING;

export function screeningReducer(state: ScreeningState, action: ScreeningAction): ScreeningState {
  if (action.type === 'reset') return initialScreening;
  const index = QUESTIONS.indexOf(action.question);
  // A question is only answerable once every earlier one is answered without blocking.
  if (visibleQuestions(state).indexOf(action.question) < 0) return state;
  const answers = { ...state.answers, [action.question]: action.answer };
  for (const later of QUESTIONS.slice(index + 1)) answers[later] = null;
  return { answers };
}

/** The questions shown: each earlier one answered and not blocking, up to the first open or blocking one. */
export function visibleQuestions(state: ScreeningState): Question[] {
  const shown: Question[] = [];
  for (const q of QUESTIONS) {
    shown.push(q);
    const a = state.answers[q];
    if (a === null || a === BLOCKING[q]) break;
  }
  return shown;
}

/** The question whose answer blocks allocation, or null. */
export function blockedBy(state: ScreeningState): Question | null {
  for (const q of visibleQuestions(state)) if (state.answers[q] === BLOCKING[q]) return q;
  return null;
}

/** Allocation may proceed: the first three are no and the information sheet was shared. */
export function screeningPassed(state: ScreeningState): boolean {
  const a = state.answers;
  return a.implant === 'no' && a.pregnant === 'no' && a.underAge === 'no' && a.infoSheet === 'yes';
}

/** The answers as the server keeps them (the patient's first questionnaire), or null while allocation is blocked. */
export function screeningAnswers(state: ScreeningState): Record<Question, Answer> | null {
  if (!screeningPassed(state)) return null;
  return { ...state.answers } as Record<Question, Answer>;
}
