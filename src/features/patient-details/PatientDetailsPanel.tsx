import { DateTime } from 'luxon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { errorText } from '../../api/messages';
import { session } from '../../state/session';
import { Alert } from '../../ui/Alert';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import type { PatientInfo } from '../night/types';
import {
  useCheckupChange, useCheckups, useCommentChange, useComments, useConditionChange, useDiseases, type PatientComment,
} from './api';
import { HistoryCard } from './HistoryCard';
import { AccessLog } from './AccessLog';
import { QuestionnaireCard } from './QuestionnaireCard';
import '../../styles/patient-details.css';
import { formatDateTime, formatIsoDay } from '../../format';
import { conditionName } from '../../builtInNames';

/** Comment page sizes (spec 2 §5); the first is the default. */
const PAGE_SIZES = [10, 20, 30, 40, 50, 100] as const;
/** Longest comment (spec 2 §9). */
const COMMENT_MAX = 10_240;
/** The "None" condition (spec 2 §3). */
const NONE_ID = 1;

/**
 * The Patient details tab (spec 2 §2): conditions with search, questionnaire answers, the
 * histories of symptoms, medication and diet plan, check-ups (hidden until shown) with
 * upcoming and past lists, and comments with pagination. Annotators read but do not change
 * any of them (spec 2 §6).
 */
export function PatientDetailsPanel({ patient, readOnly, zone }: { patient: PatientInfo; readOnly: boolean; zone?: string | null }) {
  // Histories and answers are dated in the patient's zone: their nights', else their device booking's.
  const patientZone = zone ?? patient.timezone ?? Intl.DateTimeFormat().resolvedOptions().timeZone ?? 'UTC';
  return (
    <div className="patient-details" data-testid="patient-details">
      <Conditions patient={patient} readOnly={readOnly} />
      <QuestionnaireCard patientId={patient.patient_id} zone={patientZone} readOnly={readOnly} />
      <HistoryCard patientId={patient.patient_id} zone={patientZone} readOnly={readOnly} />
      <Checkups patientId={patient.patient_id} readOnly={readOnly} />
      <Comments patientId={patient.patient_id} readOnly={readOnly} />
      {!readOnly && <AccessLog patientId={patient.patient_id} />}
    </div>
  );
}

