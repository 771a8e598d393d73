import { useEffect, useRef, useState, type Dispatch } from 'react';
import { useTranslation } from 'react-i18next';
import { useAvailableDates, useAvailableDevices } from '../api';
import { changeAllocation, changeDeallocation, dayStartMs, nightsBetween, returnMin, type DateRange, type IsoDay } from '../logic/dates';
import { autoSelect, filterDevices, sanitizeDeviceQuery, toggleDevice } from '../logic/devices';
import type { ScreeningAction, ScreeningState } from '../logic/screening';
import type { AvailableDevice } from '../types';
import { Screening } from './Screening';
import { scrollMotion } from '../../../ui/motion';

/** Delay before the page scrolls to the screening questions after a device is chosen (spec 1 §9). */
const SELECT_SCROLL_MS = 1000;

interface Props {
  range: DateRange;
  today: IsoDay;
  zone: string;
  windowStart: string;
  windowEnd: string;
  selected: number | null;
  screening: ScreeningState;
  dispatch: Dispatch<ScreeningAction>;
  onRange: (range: DateRange) => void;
  onSelect: (device: AvailableDevice | null) => void;
  /** A day before today was chosen: the deploy popup takes over. */
  onPastDate: (day: IsoDay) => void;
}

/** Exactly one free device: choose it for the user, once per answer (deselecting it stays deselected). */
function useAutoSelect(devices: AvailableDevice[] | undefined, selected: number | null, onSelect: Props['onSelect']) {
  const autoFor = useRef<unknown>(null);
  useEffect(() => {
    if (!devices || autoFor.current === devices) return;
    autoFor.current = devices;
    const auto = autoSelect(devices, selected);
    if (auto !== selected) onSelect(devices.find((d) => d.device_master_id === auto) ?? null);
  }, [devices, selected, onSelect]);
}

/** A moment after a device is chosen, the page scrolls to the screening questions under the returned ref. */
function useScrollToScreening(selected: number | null) {
  const screeningRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (selected === null) return;
    const timer = window.setTimeout(() => screeningRef.current?.scrollIntoView({ behavior: scrollMotion(), block: 'end' }), SELECT_SCROLL_MS);
    return () => window.clearTimeout(timer);
  }, [selected]);
  return screeningRef;
}

/** The allocation and return dates, the nights between them, and the zone and recording window they are read in. */
function DateFields({ range, today, zone, windowStart, windowEnd, onRange, onPastDate }: Pick<Props, 'range' | 'today' | 'zone' | 'windowStart' | 'windowEnd' | 'onRange' | 'onPastDate'>) {
  const { t } = useTranslation();
  return (
    <div className="form-grid">
      <div className="field">
        <label htmlFor="alloc-date">{t('patientAdmin.device.allocation')}</label>
        <input
          id="alloc-date"
          type="date"
          value={range.allocation}
          onChange={(e) => {
            if (!e.target.value) return;
            const change = changeAllocation(range, e.target.value, today);
            if (change.kind === 'past') onPastDate(change.requested);
            else onRange(change.range);
          }}
          data-testid="allocation-date"
        />
      </div>
      <div className="field">
        <label htmlFor="return-date">{t('patientAdmin.device.return')}</label>
        <input
          id="return-date"
          type="date"
          value={range.deallocation}
          min={returnMin(range.allocation)}
          onChange={(e) => e.target.value && onRange(changeDeallocation(range, e.target.value))}
          data-testid="return-date"
        />
      </div>
      <div className="field">
        <span className="field-label">{t('patientAdmin.device.duration')}</span>
        <output data-testid="nights">{t('patientAdmin.device.nights', { count: nightsBetween(range.allocation, range.deallocation) })}</output>
      </div>
      <div className="field">
        <span className="field-label">{t('patientAdmin.fields.timezone')}</span>
        <output data-testid="timezone">{zone}</output>
      </div>
      <div className="field">
        <span className="field-label">{t('patientAdmin.device.windowStart')}</span>
        <output>{windowStart}</output>
      </div>
      <div className="field">
        <span className="field-label">{t('patientAdmin.device.windowEnd')}</span>
        <output>{windowEnd}</output>
      </div>
    </div>
  );
}

