import { useMemo, useRef, useState } from 'react';
import { useDismiss } from '../../ui/useDismiss';
import { useTranslation } from 'react-i18next';
import { formatNightDate } from '../../charts/core/format';
import { addMonths, monthGrid, nightDate } from './calendar';
import type { NightInfo } from './types';
import { formatMonth, weekdayNames } from '../../format';

/**
 * The night-picker calendar (spec 2 §2): a month grid where only days with a recorded
 * night can be chosen; the chosen night reads dd MMM yyyy.
 */
export function NightPicker({ nights, value, onChange, disabled }: {
  nights: readonly NightInfo[];
  value: number;
  onChange: (night: number) => void;
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  const box = useRef<HTMLDivElement>(null);
  // Escape or a press elsewhere closes the calendar, as the bell's panel.
  useDismiss(open, box, () => setOpen(false));
  return (
    <div className="night-picker" ref={box}>
      <span>{t('night.picker.label')}</span>
      <button
        type="button"
        className="button button-small"
        aria-haspopup="dialog"
        aria-expanded={open}
        disabled={disabled}
        onClick={() => setOpen(!open)}
        data-testid="night-picker"
        data-night={value}
      >
        {formatNightDate(value, i18n.language)} ▾
      </button>
      {open && (
        <NightCalendar
          nights={nights}
          value={value}
          onPick={(night) => {
            setOpen(false);
            onChange(night);
          }}
        />
      )}
    </div>
  );
}

/** The month grid, made only while it is open (its month and weekday names cost a formatter each). */
function NightCalendar({ nights, value, onPick }: { nights: readonly NightInfo[]; value: number; onPick: (night: number) => void }) {
  const { t, i18n } = useTranslation();
  const selected = nightDate(value);
  const [shown, setShown] = useState(() => ({ year: Number(selected.slice(0, 4)), month: Number(selected.slice(5, 7)) - 1 }));
  const byDate = useMemo(() => new Map(nights.map((n) => [nightDate(n.night), n.night])), [nights]);
  const weeks = monthGrid(shown.year, shown.month);
  const title = formatMonth(shown.year, shown.month + 1, i18n.language);
  const weekdays = weekdayNames(i18n.language);
  return (
    <div className="night-calendar" role="dialog" aria-label={t('night.picker.label')} data-testid="night-calendar">
      <div className="night-calendar-head">
        <button type="button" className="chip" onClick={() => setShown(addMonths(shown.year, shown.month, -1))} aria-label={t('night.picker.previous')}>
          ‹
        </button>
        <span>{title}</span>
        <button type="button" className="chip" onClick={() => setShown(addMonths(shown.year, shown.month, 1))} aria-label={t('night.picker.next')}>
          ›
        </button>
      </div>
      <table>
        <thead>
          <tr>{weekdays.map((d) => <th key={d} scope="col">{d}</th>)}</tr>
        </thead>
        <tbody>
          {weeks.map((week, w) => (
            <tr key={w}>
              {week.map((date, d) => {
                const night = date ? byDate.get(date) : undefined;
                return (
                  <td key={d}>
                    {date && (
                      <button
                        type="button"
                        className={`night-day${date === selected ? ' selected' : ''}`}
                        disabled={night === undefined}
                        aria-pressed={date === selected}
                        onClick={() => {
                          if (night !== undefined) onPick(night);
                        }}
                        data-testid={`night-day-${date}`}
                      >
                        {Number(date.slice(8))}
                      </button>
                    )}
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
