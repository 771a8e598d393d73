import { useTranslation } from 'react-i18next';
import { formatNightDate } from '../../charts/core/format';
import type { NightInfo } from './types';

/** The night picker (spec 2 §2): only nights with recordings, dd MMM yyyy, newest first. */
export function NightPicker({ nights, value, onChange, disabled }: {
  nights: readonly NightInfo[];
  value: number;
  onChange: (night: number) => void;
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation();
  return (
    <label className="night-picker">
      <span>{t('night.picker.label')}</span>
      <select
        value={value}
        disabled={disabled}
        onChange={(e) => onChange(Number(e.target.value))}
        data-testid="night-picker"
      >
        {[...nights].reverse().map((n) => (
          <option key={n.recording_id} value={n.night}>
            {formatNightDate(n.night, i18n.language)}
          </option>
        ))}
      </select>
    </label>
  );
}
