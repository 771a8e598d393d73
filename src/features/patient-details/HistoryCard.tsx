import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '../../api/messages';
import { useFormat } from '../../format';
import { Alert } from '../../ui/Alert';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { HISTORY_KINDS, HISTORY_VALUE_MAX, historyProblem, type HistoryKind } from '../../../contract/questionnaire-rules';
import type { HistoryEntry } from '../../../contract/patient-notes';
import { useHistory, useHistoryChange } from './historyApi';
import { fromLocalInput, toLocalInput } from './historyTime';

/** Titles and placeholders per kind (literal keys, so the catalogue test sees them). */
const KIND_TEXT = {
  symptom: { title: 'details.history.lists.symptom', option: 'details.history.kinds.symptom', placeholder: 'details.history.placeholders.symptom' },
  medication: { title: 'details.history.lists.medication', option: 'details.history.kinds.medication', placeholder: 'details.history.placeholders.medication' },
  diet_plan: { title: 'details.history.lists.diet_plan', option: 'details.history.kinds.diet_plan', placeholder: 'details.history.placeholders.diet_plan' },
} as const;

const PROBLEM_TEXT = {
  value: 'details.history.problems.value',
  valueTooLong: 'details.history.problems.valueTooLong',
  timestamp: 'details.history.problems.timestamp',
} as const;

/** What is wrong with a typed entry in the user's words, or null. */
function useProblem() {
  const { t } = useTranslation();
  return (when: string, value: string, zone: string): string | null => {
    const ms = fromLocalInput(when, zone);
    const problem = historyProblem(ms ?? Number.NaN, value, Date.now());
    return problem ? t(PROBLEM_TEXT[problem], { max: HISTORY_VALUE_MAX }) : null;
  };
}

/**
 * Histories of symptoms, medication and diet plan on the Patient details tab (spec 2 §2,
 * §3): one form adds an entry of any kind at a time in the patient's zone; each kind's list
 * shows its entries newest first with who wrote them, and lets the practice edit or remove
 * one. Annotators only read.
 */
export function HistoryCard({ patientId, zone, readOnly }: { patientId: number; zone: string; readOnly: boolean }) {
  const { t } = useTranslation();
  return (
    <section className="details-card" data-testid="histories">
      <h3>{t('details.history.title')}</h3>
      <p className="muted">{t('details.history.zone', { zone })}</p>
      {!readOnly && <AddEntry patientId={patientId} zone={zone} />}
      {HISTORY_KINDS.map((kind) => <EntryList key={kind} patientId={patientId} kind={kind} zone={zone} readOnly={readOnly} />)}
    </section>
  );
}

function AddEntry({ patientId, zone }: { patientId: number; zone: string }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<HistoryKind>('symptom');
  const [when, setWhen] = useState(() => toLocalInput(Date.now(), zone));
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const check = useProblem();
  const change = useHistoryChange(patientId, kind);
  const submit = () => {
    const found = check(when, value, zone);
    setProblem(found);
    if (found) return;
    change.mutate({ op: 'add', timestamp: fromLocalInput(when, zone)!, value: value.trim() }, { onSuccess: () => setValue('') });
  };
  return (
    <form
      className="history-add"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      data-testid="history-add"
    >
      <label>
        {t('details.history.kind')}
        <select value={kind} onChange={(e) => setKind(e.target.value as HistoryKind)} data-testid="history-kind">
          {HISTORY_KINDS.map((k) => <option key={k} value={k}>{t(KIND_TEXT[k].option)}</option>)}
        </select>
      </label>
      <label>
        {t('details.history.when')}
        <input type="datetime-local" value={when} onChange={(e) => setWhen(e.target.value)} data-testid="history-when" />
      </label>
      <label className="history-value">
        {t('details.history.value')}
        <input
          type="text"
          value={value}
          maxLength={HISTORY_VALUE_MAX}
          placeholder={t(KIND_TEXT[kind].placeholder)}
          onChange={(e) => setValue(e.target.value)}
          data-testid="history-value"
        />
      </label>
      <button type="submit" className="button button-small" disabled={change.isPending} data-testid="history-submit">{t('details.history.add')}</button>
      {problem && <p className="error-text" role="alert" data-testid="history-problem">{problem}</p>}
      {change.isError && <Alert tone="error" testId="history-error">{errorText(t, change.error)}</Alert>}
    </form>
  );
}

