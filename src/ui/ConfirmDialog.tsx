import { useTranslation } from 'react-i18next';
import { Dialog } from './Dialog';

interface Props {
  open: boolean;
  message: string;
  onConfirm: () => void;
  onCancel: () => void;
  /** The dialog's test id, when a screen holds more than one. */
  testId?: string;
}

/** A yes/no question in the app's own modal (the spec's confirm popups). */
export function ConfirmDialog({ open, message, onConfirm, onCancel, testId = 'confirm-dialog' }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      title={t('common.confirmTitle')}
      onClose={onCancel}
      testId={testId}
      actions={
        <>
          <button type="button" className="button" onClick={onCancel} data-testid="confirm-cancel">{t('common.no')}</button>
          <button type="button" className="button button-danger" onClick={onConfirm} data-testid="confirm-accept">{t('common.yes')}</button>
        </>
      }
    >
      <p>{message}</p>
    </Dialog>
  );
}
