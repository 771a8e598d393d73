import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { LanguageSelect } from '../shell/LanguageSelect';
import { Logo } from '../shell/icons';

interface Props {
  title: string;
  subtitle?: string;
  /** Names the whole card, title included, for end-to-end tests. */
  testId?: string;
  children: ReactNode;
}

/** The centred card every signed-out screen sits on. */
export function AuthLayout({ title, subtitle, testId, children }: Props) {
  const { t } = useTranslation();
  return (
    <div className="auth-page">
      <div className="auth-language">
        <LanguageSelect />
      </div>
      <main className="auth-card" data-testid={testId}>
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