function EntryList({ patientId, kind, zone, readOnly }: { patientId: number; kind: HistoryKind; zone: string; readOnly: boolean }) {
  const { t } = useTranslation();
  const f = useFormat();
  const list = useHistory(patientId, kind);
  const change = useHistoryChange(patientId, kind);
  const check = useProblem();
  const [editing, setEditing] = useState<{ id: number; when: string; value: string; problem: string | null } | null>(null);
  const [removing, setRemoving] = useState<HistoryEntry | null>(null);
  const save = () => {
    if (!editing) return;
    const problem = check(editing.when, editing.value, zone);
    if (problem) return setEditing({ ...editing, problem });
    change.mutate({ op: 'update', id: editing.id, timestamp: fromLocalInput(editing.when, zone)!, value: editing.value.trim() }, { onSuccess: () => setEditing(null) });
  };
  const entries = list.data ?? [];
  return (
    <div className="history-list" data-testid={`history-${kind}`}>
      <h4>{t(KIND_TEXT[kind].title)}</h4>
      {list.isError && <Alert tone="error">{errorText(t, list.error)}</Alert>}
      {list.data && entries.length === 0 && <p className="muted" data-testid={`history-${kind}-empty`}>{t('details.history.empty')}</p>}
      <ul>
        {entries.map((e) => (
          <li key={e.id} className="history-entry" data-testid="history-entry">
            {editing?.id === e.id ? (
              <div className="history-edit">
                <input type="datetime-local" value={editing.when} onChange={(ev) => setEditing({ ...editing, when: ev.target.value })} aria-label={t('details.history.when')} data-testid="history-edit-when" />
                <input type="text" value={editing.value} maxLength={HISTORY_VALUE_MAX} onChange={(ev) => setEditing({ ...editing, value: ev.target.value })} aria-label={t('details.history.value')} data-testid="history-edit-value" />
                <button type="button" className="button button-small" onClick={save} disabled={change.isPending} data-testid="history-save">{t('details.history.save')}</button>
                <button type="button" className="button button-small" onClick={() => setEditing(null)}>{t('common.cancel')}</button>
                {editing.problem && <p className="error-text" role="alert">{editing.problem}</p>}
              </div>
            ) : (
              <>
                <span className="history-when">{f.dateTime(e.timestamp, zone)}</span>
                <span className="history-text" data-testid="history-text">{e.symptom_medication_value}</span>
                <span className="muted history-audit">
                  {t('details.history.addedBy', { name: e.created_by_name, when: f.dateTime(Date.parse(e.created_date), zone) })}
                  {e.updated_date !== e.created_date && ` · ${t('details.history.editedBy', { name: e.updated_by_name, when: f.dateTime(Date.parse(e.updated_date), zone) })}`}
                </span>
                {!readOnly && (
                  <span className="history-actions">
                    <button type="button" className="link-button" onClick={() => setEditing({ id: e.id, when: toLocalInput(e.timestamp, zone), value: e.symptom_medication_value, problem: null })} data-testid="history-edit">
                      {t('details.history.edit')}
                    </button>
                    <button type="button" className="link-button" onClick={() => setRemoving(e)} data-testid="history-remove">{t('details.history.remove')}</button>
                  </span>
                )}
              </>
            )}
          </li>
        ))}
      </ul>
      {change.isError && <Alert tone="error">{errorText(t, change.error)}</Alert>}
      <ConfirmDialog
        open={removing !== null}
        message={t('details.history.confirmRemove')}
        testId={`history-${kind}-confirm`}
        onCancel={() => setRemoving(null)}
        onConfirm={() => {
          if (removing) change.mutate({ op: 'delete', id: removing.id });
          setRemoving(null);
        }}
      />
    </div>
  );
}
