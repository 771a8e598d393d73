import { useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { MoreIcon } from './icons';
import { MORE_MENU } from './nav';

/** The sidebar's bottom 'More' menu: a disclosure that closes on Escape, outside click or choice. */
export function MoreMenu({ compact }: { compact: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const listId = useId();
  const root = useRef<HTMLDivElement>(null);

  useEffect(() => {
    if (!open) return;
    const onPointer = (e: PointerEvent) => {
      if (!root.current?.contains(e.target as Node)) setOpen(false);
    };
    const onKey = (e: KeyboardEvent) => e.key === 'Escape' && setOpen(false);
    document.addEventListener('pointerdown', onPointer);
    document.addEventListener('keydown', onKey);
    return () => {
      document.removeEventListener('pointerdown', onPointer);
      document.removeEventListener('keydown', onKey);
    };
  }, [open]);

  return (
    <div className="more-menu" ref={root}>
      <button
        type="button"
        className="sidebar-link"
        aria-expanded={open}
        aria-controls={listId}
        onClick={() => setOpen((o) => !o)}
        data-testid="more-menu"
        title={compact ? t('nav.more') : undefined}
      >
        <MoreIcon />
        <span className="sidebar-label">{t('nav.more')}</span>
      </button>
      {open && (
        <ul className="more-list" id={listId}>
          {MORE_MENU.map((entry) => (
            <li key={entry.id}>
              {entry.external ? (
                <a href={`${entry.href}?subject=${encodeURIComponent(t('nav.supportSubject'))}`} data-testid={`more-${entry.id}`} onClick={() => setOpen(false)}>
                  {t(entry.labelKey)}
                </a>
              ) : (
                <Link href={entry.href} data-testid={`more-${entry.id}`} onClick={() => setOpen(false)}>
                  {t(entry.labelKey)}
                </Link>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
