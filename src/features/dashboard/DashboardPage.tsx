import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { session } from '../../state/session';
import { AccountCard } from './AccountCard';
import { DashboardWidgets } from './DashboardWidgets';
import { EngineStatusCard } from './EngineStatusCard';

type PartOfDay = 'morning' | 'afternoon' | 'evening';

function partOfDay(hour: number): PartOfDay {
  if (hour < 12) return 'morning';
  if (hour < 18) return 'afternoon';
  return 'evening';
}

/** /app/: greeting, the clinical widgets (physicians), system status and the account. */
export function DashboardPage() {
  const { t } = useTranslation();
  const { user_details } = useSnapshot(session);
  const name = user_details?.first_name ?? '';
  return (
    <div className="page dashboard" data-testid="dashboard">
      <section className="page-intro">
        <h2 className="greeting">{t(`dashboard.greeting.${partOfDay(new Date().getHours())}`, { name })}</h2>
        {/* An administrator has no patients nor devices: their work is accounts, requests and the access trail. */}
        <p className="muted">{t(user_details?.is_admin ? 'dashboard.introAdmin' : 'dashboard.intro')}</p>
      </section>
      {user_details && !user_details.is_annotator && !user_details.is_admin && <DashboardWidgets />}
      <div className="card-grid">
        <EngineStatusCard />
        {user_details && <AccountCard user={user_details} />}
      </div>
    </div>
  );
}
