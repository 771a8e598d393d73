import { useTranslation } from 'react-i18next';
import type { AvailabilityFilter, ListFilters, StatusFilter } from '../patient-admin/logic/listFilters';

const STATUS: Array<[StatusFilter, 'statusAll' | 'statusActive' | 'statusInactive' | 'statusFlagged']> = [
  ['all', 'statusAll'],
  ['active', 'statusActive'],
  ['inactive', 'statusInactive'],
  ['flagged', 'statusFlagged'],
];
const AVAILABILITY: Array<[AvailabilityFilter, 'availabilityAny' | 'availabilityToday' | 'availabilityWeek' | 'availability15' | 'availabilityMonth' | 'availabilityCustom']> = [
  ['any', 'availabilityAny'],
  ['today', 'availabilityToday'],
  ['week', 'availabilityWeek'],
  ['days15', 'availability15'],
  ['month', 'availabilityMonth'],
  ['custom', 'availabilityCustom'],
];

/** The list's filters: status, age range, device availability and the search box. */
export function PatientFilters({ value, onChange }: { value: ListFilters; onChange: (f: ListFilters) => void }) {
  const { t } = useTranslation();
  const set = <K extends keyof ListFilters>(key: K, v: ListFilters[K]) => onChange({ ...value, [key]: v });
  const age = (text: string) => text.replace(/\D/g, '').slice(0, 3);
  // A range "from > to" matches nobody: said beside the fields, not left as an empty list.
  const reversed = value.minAge !== '' && value.maxAge !== '' && Number(value.minAge) > Number(value.maxAge);
  return (
    <div className="filters" role="search" aria-label={t('patientAdmin.list.filters')}>
      <div className="field">
        <label htmlFor="filter-search">{t('patientAdmin.list.search')}</label>
        <input id="filter-search" type="search" value={value.search} onChange={(e) => set('search', e.target.value)} data-testid="patients-search" />
      </div>
      <div className="field">
        <label htmlFor="filter-status">{t('patientAdmin.list.status')}</label>
        <select id="filter-status" value={value.status} onChange={(e) => set('status', e.target.value as StatusFilter)} data-testid="filter-status">
          {STATUS.map(([v, k]) => (
            <option key={v} value={v}>
              {t(`patientAdmin.list.${k}`)}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-min-age">{t('patientAdmin.list.minAge')}</label>
        <input id="filter-min-age" type="number" min={0} max={130} value={value.minAge} onChange={(e) => set('minAge', age(e.target.value))} aria-invalid={reversed} aria-describedby={reversed ? 'filter-age-reversed' : undefined} data-testid="filter-min-age" />
      </div>
      <div className="field">
        <label htmlFor="filter-max-age">{t('patientAdmin.list.maxAge')}</label>
        <input id="filter-max-age" type="number" min={0} max={130} value={value.maxAge} onChange={(e) => set('maxAge', age(e.target.value))} aria-invalid={reversed} aria-describedby={reversed ? 'filter-age-reversed' : undefined} data-testid="filter-max-age" />
      </div>
      {reversed && (
        <p id="filter-age-reversed" className="field-error" role="alert" data-testid="filter-age-reversed">
          {t('patientAdmin.list.ageReversed')}
        </p>
      )}
      <div className="field">
        <label htmlFor="filter-availability">{t('patientAdmin.list.availability')}</label>
        <select id="filter-availability" value={value.availability} onChange={(e) => set('availability', e.target.value as AvailabilityFilter)} data-testid="filter-availability">
          {AVAILABILITY.map(([v, k]) => (
            <option key={v} value={v}>
              {t(`patientAdmin.list.${k}`)}
            </option>
          ))}
        </select>
      </div>
      {value.availability === 'custom' && (
        <div className="field">
          <label htmlFor="filter-date">{t('patientAdmin.list.customDate')}</label>
          <input id="filter-date" type="date" value={value.customDate} onChange={(e) => set('customDate', e.target.value)} data-testid="filter-date" />
        </div>
      )}
    </div>
  );
}