/** The next days on which a device is free, each a button that moves the allocation there. */
function NextFreeDates({ days, onPick }: { days: IsoDay[]; onPick(day: IsoDay): void }) {
  const { t } = useTranslation();
  return (
    <div className="free-dates" data-testid="free-dates">
      <span className="muted">{t('patientAdmin.device.nextFree')}</span>
      {days.map((d) => (
        <button key={d} type="button" className="button button-small" onClick={() => onPick(d)} data-testid={`free-date-${d}`}>
          {d}
        </button>
      ))}
    </div>
  );
}

/** Dates, the free devices for them and the screening questions (add wizard page 2, edit's new allocation). */
export function DevicePicker({ range, today, zone, windowStart, windowEnd, selected, screening, dispatch, onRange, onSelect, onPastDate }: Props) {
  const { t } = useTranslation();
  const [query, setQuery] = useState('');
  const from = dayStartMs(range.allocation, zone);
  const to = dayStartMs(range.deallocation, zone);
  const devices = useAvailableDevices(from, to);
  const list = devices.data ?? [];
  const shown = filterDevices(list, query);
  // No device free for these dates: offer the next days on which one is (the calendar call).
  const noneFree = devices.data !== undefined && list.length === 0;
  const freeDates = useAvailableDates(zone, noneFree);
  const nextFree = (freeDates.data ?? []).filter((d) => d > range.allocation).slice(0, 5);
  useAutoSelect(devices.data, selected, onSelect);
  const screeningRef = useScrollToScreening(selected);
  const pickFreeDate = (d: IsoDay) => {
    const change = changeAllocation(range, d, today);
    if (change.kind !== 'past') onRange(change.range);
  };

  return (
    <div className="device-picker" data-testid="device-picker">
      <DateFields range={range} today={today} zone={zone} windowStart={windowStart} windowEnd={windowEnd} onRange={onRange} onPastDate={onPastDate} />
      <p className="field-hint">{t('patientAdmin.device.windowHint')}</p>

      <div className="field">
        <label htmlFor="device-search">{t('patientAdmin.device.search')}</label>
        <input id="device-search" value={query} maxLength={10} onChange={(e) => setQuery(sanitizeDeviceQuery(e.target.value))} data-testid="device-search" />
      </div>
      <fieldset className="device-list">
        <legend>{t('patientAdmin.device.available')}</legend>
        {devices.isPending ? (
          <p className="muted">{t('patientAdmin.device.loading')}</p>
        ) : shown.length === 0 ? (
          <>
            <p className="muted" data-testid="no-device">
              {t('patientAdmin.errors.noDevice')}
            </p>
            {noneFree && nextFree.length > 0 && <NextFreeDates days={nextFree} onPick={pickFreeDate} />}
          </>
        ) : (
          shown.map((d) => {
            const on = d.device_master_id === selected;
            return (
              <button
                key={d.device_master_id}
                type="button"
                className={`device-option${on ? ' is-selected' : ''}`}
                aria-pressed={on}
                onClick={() => {
                  const next = toggleDevice(selected, d.device_master_id);
                  dispatch({ type: 'reset' });
                  onSelect(next === null ? null : d);
                }}
                data-testid="device-option"
                data-device={d.device_id}
              >
                <span className="mono">{d.device_id}</span>
                {on && <span className="badge badge-stable">{t('patientAdmin.device.selected')}</span>}
              </button>
            );
          })
        )}
      </fieldset>
      <div ref={screeningRef}>{selected !== null && <Screening state={screening} dispatch={dispatch} />}</div>
    </div>
  );
}
