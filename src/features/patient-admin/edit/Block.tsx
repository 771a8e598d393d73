import { createContext, useContext, useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  id: string;
  title: string;
  editing: boolean;
  canEdit: boolean;
  saving?: boolean;
  saveDisabled?: boolean;
  error?: string | null;
  notice?: string | null;
  onEdit: () => void;
  onSave: () => void;
  onCancel: () => void;
  children: ReactNode;
}

/** Hears which blocks are being edited, so leaving the screen can ask before discarding (spec 1 §4 unsaved-edit modes). */
export const EditModeContext = createContext<(block: string, editing: boolean) => void>(() => {});

/** One block of the edit screen: EDIT turns into SAVE while editing (spec 1 §2); annotators get neither. */
export function Block({ id, title, editing, canEdit, saving, saveDisabled, error, notice, onEdit, onSave, onCancel, children }: Props) {
  const { t } = useTranslation();
  const report = useContext(EditModeContext);
  useEffect(() => {
    report(id, editing);
    return () => report(id, false);
  }, [report, id, editing]);
  return (
    <section className="card" aria-labelledby={`${id}-title`} data-testid={`block-${id}`} id={`block-${id}`}>
      <div className="block-head">
        <h3 id={`${id}-title`}>{title}</h3>
        {canEdit && (
          <div className="row-actions">
            {editing && (
              <button type="button" className="button button-quiet" onClick={onCancel} data-testid={`${id}-cancel`}>
                {t('patientAdmin.edit.cancel')}
              </button>
            )}
            {editing ? (
              <button type="button" className="button button-primary" onClick={onSave} disabled={saving || saveDisabled} data-testid={`${id}-save`}>
                {t('patientAdmin.edit.save')}
              </button>
            ) : (
              <button type="button" className="button" onClick={onEdit} data-testid={`${id}-edit`}>
                {t('patientAdmin.edit.edit')}
              </button>
            )}
          </div>
        )}
      </div>
      {error && (
        <p className="alert alert-error" role="alert" data-testid={`${id}-error`}>
          {error}
        </p>
      )}
      {notice && (
        <p className="alert alert-success" role="status" data-testid={`${id}-notice`}>
          {notice}
        </p>
      )}
      {children}
    </section>
  );
}

/** A definition list of facts. */
export function Facts({ items, testId }: { items: Array<[string, ReactNode]>; testId?: string }) {
  return (
    <dl className="facts-grid" data-testid={testId}>
      {items.map(([k, v]) => (
        <div key={k}>
          <dt>{k}</dt>
          <dd>{v}</dd>
        </div>
      ))}
    </dl>
  );
}
