import type { UseQueryResult } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { Country } from '../../../contract/answers';
import { localCountries } from '../../builtInNames';

interface Props {
  query: UseQueryResult<Country[]>;
  value: string;
  onChange: (code: string) => void;
}

/** The country list from GET /countries; its code is what signup sends. */
export function CountrySelect({ query, value, onChange }: Props) {
  const { t, i18n } = useTranslation();
  const id = useId();
  const countries = localCountries(query.data ?? [], i18n.language);
  return (
    <div className="field">
      <label htmlFor={id}>{t('auth.signup.country')}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)} data-testid="signup-country" required>
        <option value="">{query.isPending ? t('auth.signup.countriesLoading') : t('auth.signup.countryPlaceholder')}</option>
        {countries.map((c) => (
          <option key={c.code} value={c.code}>
            {c.localName}
          </option>
        ))}
      </select>
      {query.isError && <p className="field-error">{t('auth.signup.countriesError')}</p>}
    </div>
  );
}
