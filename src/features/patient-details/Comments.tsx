import { DateTime } from 'luxon';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { errorText } from '../../api/messages';
import { session } from '../../state/session';
import { Alert } from '../../ui/Alert';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useCommentChange, useComments, type PatientComment } from './api';
import { formatDateTime } from '../../format';

/** Comment page sizes (spec 2 §5); the first is the default. */
const PAGE_SIZES = [10, 20, 30, 40, 50, 100] as const;
/** Longest comment (spec 2 §9). */
const COMMENT_MAX = 10_240;

type CommentChange = ReturnType<typeof useCommentChange>;

/** The new comment's box: Enter adds it (Shift+Enter a new line), then says whether it was added. */
function CommentForm({ change, onAdded }: { change: CommentChange; onAdded(): void }) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState('');
  const [status, setStatus] = useState<'added' | 'failed' | null>(null);
  const submit = () => {
    const text = draft.trim();
    if (!text) return;
    change.mutate({ kind: 'add', comment: text }, {
      onSuccess: () => {
        setDraft('');
        setStatus('added');
        onAdded();
      },
      onError: () => setStatus('failed'),
    });
  };
  return (
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
  );
}

interface ItemProps {
  comment: PatientComment;
  /** The author may edit and delete (not an annotator's read-only view). */
  mine: boolean;
  editing: { id: number; text: string } | null;
  busy: boolean;
  onEditing(editing: { id: number; text: string } | null): void;
  onSave(): void;
  onDelete(): void;
}

/** One comment: author, when, whether edited, and the text (or its edit box). */
function CommentItem({ comment: c, mine, editing, busy, onEditing, onSave, onDelete }: ItemProps) {
  const { t, i18n } = useTranslation();
  const when = (iso: string) => formatDateTime(DateTime.fromISO(iso).toMillis(), 'local', i18n.language);
  return (
    <li className="comment" data-testid="comment">
      <div className="comment-meta">
        <strong>{c.author}</strong> <span className="muted">{when(c.created_date)}</span>
        {c.updated_date !== c.created_date && <span className="muted"> · {t('details.comments.edited')}</span>}
      </div>
      {editing?.id === c.id ? (
        <div className="comment-edit">
          <textarea value={editing.text} maxLength={COMMENT_MAX} rows={3} onChange={(e) => onEditing({ id: c.id, text: e.target.value })} data-testid="comment-edit-input" />
          <button type="button" className="button button-small" onClick={onSave} disabled={busy} data-testid="comment-save">{t('details.comments.save')}</button>
          <button type="button" className="button button-small" onClick={() => onEditing(null)}>{t('common.cancel')}</button>
        </div>
      ) : (
        <p className="comment-text" data-testid="comment-text">{c.comment}</p>
      )}
      {mine && editing?.id !== c.id && (
        <div className="comment-actions">
          <button type="button" className="link-button" onClick={() => onEditing({ id: c.id, text: c.comment })} data-testid="comment-edit">{t('details.comments.edit')}</button>
          <button type="button" className="link-button" onClick={onDelete} data-testid="comment-delete">{t('details.comments.delete')}</button>
        </div>
      )}
    </li>
  );
}

/** Page size and the previous / next page of the comments. */
function CommentPager({ pageSize, current, pages, onPageSize, onPage }: { pageSize: number; current: number; pages: number; onPageSize(size: number): void; onPage(page: number): void }) {
  const { t } = useTranslation();
  return (
    <div className="comment-pages">
      <label>
        {t('details.comments.pageSize')}{' '}
        <select value={pageSize} onChange={(e) => onPageSize(Number(e.target.value))} data-testid="comment-page-size">
          {PAGE_SIZES.map((n) => <option key={n} value={n}>{n}</option>)}
        </select>
      </label>
      <button type="button" className="button button-small" disabled={current === 0} onClick={() => onPage(current - 1)} data-testid="comment-prev">‹</button>
      <span data-testid="comment-page">{t('details.comments.page', { page: current + 1, pages })}</span>
      <button type="button" className="button button-small" disabled={current >= pages - 1} onClick={() => onPage(current + 1)} data-testid="comment-next">›</button>
    </div>
  );
}

/** The patient's comments (spec 2 §5): add, edit and delete one's own, a page at a time. */
export function Comments({ patientId, readOnly }: { patientId: number; readOnly: boolean }) {
  const { t } = useTranslation();
  const me = Number(useSnapshot(session).user_id);
  const comments = useComments(patientId);
  const change = useCommentChange(patientId);
  const [pageSize, setPageSize] = useState<number>(PAGE_SIZES[0]);
  const [page, setPage] = useState(0);
  const [editing, setEditing] = useState<{ id: number; text: string } | null>(null);
  const [deleting, setDeleting] = useState<PatientComment | null>(null);
  const all = comments.data ?? [];
  const pages = Math.max(1, Math.ceil(all.length / pageSize));
  const current = Math.min(page, pages - 1);
  const shown = all.slice(current * pageSize, (current + 1) * pageSize);
  const saveEdit = (c: PatientComment) => {
    if (!editing) return;
    const text = editing.text.trim();
    // An unchanged comment sends nothing (spec 2 §5).
    if (text === c.comment || !text) return setEditing(null);
    change.mutate({ kind: 'update', id: c.id, comment: text, updatedDate: c.updated_date }, { onSuccess: () => setEditing(null) });
  };
  return (
    <section className="details-card" data-testid="comments">
      <h3>{t('details.comments.title')}</h3>
      {!readOnly && <CommentForm change={change} onAdded={() => setPage(0)} />}
      {comments.isError && <Alert tone="error">{errorText(t, comments.error)}</Alert>}
      {comments.data && all.length === 0 && <p className="muted" data-testid="comments-empty">{t('details.comments.empty')}</p>}
      <ul className="comment-list">
        {shown.map((c) => (
          <CommentItem key={c.id} comment={c} mine={!readOnly && c.user_id === me} editing={editing} busy={change.isPending} onEditing={setEditing} onSave={() => saveEdit(c)} onDelete={() => setDeleting(c)} />
        ))}
      </ul>
      {all.length > 0 && (
        <CommentPager
          pageSize={pageSize}
          current={current}
          pages={pages}
          onPageSize={(n) => {
            setPageSize(n);
            setPage(0);
          }}
          onPage={setPage}
        />
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
