import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { Link, useLocation } from 'wouter';
import { mayLeave } from '../../state/leaveGuard';
import type { Capabilities } from '../../state/roles';
import { section } from '../../state/section';
import { normalisePath } from './guard';
import { ChevronIcon, Logo } from './icons';
import { MoreMenu } from './MoreMenu';
import { MAIN_MENU, type MainEntry } from './nav';

function isActive(entry: MainEntry, path: string): boolean {
  const p = normalisePath(path);
  if (p === normalisePath(entry.href) || entry.alsoActive?.includes(p)) return true;
  return entry.href !== '/app/' && p.startsWith(`${entry.href}/`);
}

interface Props {
  caps: Capabilities;
  open: boolean;
  /** Absent where the page decides (the real-time dashboard keeps it collapsed). */
  onToggle?: () => void;
}

/** Dark navy navigation: main menu on top, 'More' at the bottom; collapses to icons. */
export function Sidebar({ caps, open, onToggle }: Props) {
  const { t } = useTranslation();
  const [path] = useLocation();
  // A page that says whose section it is (a sample patient's night) outranks its path.
  const claimed = useSnapshot(section).entry;
  return (
    <nav className={`sidebar ${open ? 'is-open' : 'is-collapsed'}`} data-testid="sidebar" aria-label={t('nav.mainMenu')}>
      <div className="sidebar-brand">
        <Logo />
        <span className="sidebar-label">{t('app.name')}</span>
      </div>
      <ul className="sidebar-menu">
        {MAIN_MENU.filter((e) => e.visible(caps)).map((entry) => {
          const active = claimed !== null ? entry.id === claimed : isActive(entry, path);
          const label = t(entry.labelKey);
          return (
            <li key={entry.id}>
              <Link
                href={entry.href}
                className={`sidebar-link${active ? ' is-active' : ''}`}
                aria-current={active ? 'page' : undefined}
                data-testid={entry.testId}
                title={open ? undefined : label}
                onClick={(e) => {
                  // A form with unsaved changes asks before it is left (spec 1 §2).
                  if (!mayLeave(entry.href)) e.preventDefault();
                }}
              >
                <entry.icon />
                <span className="sidebar-label">{label}</span>
              </Link>
            </li>
          );
        })}
      </ul>
      <div className="sidebar-bottom">
        <MoreMenu compact={!open} />
        {onToggle && (
          <button
            type="button"
            className="sidebar-toggle"
            onClick={onToggle}
            aria-expanded={open}
            aria-label={open ? t('nav.collapse') : t('nav.expand')}
            title={open ? t('nav.collapse') : t('nav.expand')}
            data-testid="sidebar-toggle"
          >
            <ChevronIcon />
          </button>
        )}
      </div>
    </nav>
  );
}
