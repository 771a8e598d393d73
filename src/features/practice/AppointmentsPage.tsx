import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorText } from '../../api/messages';
import { useFormat } from '../../format';
import { patientDetailPath } from '../../routes';
import { Alert } from '../../ui/Alert';
import { fetchAppointments, type Appointment } from './api';
import '../../styles/practice.css';

function AppointmentTable({ rows, testId }: { rows: readonly Appointment[]; testId: string }) {
  const { t } = useTranslation();
  const fmt = useFormat();
  return (
    <table className="practice-table" data-testid={testId}>
      <thead>
        <tr>
          <th scope="col">{t('practice.appointments.date')}</th>
          <th scope="col">{t('practice.appointments.patient')}</th>
          <th scope="col">{t('practice.appointments.name')}</th>
        </tr>
      </thead>
      <tbody>
        {rows.map((a) => (
          <tr key={a.checkup_date_id} data-testid="appointment-row" data-date={a.checkup_date}>
            <td>{fmt.isoDay(a.checkup_date)}</td>
            <td>
              <Link href={patientDetailPath(a.patient_id)}>{a.patient_code}</Link>
            </td>
            <td>{a.patient_name}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** /app/appointments: the practice's upcoming check-ups (not yet complete), soonest first; completed ones on demand. */
export function AppointmentsPage() {
  const { t } = useTranslation();
  const [showPast, setShowPast] = useState(false);
  const upcoming = useQuery({ queryKey: ['practice', 'appointments', 'upcoming'], queryFn: () => fetchAppointments('upcoming') });
  const past = useQuery({ queryKey: ['practice', 'appointments', 'past'], queryFn: () => fetchAppointments('past'), enabled: showPast });
  return (
    <section className="card practice-appointments" data-testid="appointments-page" aria-labelledby="appointments-title">
      <h2 id="appointments-title">{t('practice.appointments.upcoming')}</h2>
      <p className="muted">{t('practice.appointments.intro')}</p>
      {upcoming.isError && <Alert tone="error">{errorText(t, upcoming.error)}</Alert>}
      {upcoming.data && upcoming.data.length === 0 && <p className="muted" data-testid="appointments-empty">{t('practice.appointments.empty')}</p>}
      {upcoming.data && upcoming.data.length > 0 && <AppointmentTable rows={upcoming.data} testId="appointments-upcoming" />}
      <button type="button" className="button button-small" aria-expanded={showPast} onClick={() => setShowPast(!showPast)} data-testid="appointments-toggle-past">
        {t(showPast ? 'practice.appointments.hidePast' : 'practice.appointments.showPast')}
      </button>
      {showPast && (
        <>
          <h3>{t('practice.appointments.past')}</h3>
          {past.isError && <Alert tone="error">{errorText(t, past.error)}</Alert>}
          {past.data && past.data.length === 0 && <p className="muted" data-testid="appointments-past-empty">{t('practice.appointments.pastEmpty')}</p>}
          {past.data && past.data.length > 0 && <AppointmentTable rows={past.data} testId="appointments-past" />}
        </>
      )}
    </section>
  );
}
