import { useId, useMemo, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Country } from '../../../../contract/answers';
import { acceptMeasureInput, bmi, bmiClass, measureValue, searchYears } from '../logic/measures';
import { canRemoveChip, fuzzyMatch, type PatientFieldError } from '../logic/patientForm';
import type { Disease } from '../types';
import { formatNumber } from '../../../format';
import { conditionName, localCountries } from '../../../builtInNames';

/** Translated text of a page-1 error. */
export function useFieldError() {
  const { t } = useTranslation();
  return (e: PatientFieldError | null | undefined, max?: number): string | null => (e ? t(`patientAdmin.errors.${e}`, { max }) : null);
}

function Wrap({ id, label, error, children, hint }: { id: string; label: string; error?: string | null; children: ReactNode; hint?: ReactNode }) {
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children}
      {hint && <p className="field-hint">{hint}</p>}
      {error && (
        <p className="field-error" id={`${id}-error`} role="alert">
          {error}
        </p>
      )}
    </div>
  );
}

/** Weight, height: 3 integer digits, 2 decimals, fewer than 7 characters; other keys are ignored. */
export function MeasureInput({ label, value, onChange, error, testId }: { label: string; value: string; onChange: (v: string) => void; error?: string | null; testId: string }) {
  const id = useId();
  return (
    <Wrap id={id} label={label} error={error}>
      <input id={id} inputMode="decimal" value={value} onChange={(e) => onChange(acceptMeasureInput(value, e.target.value))} data-testid={testId} aria-invalid={error ? true : undefined} />
    </Wrap>
  );
}

/** Year of birth: a searchable list from 18 to 118 years ago. */
export function YearSelect({ value, onChange, choices, error }: { value: string; onChange: (v: string) => void; choices: readonly number[]; error?: string | null }) {
  const { t } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const shown = useMemo(() => searchYears(choices, query), [choices, query]);
  return (
    <Wrap id={id} label={t('patientAdmin.fields.yearOfBirth')} error={error}>
      <div className="inline-fields">
        <input
          aria-label={t('patientAdmin.fields.yearSearch')}
          placeholder={t('patientAdmin.fields.yearSearch')}
          value={query}
          inputMode="numeric"
          maxLength={4}
          onChange={(e) => {
            const q = e.target.value.replace(/\D/g, '');
            setQuery(q);
            const hits = searchYears(choices, q);
            if (q.length === 4 && hits.length === 1) onChange(String(hits[0]));
          }}
          data-testid="year-search"
        />
        <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid="year-of-birth">
          <option value="">{t('patientAdmin.fields.choose')}</option>
          {value && !shown.includes(Number(value)) && <option value={value}>{value}</option>}
          {shown.map((y) => (
            <option key={y} value={y}>
              {y}
            </option>
          ))}
        </select>
      </div>
      {query && shown.length === 0 && <p className="field-hint">{t('patientAdmin.errors.yearNotFound')}</p>}
    </Wrap>
  );
}

export function GenderSelect({ value, onChange, error }: { value: string; onChange: (v: '' | 'M' | 'F' | 'O') => void; error?: string | null }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Wrap id={id} label={t('patientAdmin.fields.gender')} error={error}>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as '' | 'M' | 'F' | 'O')} data-testid="gender">
        <option value="">{t('patientAdmin.fields.choose')}</option>
        <option value="M">{t('patients.gender.male')}</option>
        <option value="F">{t('patients.gender.female')}</option>
        <option value="O">{t('patients.gender.other')}</option>
      </select>
    </Wrap>
  );
}

/** Patient status (at_risk): Not Known (null), Stable 0, At Risk 1, Control 2. */
export function StatusSelect({ value, onChange }: { value: string; onChange: (v: '' | '0' | '1' | '2') => void }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Wrap id={id} label={t('patientAdmin.fields.status')}>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value as '' | '0' | '1' | '2')} data-testid="patient-status">
        <option value="">{t('patients.risk.notKnown')}</option>
        <option value="0">{t('patients.risk.stable')}</option>
        <option value="1">{t('patients.risk.atRisk')}</option>
        <option value="2">{t('patients.risk.control')}</option>
      </select>
    </Wrap>
  );
}

