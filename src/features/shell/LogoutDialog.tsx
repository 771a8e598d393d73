import { useTranslation } from 'react-i18next';
import { Dialog } from '../../ui/Dialog';

interface Props {
  open: boolean;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** 'Are you sure you want to logout ?' in the app's modal dialog. */
export function LogoutDialog({ open, busy, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  return (
    <Dialog
      open={open}
      title={t('logout.title')}
      onClose={onCancel}
      actions={
        <>
          <button type="button" className="button" onClick={onCancel} data-testid="logout-cancel" autoFocus>
            {t('logout.no')}
          </button>
          <button type="button" className="button button-danger" onClick={onConfirm} disabled={busy} data-testid="logout-confirm">
            {t('logout.yes')}
          </button>
        </>
      }
    >
      <p>{t('logout.confirm')}</p>
    </Dialog>
  );
}
