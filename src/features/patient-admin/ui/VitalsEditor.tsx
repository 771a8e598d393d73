import { useTranslation } from 'react-i18next';
import { acceptMeasureInput } from '../logic/measures';
import { VITAL_PAIRS, type VitalForm, type VitalGroup, type VitalMessage } from '../logic/vitals';

const ROW_LABEL: Record<string, { band: 'moderate' | 'severe'; side: 'fast' | 'slow' | null }> = {
  modFrom: { band: 'moderate', side: null },
  sevFrom: { band: 'severe', side: null },
  modFromF: { band: 'moderate', side: 'fast' },
  modFromS: { band: 'moderate', side: 'slow' },
  sevFromF: { band: 'severe', side: 'fast' },
  sevFromS: { band: 'severe', side: 'slow' },
};

/** The three threshold groups; the error sits above the block (spec 1 §5). */
export function VitalsEditor({ value, onChange, error, readOnly }: { value: VitalForm; onChange?: (v: VitalForm) => void; error: VitalMessage | null; readOnly?: boolean }) {
  const { t } = useTranslation();
  const set = (group: VitalGroup, key: string, text: string) => {
    const g = value[group] as Record<string, string>;
    onChange?.({ ...value, [group]: { ...g, [key]: acceptMeasureInput(g[key] ?? '', text) } });
  };
  return (
    <div className="vitals" data-testid="vitals">
      {error && (
        <p className="alert alert-error" role="alert" data-testid="vitals-error">
          {t(`patientAdmin.vitals.${error}`)}
        </p>
      )}
      {(['spo2', 'pr', 'br'] as const).map((group) => (
        <fieldset key={group} className="vital-group">
          <legend>{t(`patientAdmin.vitals.${group}`)}</legend>
          {VITAL_PAIRS[group].map(([from, to]) => {
            const label = ROW_LABEL[from]!;
            const g = value[group] as Record<string, string>;
            const name = `${t(`patientAdmin.vitals.${label.band}`)}${label.side ? ` · ${t(`patientAdmin.vitals.${label.side}`)}` : ''}`;
            return (
              <div key={from} className="vital-row">
                <span className="vital-label">{name}</span>
                {readOnly ? (
                  <span className="mono" data-testid={`vital-${group}-${from}`}>
                    {g[from]}–{g[to]}
                  </span>
                ) : (
                  <>
                    <input aria-label={`${name} ${t('patientAdmin.vitals.from')}`} value={g[from]} onChange={(e) => set(group, from, e.target.value)} data-testid={`vital-${group}-${from}`} inputMode="decimal" />
                    <span aria-hidden="true">–</span>
                    <input aria-label={`${name} ${t('patientAdmin.vitals.to')}`} value={g[to]} onChange={(e) => set(group, to, e.target.value)} data-testid={`vital-${group}-${to}`} inputMode="decimal" />
                  </>
                )}
              </div>
            );
          })}
        </fieldset>
      ))}
    </div>
  );
}
