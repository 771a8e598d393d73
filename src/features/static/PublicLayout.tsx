import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { PATHS } from '../../routes';
import { Logo } from '../shell/icons';
import { LanguageSelect } from '../shell/LanguageSelect';
import { usePageTitle } from '../shell/usePageTitle';

/** Frame for pages readable while signed out: the policies linked from sign-in, and 404s. */
export function PublicLayout({ children }: { children: ReactNode }) {
  const { t } = useTranslation();
  usePageTitle();
  return (
    <div className="public-page">
      <header className="public-header">
        <Link href={PATHS.root} className="public-brand">
          <Logo />
          <span>{t('app.name')}</span>
        </Link>
        <div className="header-tools">
          <LanguageSelect />
          <Link href={PATHS.signIn} className="button button-quiet">
            {t('nav.signIn')}
          </Link>
        </div>
      </header>
      <main className="public-content">{children}</main>
    </div>
  );
}
