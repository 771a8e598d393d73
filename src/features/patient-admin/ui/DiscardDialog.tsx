import { useTranslation } from 'react-i18next';
import { Dialog } from '../../../ui/Dialog';

/** Leaving a dirty form: Cancel or Discard changes (spec 1 §2). */
export function DiscardDialog({ open, onCancel, onDiscard }: { open: boolean; onCancel: () => void; onDiscard: () => void }) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      title={t('patientAdmin.discard.title')}
      onClose={onCancel}
      testId="discard-popup"
      actions={
        <>
          <button type="button" className="button" onClick={onCancel} data-testid="discard-cancel">
            {t('patientAdmin.discard.cancel')}
          </button>
          <button type="button" className="button button-danger" onClick={onDiscard} data-testid="discard-confirm">
            {t('patientAdmin.discard.discard')}
          </button>
        </>
      }
    >
      <p>{t('patientAdmin.discard.text')}</p>
    </Dialog>
  );
}
