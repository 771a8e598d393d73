import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/messages';
import { useFormat } from '../../format';
import { Alert } from '../../ui/Alert';
import { CHECKUP_NOTE_MAX, CHECKUP_QUESTIONS, checkupProblem, SCREENING_QUESTIONS, type Answers, type CheckupQuestion } from '../../../contract/questionnaire-rules';
import type { QuestionnaireAnswers } from '../../../contract/questionnaires';
import { useCheckups } from './api';
import { useCheckupAnswers, useQuestionnaires } from './historyApi';

const CHECKUP_ORDER = Object.keys(CHECKUP_QUESTIONS) as CheckupQuestion[];
const CHOICES = ['good', 'fair', 'poor', 'yes', 'no'] as const;
/** A stored answer as one of the choices the catalogue names ("none" for anything else). */
const choiceOf = (answer: string | undefined) => CHOICES.find((c) => c === answer) ?? 'none';

/**
 * Questionnaire answers on the Patient details tab (spec 2 §2): the device screening
 * answered in the add-patient wizard (or when a device was deployed later) and the check-up
 * questionnaires, newest first; the practice answers a completed check-up's questionnaire
 * here. Annotators only read.
 */
export function QuestionnaireCard({ patientId, zone, readOnly }: { patientId: number; zone: string; readOnly: boolean }) {
  const { t } = useTranslation();
  const list = useQuestionnaires(patientId);
  const [answering, setAnswering] = useState(false);
  const all = list.data ?? [];
  return (
    <section className="details-card" data-testid="questionnaires">
      <header className="details-card-head">
        <h3>{t('details.questionnaires.title')}</h3>
        {!readOnly && !answering && (
          <button type="button" className="button button-small" onClick={() => setAnswering(true)} data-testid="checkup-answer-open">
            {t('details.questionnaires.answer')}
          </button>
        )}
      </header>
      {answering && <CheckupForm patientId={patientId} onDone={() => setAnswering(false)} />}
      {list.isError && <Alert tone="error">{errorText(t, list.error)}</Alert>}
      {list.data && all.length === 0 && <p className="muted" data-testid="questionnaires-empty">{t('details.questionnaires.empty')}</p>}
      {all.map((q) => <Answered key={q.id} q={q} zone={zone} />)}
    </section>
  );
}

function Answered({ q, zone }: { q: QuestionnaireAnswers; zone: string }) {
  const { t } = useTranslation();
  const f = useFormat();
  const title = q.questionnaire === 'screening'
    ? (q.device_id ? t('details.questionnaires.screeningDevice', { device: q.device_id }) : t('details.questionnaires.screening'))
    : t('details.questionnaires.checkup', { date: q.checkup_date ? f.isoDay(q.checkup_date) : '–' });
  const rows: Array<[string, string]> = q.questionnaire === 'screening'
    ? SCREENING_QUESTIONS.map((k) => [t(`patientAdmin.screening.${k}`), t(`patientAdmin.screening.${q.answers[k] === 'yes' ? 'yes' : 'no'}`)])
    : [
        ...CHECKUP_ORDER.map((k): [string, string] => [t(`details.questionnaires.questions.${k}`), t(`details.questionnaires.choices.${choiceOf(q.answers[k])}`)]),
        ...(q.answers.note ? [[t('details.questionnaires.questions.note'), q.answers.note] as [string, string]] : []),
      ];
  return (
    <div className="questionnaire" data-testid={`questionnaire-${q.questionnaire}`}>
      <h4>{title}</h4>
      <p className="muted">{t('details.questionnaires.answeredBy', { name: q.answered_by_name, when: f.dateTime(Date.parse(q.answered_at), zone) })}</p>
      <table className="questionnaire-answers">
        <tbody>
          {rows.map(([question, answer]) => (
            <tr key={question}>
              <th scope="row">{question}</th>
              <td>{answer}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

function CheckupForm({ patientId, onDone }: { patientId: number; onDone: () => void }) {
  const { t } = useTranslation();
  const f = useFormat();
  const checkups = useCheckups(patientId, true);
  const save = useCheckupAnswers(patientId);
  const completed = checkups.data?.past ?? [];
  const [checkupId, setCheckupId] = useState<number | null>(null);
  const [answers, setAnswers] = useState<Answers>({});
  const [problem, setProblem] = useState(false);
  const chosen = checkupId ?? completed[0]?.checkup_date_id ?? null;
  const submit = () => {
    const body: Answers = { ...answers };
    if (!body.note?.trim()) delete body.note;
    if (chosen === null || checkupProblem(body)) return setProblem(true);
    setProblem(false);
    save.mutate({ checkupId: chosen, answers: body }, { onSuccess: onDone });
  };
  if (checkups.data && completed.length === 0) {
    return (
      <div className="checkup-form" data-testid="checkup-form">
        <p className="muted" data-testid="checkup-form-none">{t('details.questionnaires.noCompleted')}</p>
        <button type="button" className="button button-small" onClick={onDone}>{t('common.close')}</button>
      </div>
    );
  }
  return (
    <form
      className="checkup-form"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      data-testid="checkup-form"
    >
      <label>
        {t('details.questionnaires.checkupPick')}
        <select value={chosen ?? ''} onChange={(e) => setCheckupId(Number(e.target.value))} data-testid="checkup-form-pick">
          {completed.map((c) => <option key={c.checkup_date_id} value={c.checkup_date_id}>{f.isoDay(c.checkup_date)}</option>)}
        </select>
      </label>
      {CHECKUP_ORDER.map((q) => (
        <fieldset key={q} className="checkup-question" data-testid={`checkup-q-${q}`}>
          <legend>{t(`details.questionnaires.questions.${q}`)}</legend>
          <div className="segmented" role="radiogroup">
            {CHECKUP_QUESTIONS[q].map((choice) => (
              <label key={choice} className={answers[q] === choice ? 'is-on' : undefined}>
                <input type="radio" name={`checkup-${q}`} checked={answers[q] === choice} onChange={() => setAnswers({ ...answers, [q]: choice })} data-testid={`checkup-q-${q}-${choice}`} />
                {t(`details.questionnaires.choices.${choice}`)}
              </label>
            ))}
          </div>
        </fieldset>
      ))}
      <label>
        {t('details.questionnaires.questions.note')}
        <textarea rows={2} maxLength={CHECKUP_NOTE_MAX} value={answers.note ?? ''} onChange={(e) => setAnswers({ ...answers, note: e.target.value })} data-testid="checkup-q-note" />
      </label>
      {problem && <p className="error-text" role="alert">{t('details.questionnaires.incomplete')}</p>}
      {save.isError && <Alert tone="error">{errorText(t, save.error)}</Alert>}
      <div className="checkup-form-actions">
        <button type="button" className="button button-small" onClick={onDone}>{t('common.cancel')}</button>
        <button type="submit" className="button button-small button-primary" disabled={save.isPending} data-testid="checkup-form-save">{t('details.questionnaires.save')}</button>
      </div>
    </form>
  );
}
