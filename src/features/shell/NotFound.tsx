import { useLayoutEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { PATHS } from '../../routes';
import { screen } from '../../state/ui';

/** Any path the app does not know, and pages a role may not open (spec 1 §2, §6). */
export function NotFound() {
  const { t } = useTranslation();
  // The title is the page's, not the path's (before the first paint: no frame names a screen not shown).
  useLayoutEffect(() => {
    screen.notFound = true;
    return () => {
      screen.notFound = false;
    };
  }, []);
  return (
    <section className="not-found" data-testid="not-found">
      <p className="not-found-code" aria-hidden="true">
        404
      </p>
      <p className="not-found-message">{t('notFound.message')}</p>
      <Link href={PATHS.root} className="button button-primary">
        {t('notFound.home')}
      </Link>
    </section>
  );
}
