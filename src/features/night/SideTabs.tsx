import { useTranslation } from 'react-i18next';

export const TABS = ['overview', 'details', 'summary'] as const;
export type Tab = (typeof TABS)[number];

/** Overview, Patient details, Summary (spec 2 §2); Summary is disabled in trend view. */
export function SideTabs({ active, disabled, onSelect }: {
  active: Tab;
  disabled: ReadonlySet<Tab>;
  onSelect: (tab: Tab) => void;
}) {
  const { t } = useTranslation();
  return (
    <nav className="side-tabs" aria-label={t('night.tabs.label')} data-testid="side-tabs">
      {TABS.map((tab) => (
        <button
          key={tab}
          type="button"
          className={`side-tab${tab === active ? ' active' : ''}`}
          aria-current={tab === active ? 'page' : undefined}
          disabled={disabled.has(tab)}
          onClick={() => onSelect(tab)}
          data-testid={`tab-${tab}`}
          data-label={t(`night.tabs.${tab}`)}
        >
          {t(`night.tabs.${tab}`)}
        </button>
      ))}
    </nav>
  );
}
