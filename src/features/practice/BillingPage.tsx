import { useTranslation } from 'react-i18next';
import { useSnapshot } from 'valtio';
import { SUPPORT_EMAIL } from '../../config';
import { MEMBERSHIP_FEATURES, membershipIncludes, type Membership, type MembershipFeature } from '../../state/membership';
import { session } from '../../state/session';
import '../../styles/practice.css';

const MEMBERSHIPS: readonly Membership[] = ['non-paid', 'paid'];
const FEATURES = Object.keys(MEMBERSHIP_FEATURES) as MembershipFeature[];

/** /app/billing: the account's membership and what each membership includes, read from the flags the app itself uses. */
export function BillingPage() {
  const { t } = useTranslation();
  const user = useSnapshot(session).user_details;
  const current: Membership = user?.membership_type === 'paid' ? 'paid' : 'non-paid';
  return (
    <section className="card practice-billing" data-testid="billing-page" data-membership={current} aria-labelledby="billing-title">
      <h2 id="billing-title">{t('practice.billing.title')}</h2>
      <p data-testid="billing-membership">
        {t('practice.billing.current')} <strong>{t(`practice.billing.memberships.${current}`)}</strong>
      </p>
      <p className="muted">{t('practice.billing.intro')}</p>
      <table className="practice-table billing-table" data-testid="billing-features">
        <thead>
          <tr>
            <th scope="col">{t('practice.billing.feature')}</th>
            {MEMBERSHIPS.map((m) => (
              <th key={m} scope="col" className={m === current ? 'current' : undefined} aria-current={m === current ? 'true' : undefined}>
                {t(`practice.billing.memberships.${m}`)}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {FEATURES.map((f) => (
            <tr key={f} data-testid={`billing-feature-${f}`} data-included={membershipIncludes(current, f)}>
              <th scope="row">{t(`practice.billing.features.${f}`)}</th>
              {MEMBERSHIPS.map((m) => (
                <td key={m} className={m === current ? 'current' : undefined}>
                  {t(membershipIncludes(m, f) ? 'practice.billing.included' : 'practice.billing.notIncluded')}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      <p className="muted">{t('practice.billing.same')}</p>
      <p>
        {t('practice.billing.change')} <a href={`mailto:${SUPPORT_EMAIL}`}>{SUPPORT_EMAIL}</a>
      </p>
    </section>
  );
}
