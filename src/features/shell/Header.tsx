import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { UserDetails } from '../../../contract/answers';
import { logout } from './sessionActions';
import { LogoutIcon } from './icons';
import { LanguageSelect } from './LanguageSelect';
import { LogoutDialog } from './LogoutDialog';
import { NotificationBell } from './NotificationBell';
import { ProfileDialog } from '../profile/ProfileDialog';
import { useAvatarUrl, useProfileQuery } from '../profile/api';
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
            <HeaderAvatar initials={(user?.first_name?.[0] ?? '') + (user?.last_name?.[0] ?? '')} />
            <span className="header-user-name">{name}</span>
          </button>
        )}
        <button type="button" className="button button-quiet" onClick={() => setConfirming(true)} aria-label={t('header.logout')} title={t('header.logout')} data-testid="logout-button">
          <LogoutIcon />
          <span className="header-logout-label">{t('header.logout')}</span>
        </button>
      </div>
      <ProfileDialog open={profileOpen} onClose={() => setProfileOpen(false)} />
      <LogoutDialog open={confirming} busy={busy} onConfirm={confirm} onCancel={() => setConfirming(false)} />
    </header>
  );
}

/** The server's stand-in image for a profile without one of its own: the initials show instead. */
const DEFAULT_PROFILE_IMAGE = 'profile_image.jpg';

/** The user's profile image in the header once it is loaded, their initials until then or without one. */
function HeaderAvatar({ initials }: { initials: string }) {
  const profile = useProfileQuery();
  const own = profile.data?.profile_image;
  const src = useAvatarUrl(own && own !== DEFAULT_PROFILE_IMAGE ? own : null);
  if (src && own !== DEFAULT_PROFILE_IMAGE) return <img className="avatar avatar-image" src={src} alt="" aria-hidden="true" data-testid="header-avatar-image" />;
  return (
    <span className="avatar" aria-hidden="true" data-testid="header-avatar-initials">
      {initials}
    </span>
  );
}
