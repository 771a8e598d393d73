import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorText } from '../../api/messages';
import { formatNightDate } from '../../charts/core/format';
import { Alert } from '../../ui/Alert';
import { useWidgets, type NightRef } from './api';
import { TriageTable } from './TriageTable';
import { formatDay } from '../../format';

const nightHref = (r: NightRef) => `/app/patients/id=${r.patient_id}?night=${r.night}`;

/** A count tile. */
function Tile({ label, value, tone, testId }: { label: string; value: number; tone?: 'warn'; testId: string }) {
  return (
    <div className={`stat-tile${tone === 'warn' && value > 0 ? ' warn' : ''}`} data-testid={testId}>
      <span className="stat-value">{value}</span>
      <span className="stat-label">{label}</span>
    </div>
  );
}

/**
 * The dashboard's widgets (spec 1 §1): unseen recordings, flagged patients, today's
 * returns, overdue devices, deployed and available devices, the past night's recordings
 * (24 hours), the last recordings, and patients with a device but no recent data; beside
 * the counters, the triage table of the practice's patients.
 */
export function DashboardWidgets() {
  const { t, i18n } = useTranslation();
  const widgets = useWidgets();
  if (widgets.isError) return <Alert tone="error" testId="widgets-error">{errorText(t, widgets.error)}</Alert>;
  if (!widgets.data) return <p className="muted loading" role="status">{t('common.loading')}</p>;
  const w = widgets.data;
  const nightList = (items: readonly NightRef[], testId: string) => (
    <ul className="widget-list" data-testid={testId}>
      {items.map((r) => (
        <li key={r.recording_id}>
          <Link href={nightHref(r)}>{r.patient_code}</Link>
          <span className="muted"> · {formatNightDate(r.night, i18n.language)}</span>
        </li>
      ))}
    </ul>
  );
  return (
    <div className="dashboard-widgets" data-testid="dashboard-widgets">
      <div className="stat-tiles">
        <Tile label={t('dashboard.widgets.unseen')} value={w.unseen_recordings} testId="widget-unseen" />
        <Tile label={t('dashboard.widgets.flagged')} value={w.flagged_patients} tone="warn" testId="widget-flagged" />
        <Tile label={t('dashboard.widgets.todaysReturns')} value={w.todays_returns.length} testId="widget-returns" />
        <Tile label={t('dashboard.widgets.overdue')} value={w.overdue_devices} tone="warn" testId="widget-overdue" />
        <Tile label={t('dashboard.widgets.deployed')} value={w.deployed_devices} testId="widget-deployed" />
        <Tile label={t('dashboard.widgets.available')} value={w.available_devices} testId="widget-available" />
      </div>
      <TriageTable />
      <div className="card-grid">
        <section className="card" data-testid="widget-past-night">
          <h3>{t('dashboard.widgets.pastNight')}</h3>
          {w.past_night_recordings.length === 0
            ? <p className="muted">{t('dashboard.widgets.noneIn24h')}</p>
            : nightList(w.past_night_recordings, 'past-night-list')}
        </section>
        <section className="card" data-testid="widget-last">
          <h3>{t('dashboard.widgets.last')}</h3>
          {w.last_recordings.length === 0 ? <p className="muted">{t('dashboard.widgets.noRecordings')}</p> : nightList(w.last_recordings, 'last-list')}
        </section>
        <section className="card" data-testid="widget-no-data">
          <h3>{t('dashboard.widgets.noData')}</h3>
          {w.no_recent_data.length === 0 ? (
            <p className="muted">{t('dashboard.widgets.allReporting')}</p>
          ) : (
            <ul className="widget-list">
              {w.no_recent_data.map((p) => (
                <li key={p.patient_id}>
                  <Link href={`/app/patients/id=${p.patient_id}`}>{p.patient_code}</Link>
                  <span className="muted"> · {p.last_stop_ms ? t('dashboard.widgets.lastData', { date: formatDay(p.last_stop_ms, 'local', i18n.language) }) : t('dashboard.widgets.never')}</span>
                </li>
              ))}
            </ul>
          )}
          {w.todays_returns.length > 0 && (
            <>
              <h4>{t('dashboard.widgets.todaysReturns')}</h4>
              <ul className="widget-list" data-testid="returns-list">
                {w.todays_returns.map((r) => <li key={r.device_id}>{r.device_id} · <Link href={`/app/patients/id=${r.patient_id}`}>{r.patient_code}</Link></li>)}
              </ul>
            </>
          )}
        </section>
      </div>
    </div>
  );
}
