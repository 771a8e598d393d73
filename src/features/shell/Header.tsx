import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserDetails } from '../../api/types';
import { logout } from '../../app/sessionActions';
import { LogoutIcon } from './icons';
import { LanguageSelect } from './LanguageSelect';
import { LogoutDialog } from './LogoutDialog';
import { NotificationBell } from './NotificationBell';
import { ProfileDialog } from '../profile/ProfileDialog';
import { membershipIncludes } from '../../state/membership';

/** Page title on the start side; language, user and logout on the end side. */
export function Header({ title, user, notifications = true }: { title: string; user: UserDetails | null; notifications?: boolean }) {
  const { t } = useTranslation();
  const [confirming, setConfirming] = useState(false);
  // Busy from the click until the app has left (logout navigates away).
  const signOut = useMutation({ mutationFn: logout });
  const busy = signOut.isPending || signOut.isSuccess;
  const [profileOpen, setProfileOpen] = useState(false);
  const name = user ? `${user.first_name} ${user.last_name}`.trim() : '';

  const confirm = () => signOut.mutate();

  return (
    <header className="app-header">
      <h1 className="page-title" data-testid="page-title">
        {title}
      </h1>
      <div className="header-tools">
        <LanguageSelect />
        {/* Annotators and admins get no notifications (spec 1 §4, §6). */}
        {notifications && user && !user.is_annotator && !user.is_admin && <NotificationBell paid={!membershipIncludes(user.membership_type, 'notificationsOnLoad')} />}
        {name && (
          <button type="button" className="header-user button-quiet" title={t('header.signedInAs', { name })} aria-haspopup="dialog" onClick={() => setProfileOpen(true)} data-testid="header-user">
            <span className="avatar" aria-hidden="true">
              {(user?.first_name?.[0] ?? '') + (user?.last_name?.[0] ?? '')}
            </span>
            <span className="header-user-name">{name}</span>
          </button>
        )}
        <button type="button" className="button button-quiet" onClick={() => setConfirming(true)} data-testid="logout-button">
          <LogoutIcon />
          <span>{t('header.logout')}</span>
        </button>
      </div>
      <ProfileDialog open={profileOpen} onClose={() => setProfileOpen(false)} />
      <LogoutDialog open={confirming} busy={busy} onConfirm={confirm} onCancel={() => setConfirming(false)} />
    </header>
  );
}
