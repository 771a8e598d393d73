import type { Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { blockedBy, screeningPassed, visibleQuestions, type ScreeningAction, type ScreeningState } from '../logic/screening';

/** The screening questions in order, with the blocking warning of the answer that stops allocation. */
export function Screening({ state, dispatch }: { state: ScreeningState; dispatch: Dispatch<ScreeningAction> }) {
  const { t } = useTranslation();
  const blocked = blockedBy(state);
  return (
    <fieldset className="screening" data-testid="screening">
      <legend>{t('patientAdmin.screening.title')}</legend>
      {visibleQuestions(state).map((q) => (
        <div key={q} className="screening-question" data-testid={`screening-${q}`}>
          <p>{t(`patientAdmin.screening.${q}`)}</p>
          <div className="segmented" role="radiogroup" aria-label={t(`patientAdmin.screening.${q}`)}>
            {(['yes', 'no'] as const).map((a) => (
              <label key={a} className={state.answers[q] === a ? 'is-on' : undefined}>
                <input type="radio" name={`screening-${q}`} checked={state.answers[q] === a} onChange={() => dispatch({ type: 'answer', question: q, answer: a })} data-testid={`screening-${q}-${a}`} />
                {t(`patientAdmin.screening.${a}`)}
              </label>
            ))}
          </div>
        </div>
      ))}
      {blocked && (
        <p className="alert alert-error" role="alert" data-testid="screening-blocked">
          {t(`patientAdmin.screening.${blocked}Block`)}
        </p>
      )}
      {screeningPassed(state) && (
        <p className="alert alert-success" data-testid="screening-passed">
          {t('patientAdmin.screening.passed')}
        </p>
      )}
    </fieldset>
  );
}
