import { memo, type ClipboardEvent, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { digitsOnly, outOfRange } from './model';

export interface HMS {
  h: string;
  m: string;
  s: string;
}

const block = (e: ClipboardEvent | DragEvent) => e.preventDefault();

/** Three two-digit fields; digits only, paste and drop blocked, out-of-range values highlighted (spec 2 §5). */
export const TimeFields = memo(function TimeFields({ value, onChange, disabled, label, testId }: { value: HMS; onChange(v: HMS): void; disabled: boolean; label: string; testId: string }) {
  const { t } = useTranslation();
  const field = (k: keyof HMS) => (
    <input
      value={value[k]}
      inputMode="numeric"
      disabled={disabled}
      aria-label={`${label} ${t(`annotations.units.${k}`)}`}
      aria-invalid={outOfRange(value[k], k) || undefined}
      className={outOfRange(value[k], k) ? 'time-field time-invalid' : 'time-field'}
      onChange={(e) => onChange({ ...value, [k]: digitsOnly(e.target.value) })}
      onPaste={block}
      onDrop={block}
      data-testid={`${testId}-${k}`}
    />
  );
  return (
    <span className="time-fields">
      {field('h')}:{field('m')}:{field('s')}
    </span>
  );
});
