import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';

interface Props {
  open: boolean;
  busy: boolean;
  onConfirm: () => void;
  onCancel: () => void;
}

/** 'Are you sure you want to logout ?' as a modal <dialog>: focus trap and Escape for free. */
export function LogoutDialog({ open, busy, onConfirm, onCancel }: Props) {
  const { t } = useTranslation();
  const ref = useRef<HTMLDialogElement>(null);

  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.open) dialog.showModal();
    if (!open && dialog.open) dialog.close();
  }, [open]);

  return (
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby="logout-title"
      aria-describedby="logout-text"
      onCancel={(e) => {
        e.preventDefault();
        onCancel();
      }}
    >
      <h2 id="logout-title" className="dialog-title">
        {t('logout.title')}
      </h2>
      <p id="logout-text">{t('logout.confirm')}</p>
      <div className="dialog-actions">
        <button type="button" className="button" onClick={onCancel} data-testid="logout-cancel" autoFocus>
          {t('logout.no')}
        </button>
        <button type="button" className="button button-danger" onClick={onConfirm} disabled={busy} data-testid="logout-confirm">
          {t('logout.yes')}
        </button>
      </div>
    </dialog>
  );
}
