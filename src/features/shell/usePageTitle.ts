import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'wouter';
import type { Capabilities } from '../../state/roles';
import { titleFromPath } from './title';

/** The current page's translated title, mirrored into document.title; `caps` makes a screen the role lacks "Page not found". */
export function usePageTitle(caps?: Capabilities): string {
  const { t } = useTranslation();
  const [path] = useLocation();
  const title = titleFromPath(path, caps);
  const text = t(title.key);
  const appName = t('app.name');
  useEffect(() => {
    document.title = `${text} · ${appName}`;
  }, [text, appName]);
  return text;
}
