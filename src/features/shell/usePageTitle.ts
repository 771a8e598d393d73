import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import { titleFromPath } from './title';

/** The current page's translated title, mirrored into document.title. */
export function usePageTitle(): string {
  const { t } = useTranslation();
  const [path] = useLocation();
  const title = titleFromPath(path);
  const text = t(title.key);
  const appName = t('app.name');
  useEffect(() => {
    document.title = `${text} · ${appName}`;
  }, [text, appName]);
  return text;
}