function Conditions({ patient, readOnly }: { patient: PatientInfo; readOnly: boolean }) {
  const { t } = useTranslation();
  const diseases = useDiseases();
  const change = useConditionChange(patient.patient_id);
  const [search, setSearch] = useState('');
  const ids = (patient.diseaseIds ?? '').split(',').filter(Boolean).map(Number);
  const byId = new Map((diseases.data ?? []).map((d) => [d.disease_id, d]));
  const query = search.trim().toLowerCase();
  const matches = query
    ? (diseases.data ?? []).filter((d) => !ids.includes(d.disease_id) && [d.disease_description, conditionName(t, d)!].some((n) => n.toLowerCase().includes(query))).slice(0, 8)
    : [];
  return (
    <section className="details-card" data-testid="conditions">
      <h3>{t('details.conditions.title')}</h3>
      <ul className="condition-chips">
        {ids.map((id) => (
          <li key={id} className="condition-chip" data-testid={`condition-${id}`}>
            {conditionName(t, byId.get(id)) ?? id}
            {!readOnly && (
              <button
                type="button"
                aria-label={t('details.conditions.remove', { name: conditionName(t, byId.get(id)) ?? id })}
                disabled={ids.length <= 1 || change.isPending}
                title={ids.length <= 1 ? t('details.conditions.lastOne') : undefined}
                onClick={() => change.mutate({ type: 'delete', diseaseId: id })}
                data-testid={`condition-remove-${id}`}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      {!readOnly && (
        <div className="condition-search">
          <input
            type="search"
            value={search}
            placeholder={t('details.conditions.search')}
            aria-label={t('details.conditions.search')}
            onChange={(e) => setSearch(e.target.value)}
            data-testid="condition-search"
          />
          {matches.length > 0 && (
            <ul className="condition-matches" role="listbox">
              {matches.map((d) => (
                <li key={d.disease_id}>
                  <button
                    type="button"
                    role="option"
                    aria-selected="false"
                    onClick={() => {
                      change.mutate({ type: 'update', diseaseId: d.disease_id });
                      setSearch('');
                    }}
                    data-testid={`condition-add-${d.disease_id}`}
                  >
                    {conditionName(t, d)}
                    {d.disease_id === NONE_ID && <span className="muted"> — {t('details.conditions.noneHint')}</span>}
                  </button>
                </li>
              ))}
            </ul>
          )}
        </div>
      )}
      {change.isError && <Alert tone="error" testId="condition-error">{errorText(t, change.error)}</Alert>}
    </section>
  );
}

function Checkups({ patientId, readOnly }: { patientId: number; readOnly: boolean }) {
  const { t, i18n } = useTranslation();
  const [shown, setShown] = useState(false);
  const list = useCheckups(patientId, shown);
  const change = useCheckupChange(patientId);
  const tomorrow = DateTime.now().plus({ days: 1 }).toISODate()!;
  const [date, setDate] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const taken = new Set([...(list.data?.upcoming ?? []), ...(list.data?.past ?? [])].map((c) => c.checkup_date));
  const format = (iso: string) => formatIsoDay(iso, i18n.language);
  const add = () => {
    if (!date || date < tomorrow) return setProblem(t('details.checkups.fromTomorrow'));
    if (taken.has(date)) return setProblem(t('details.checkups.taken'));
    setProblem(null);
    change.mutate({ add: date }, { onSuccess: () => setDate('') });
  };
  return (
    <section className="details-card" data-testid="checkups">
      <header className="details-card-head">
        <h3>{t('details.checkups.title')}</h3>
        <button type="button" className="button button-small" aria-expanded={shown} onClick={() => setShown(!shown)} data-testid="checkups-toggle">
          {shown ? t('details.checkups.hide') : t('details.checkups.show')}
        </button>
      </header>
      {shown && (
        <>
          {!readOnly && (
            <div className="checkup-add">
              <input type="date" min={tomorrow} value={date} onChange={(e) => setDate(e.target.value)} aria-label={t('details.checkups.date')} data-testid="checkup-date" />
              <button type="button" className="button button-small" onClick={add} disabled={change.isPending} data-testid="checkup-add">{t('details.checkups.add')}</button>
            </div>
          )}
          {problem && <p className="error-text" role="alert" data-testid="checkup-problem">{problem}</p>}
          {change.isError && <Alert tone="error" testId="checkup-error">{errorText(t, change.error)}</Alert>}
          {(['upcoming', 'past'] as const).map((group) => (
            <div key={group} className="checkup-group" data-testid={`checkups-${group}`}>
              <h4>{t(`details.checkups.${group}`)}</h4>
              {(list.data?.[group] ?? []).length === 0 ? (
                <p className="muted">{t(`details.checkups.${group}Empty`)}</p>
              ) : (
                <ul>
                  {list.data![group].map((c) => (
                    <li key={c.checkup_date_id}>
                      <label>
                        <input
                          type="checkbox"
                          checked={c.mark_as_complete_flag === 1}
                          disabled={readOnly || change.isPending}
                          onChange={() => change.mutate({ toggle: c.checkup_date_id })}
                          data-testid={`checkup-${c.checkup_date}`}
                        />
                        {format(c.checkup_date)}
                      </label>
                    </li>
                  ))}
                </ul>
              )}
            </div>
          ))}
        </>
      )}
    </section>
  );
}

function Comments({ patientId, readOnly }: { patientId: number; readOnly: boolean }) {
  const { t, i18n } = useTranslation();
  const me = Number(useSnapshot(session).user_id);
  const comments = useComments(patientId);
  const change = useCommentChange(patientId);
  const [draft, setDraft] = useState('');
  const [status, setStatus] = useState<'added' | 'failed' | null>(null);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<{ id: number; text: string } | null>(null);
  const [deleting, setDeleting] = useState<PatientComment | null>(null);
  const all = comments.data ?? [];
  const pages = Math.max(1, Math.ceil(all.length / pageSize));
  const current = Math.min(page, pages - 1);
  const shown = all.slice(current * pageSize, (current + 1) * pageSize);
  const submit = () => {
    const text = draft.trim();
    if (!text) return;
    change.mutate({ kind: 'add', comment: text }, {
      onSuccess: () => {
        setDraft('');
        setStatus('added');
        setPage(0);
      },
      onError: () => setStatus('failed'),
    });
  };
  const saveEdit = (c: PatientComment) => {
    if (!editing) return;
    const text = editing.text.trim();
    // An unchanged comment sends nothing (spec 2 §5).
    if (text === c.comment || !text) return setEditing(null);
    change.mutate({ kind: 'update', id: c.id, comment: text, updatedDate: c.updated_date }, { onSuccess: () => setEditing(null) });
  };
  const when = (iso: string) => formatDateTime(DateTime.fromISO(iso).toMillis(), 'local', i18n.language);
  return (
    <section className="details-card" data-testid="comments">
      <h3>{t('details.comments.title')}</h3>
      {!readOnly && (
        <div className="comment-form">
          <textarea
            value={draft}
            maxLength={COMMENT_MAX}
            rows={3}
            placeholder={t('details.comments.placeholder')}
            aria-label={t('details.comments.placeholder')}
            onChange={(e) => {
              setDraft(e.target.value);
              setStatus(null);
            }}
            onKeyDown={(e) => {
              // Enter submits a non-empty comment; Shift+Enter starts a new line.
              if (e.key === 'Enter' && !e.shiftKey) {
                e.preventDefault();
                submit();
              }
            }}
            data-testid="comment-input"
          />
          <div className="comment-form-foot">
            <span className="muted">{t('details.comments.count', { count: draft.length, max: COMMENT_MAX })}</span>
            <button type="button" className="button button-small" disabled={!draft.trim() || change.isPending} onClick={submit} data-testid="comment-submit">
              {t('details.comments.add')}
            </button>
          </div>
          {status === 'added' && <p className="success-text" role="status" data-testid="comment-added">{t('details.comments.added')}</p>}
          {status === 'failed' && <p className="error-text" role="alert" data-testid="comment-failed">{t('details.comments.failed')} {errorText(t, change.error)}</p>}
        </div>
      )}
      {comments.isError && <Alert tone="error">{errorText(t, comments.error)}</Alert>}
      {comments.data && all.length === 0 && <p className="muted" data-testid="comments-empty">{t('details.comments.empty')}</p>}
      <ul className="comment-list">
        {shown.map((c) => (
          <li key={c.id} className="comment" data-testid="comment">
            <div className="comment-meta">
              <strong>{c.author}</strong> <span className="muted">{when(c.created_date)}</span>
              {c.updated_date !== c.created_date && <span className="muted"> · {t('details.comments.edited')}</span>}
            </div>
            {editing?.id === c.id ? (
              <div className="comment-edit">
                <textarea value={editing.text} maxLength={COMMENT_MAX} rows={3} onChange={(e) => setEditing({ id: c.id, text: e.target.value })} data-testid="comment-edit-input" />
                <button type="button" className="button button-small" onClick={() => saveEdit(c)} disabled={change.isPending} data-testid="comment-save">{t('details.comments.save')}</button>
                <button type="button" className="button button-small" onClick={() => setEditing(null)}>{t('common.cancel')}</button>
              </div>
            ) : (
              <p className="comment-text" data-testid="comment-text">{c.comment}</p>
            )}
            {!readOnly && c.user_id === me && editing?.id !== c.id && (
              <div className="comment-actions">
                <button type="button" className="link-button" onClick={() => setEditing({ id: c.id, text: c.comment })} data-testid="comment-edit">{t('details.comments.edit')}</button>
                <button type="button" className="link-button" onClick={() => setDeleting(c)} data-testid="comment-delete">{t('details.comments.delete')}</button>
              </div>
            )}
          </li>
        ))}
      </ul>
      {all.length > 0 && (
        <div className="comment-pages">
          <label>
            {t('details.comments.pageSize')}{' '}
            <select value={pageSize} onChange={(e) => { setPageSize(Number(e.target.value)); setPage(0); }} data-testid="comment-page-size">
              {PAGE_SIZES.map((n) => <option key={n} value={n}>{n}</option>)}
            </select>
          </label>
          <button type="button" className="button button-small" disabled={current === 0} onClick={() => setPage(current - 1)} data-testid="comment-prev">‹</button>
          <span data-testid="comment-page">{t('details.comments.page', { page: current + 1, pages })}</span>
          <button type="button" className="button button-small" disabled={current >= pages - 1} onClick={() => setPage(current + 1)} data-testid="comment-next">›</button>
        </div>
      )}
      {change.isError && editing && <Alert tone="error" testId="comment-edit-error">{errorText(t, change.error)}</Alert>}
      <ConfirmDialog
        open={deleting !== null}
        message={t('details.comments.confirmDelete')}
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          if (deleting) change.mutate({ kind: 'delete', id: deleting.id });
          setDeleting(null);
        }}
      />
    </section>
  );
}