export function CountryField({ countries, value, onChange, error }: { countries: readonly Country[]; value: string; onChange: (name: string) => void; error?: string | null }) {
  const { t, i18n } = useTranslation();
  const id = useId();
  return (
    <Wrap id={id} label={t('patientAdmin.fields.country')} error={error}>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid="country">
        <option value="">{t('patientAdmin.fields.choose')}</option>
        {localCountries(countries, i18n.language).map((c) => (
          <option key={c.code} value={c.name}>
            {c.localName} ({c.timezone})
          </option>
        ))}
      </select>
    </Wrap>
  );
}

export function CommentField({ value, onChange, max, error }: { value: string; onChange: (v: string) => void; max: number; error?: string | null }) {
  const { t } = useTranslation();
  const id = useId();
  return (
    <Wrap id={id} label={t('patientAdmin.fields.comment')} error={error} hint={t('patientAdmin.fields.commentCount', { count: value.length, max })}>
      <textarea id={id} rows={3} value={value} maxLength={max} onChange={(e) => onChange(e.target.value)} data-testid="comment" />
    </Wrap>
  );
}

export function BmiReadout({ weight, height }: { weight: string; height: string }) {
  const { t, i18n } = useTranslation();
  const value = bmi(measureValue(weight), measureValue(height));
  const cls = bmiClass(value);
  return (
    <div className="field">
      <span className="field-label">{t('patientAdmin.fields.bmi')}</span>
      <output data-testid="bmi">
        {formatNumber(value, i18n.language, 2)}
        {cls && ` · ${t(`patientAdmin.bmiClass.${cls}`)}`}
      </output>
    </div>
  );
}

/** Conditions as chips with a fuzzy search; None rules are the caller's (toggle). */
export function ConditionPicker({
  diseases,
  selected,
  onToggle,
  error,
  disabled,
}: {
  diseases: readonly Disease[];
  selected: readonly number[];
  onToggle: (id: number) => void;
  error?: string | null;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const id = useId();
  const [query, setQuery] = useState('');
  const byId = new Map(diseases.map((d) => [d.disease_id, d]));
  const matches = diseases.filter((d) => !selected.includes(d.disease_id) && (fuzzyMatch(d.disease_description, query) || fuzzyMatch(conditionName(t, d)!, query)));
  return (
    <Wrap id={id} label={t('patientAdmin.fields.conditions')} error={error}>
      <div className="chips" data-testid="condition-chips">
        {selected.map((d) => {
          const name = conditionName(t, byId.get(d)) ?? String(d);
          return (
            <span key={d} className="chip" data-testid="condition-chip">
              {name}
              {canRemoveChip(selected, d) && !disabled && (
                <button type="button" className="chip-remove" aria-label={t('patientAdmin.fields.removeCondition', { name })} onClick={() => onToggle(d)}>
                  ×
                </button>
              )}
            </span>
          );
        })}
      </div>
      <input id={id} placeholder={t('patientAdmin.fields.conditionSearch')} value={query} onChange={(e) => setQuery(e.target.value)} disabled={disabled} data-testid="condition-search" />
      {query && (
        <ul className="pick-list" data-testid="condition-options">
          {matches.length === 0 ? (
            <li className="muted">{t('patientAdmin.errors.noCondition')}</li>
          ) : (
            matches.slice(0, 8).map((d) => (
              <li key={d.disease_id}>
                <button
                  type="button"
                  className="button-link"
                  disabled={disabled}
                  onClick={() => {
                    onToggle(d.disease_id);
                    setQuery('');
                  }}
                  data-testid="condition-option"
                >
                  {conditionName(t, d)}
                </button>
              </li>
            ))
          )}
        </ul>
      )}
    </Wrap>
  );
}
