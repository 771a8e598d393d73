import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorText } from '../../api/messages';
import { formatMonth, useFormat, weekdayNames } from '../../format';
import { patientDetailPath } from '../../routes';
import { Alert } from '../../ui/Alert';
import { fetchCalendar, type CalendarEvent } from './api';
import { addMonths, buildMonth, countKinds, monthOf, monthRange } from './calendar';
import '../../styles/practice.css';

const KINDS: readonly CalendarEvent['kind'][] = ['checkup', 'booking', 'return'];

/** Today as YYYY-MM-DD on the viewer's clock. */
const localToday = () => {
  const d = new Date();
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

/** /app/calender (the spec's spelling): the practice's check-ups, device returns and bookings by month, each on the patient's local day. */
export function CalendarPage() {
  const { t, i18n } = useTranslation();
  const fmt = useFormat();
  const today = localToday();
  const [shown, setShown] = useState(() => monthOf(today));
  const range = monthRange(shown.year, shown.month);
  const calendar = useQuery({ queryKey: ['practice', 'calendar', range.from, range.to], queryFn: () => fetchCalendar(range.from, range.to) });
  const events = useMemo(() => calendar.data ?? [], [calendar.data]);
  const weeks = useMemo(() => buildMonth(shown.year, shown.month, events, today), [shown, events, today]);
  const counts = countKinds(events);
  const entryTitle = (e: CalendarEvent) =>
    [e.patient_name || e.patient_code, e.device_id && t('practice.calendar.device', { device: e.device_id }), e.at_ms !== undefined && e.timezone && fmt.dateTime(e.at_ms, e.timezone)]
      .filter(Boolean)
      .join(' · ');
  return (
    <section className="card practice-calendar" data-testid="calendar-page" aria-labelledby="calendar-title">
      <div className="practice-head">
        <h2 id="calendar-title">{formatMonth(shown.year, shown.month + 1, i18n.language)}</h2>
        <div className="practice-actions">
          <button type="button" className="button button-small" onClick={() => setShown(addMonths(shown.year, shown.month, -1))} data-testid="calendar-previous">
            {t('practice.calendar.previous')}
          </button>
          <button type="button" className="button button-small" onClick={() => setShown(monthOf(today))} data-testid="calendar-today">
            {t('practice.calendar.today')}
          </button>
          <button type="button" className="button button-small" onClick={() => setShown(addMonths(shown.year, shown.month, 1))} data-testid="calendar-next">
            {t('practice.calendar.next')}
          </button>
        </div>
      </div>
      <p className="muted">{t('practice.calendar.intro')}</p>
      <ul className="calendar-legend" aria-label={t('practice.calendar.legend')}>
        {KINDS.map((k) => (
          <li key={k} className={`calendar-entry kind-${k}`} data-testid={`calendar-count-${k}`}>
            {t(`practice.calendar.kinds.${k}`)}: {fmt.number(counts[k])}
          </li>
        ))}
      </ul>
      {calendar.isError && <Alert tone="error">{errorText(t, calendar.error)}</Alert>}
      {calendar.isPending && <p className="muted loading" role="status">{t('common.loading')}</p>}
      <table className="calendar-month" data-testid="calendar-month" data-month={range.from.slice(0, 7)} aria-busy={calendar.isPending}>
        <thead>
          <tr>{weekdayNames(i18n.language).map((d) => <th key={d} scope="col">{d}</th>)}</tr>
        </thead>
        <tbody>
          {weeks.map((week, w) => (
            <tr key={w}>
              {week.map((day, d) => (
                <td key={d} className={day.today ? 'today' : undefined} data-testid={day.date ? `calendar-day-${day.date}` : undefined}>
                  {day.date && (
                    <>
                      <span className="calendar-day-number">{fmt.number(Number(day.date.slice(8)))}</span>
                      <ul>
                        {day.events.map((e, i) => (
                          <li key={i}>
                            <Link
                              href={patientDetailPath(e.patient_id)}
                              className={`calendar-entry kind-${e.kind}${e.completed || e.returned ? ' done' : ''}`}
                              title={entryTitle(e)}
                              data-testid={`calendar-entry-${e.kind}`}
                            >
                              {t(`practice.calendar.kinds.${e.kind}`)} · {e.patient_code}
                            </Link>
                          </li>
                        ))}
                      </ul>
                    </>
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {calendar.isSuccess && events.length === 0 && <p className="muted" data-testid="calendar-empty">{t('practice.calendar.empty')}</p>}
    </section>
  );
}
