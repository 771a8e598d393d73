import { useTranslation } from 'react-i18next';
import type { UserDetails } from '../../../contract/answers';

/** "19:00:00" → "19:00": seconds mean nothing for a recording window. */
const hhmm = (time: string): string => (/^\d{2}:\d{2}/.test(time) ? time.slice(0, 5) : time);

/** Who is signed in and with which role, membership and recording window (an administrator has neither: their role alone). */
export function AccountCard({ user }: { user: UserDetails }) {
  const { t } = useTranslation();
  const role = user.is_admin ? 'admin' : user.is_annotator ? 'annotator' : 'physician';
  return (
    <section className="card" aria-labelledby="account-card-title">
      <h2 id="account-card-title" className="card-title">
        {t('dashboard.account.title')}
      </h2>
      <dl className="facts">
        <dt>{t('dashboard.account.role')}</dt>
        <dd>{t(`dashboard.account.${role}`)}</dd>
        {!user.is_admin && (
          <>
            <dt>{t('dashboard.account.membership')}</dt>
            <dd>{t(`dashboard.account.${user.membership_type === 'paid' ? 'paid' : 'non-paid'}`)}</dd>
          </>
        )}
        {!user.is_admin && user.window_start_time && user.window_end_time && (
          <>
            <dt>{t('dashboard.account.window')}</dt>
            <dd>{t('dashboard.account.windowValue', { start: hhmm(user.window_start_time), end: hhmm(user.window_end_time) })}</dd>
          </>
        )}
      </dl>
    </section>
  );
}
