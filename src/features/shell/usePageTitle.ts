import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { useLocation } from 'wouter';
import { screen } from '../../state/ui';
import type { Capabilities } from '../../state/roles';
import { titleFromPath } from './title';

/** The current page's translated title, mirrored into document.title; `caps` makes a screen the role lacks "Page not found", as does the not-found page on screen. */
export function usePageTitle(caps?: Capabilities): string {
  const { t } = useTranslation();
  const [path] = useLocation();
  const { notFound } = useSnapshot(screen);
  const title = titleFromPath(path, caps);
  const text = t(notFound ? 'titles.notFound' : title.key);
  const appName = t('app.name');
  useEffect(() => {
    document.title = `${text} · ${appName}`;
  }, [text, appName]);
  return text;
}
