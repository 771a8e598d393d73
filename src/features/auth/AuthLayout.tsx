import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../shell/LanguageSelect';
import { Logo } from '../shell/icons';

/** The centred card every signed-out screen sits on. */
export function AuthLayout({ title, subtitle, children }: { title: string; subtitle?: string; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="auth-page">
      <div className="auth-language">
        <LanguageSelect />
      </div>
      <main className="auth-card">
        <div className="auth-brand">
          <Logo />
          <span>{t('app.name')}</span>
        </div>
        <h1 className="auth-title">{title}</h1>
        {subtitle && <p className="auth-subtitle">{subtitle}</p>}
        {children}
      </main>
      <p className="auth-tagline">{t('app.tagline')}</p>
    </div>
  );
}
