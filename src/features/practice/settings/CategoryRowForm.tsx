import { useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../../ui/ConfirmDialog';
import { useAction } from '../../../ui/useAction';
import { deleteCategory, updateCategory, type PracticeCategory } from '../api';

/** One patient's own annotation category: rename, recolour or delete it (the night screen's rules apply on the server). */
export function CategoryRowForm({ category, editable, patientLink, onSaved }: { category: PracticeCategory; editable: boolean; patientLink: ReactNode; onSaved: () => Promise<void> }) {
  const { t } = useTranslation();
  const [label, setLabel] = useState(category.label);
  const [color, setColor] = useState(category.color_code);
  const action = useAction();
  const [confirming, setConfirming] = useState(false);
  const dirty = label !== category.label || color.toUpperCase() !== category.color_code;
  const save = () =>
    action.run(async () => {
      await updateCategory({ label_id: category.label_id, label, color_code: color.toUpperCase(), version: category.version });
      await onSaved();
    });
  const remove = () =>
    action.run(async () => {
      setConfirming(false);
      await deleteCategory({ label_id: category.label_id, version: category.version });
      await onSaved();
    });
  return (
    <tr data-testid="settings-category-row" data-label={category.label}>
      <td>{patientLink}</td>
      <td>
        <input value={label} maxLength={20} disabled={!editable || action.busy} aria-label={t('practice.settings.categories.label')} onChange={(e) => setLabel(e.target.value)} />
        {action.problem && <div className="error-text" role="alert">{action.problem}</div>}
      </td>
      <td>
        <input type="color" value={color.toLowerCase()} disabled={!editable || action.busy} aria-label={t('practice.settings.categories.color')} onChange={(e) => setColor(e.target.value)} />
      </td>
      <td>
        {editable && (
          <>
            <button type="button" className="button button-small" disabled={!dirty || action.busy} onClick={save}>
              {t('annotations.category.save')}
            </button>{' '}
            <button type="button" className="button button-small" disabled={action.busy} onClick={() => setConfirming(true)}>
              {t('annotations.category.delete')}
            </button>
            <ConfirmDialog open={confirming} message={t('annotations.category.confirmDelete')} onConfirm={remove} onCancel={() => setConfirming(false)} />
          </>
        )}
      </td>
    </tr>
  );
}
