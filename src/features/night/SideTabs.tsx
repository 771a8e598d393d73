import { useTranslation } from 'react-i18next';

const TABS = ['overview', 'details', 'summary'] as const;

/** Overview, Patient details, Summary (spec 2 §2); the last two come with a later issue. */
export function SideTabs() {
  const { t } = useTranslation();
  return (
    <nav className="side-tabs" aria-label={t('night.tabs.label')} data-testid="side-tabs">
      {TABS.map((tab) => (
        <button
          key={tab}
          type="button"
          className={`side-tab${tab === 'overview' ? ' active' : ''}`}
          aria-current={tab === 'overview' ? 'page' : undefined}
          disabled={tab !== 'overview'}
          title={tab === 'overview' ? undefined : t('night.tabs.later')}
          data-testid={`tab-${tab}`}
        >
          {t(`night.tabs.${tab}`)}
        </button>
      ))}
    </nav>
  );
}
