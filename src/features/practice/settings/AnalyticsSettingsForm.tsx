import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Alert } from '../../../ui/Alert';
import { useAction } from '../../../ui/useAction';
import { DESATURATION_RULES, RII_DIVISORS, saveAnalyticsSettings, type PracticeSettings, type RiiDivisor } from '../api';

/** The desaturation rule and RII divisor every index of the practice is computed with. */
export function AnalyticsSettingsForm({ settings, onSaved }: { settings: PracticeSettings; onSaved: () => Promise<void> }) {
  const { t } = useTranslation();
  const [rule, setRule] = useState<3 | 4>(settings.desaturation_rule);
  const [divisor, setDivisor] = useState<RiiDivisor>(settings.rii_divisor);
  const action = useAction();
  const editable = settings.editable.analytics;
  const dirty = rule !== settings.desaturation_rule || divisor !== settings.rii_divisor;
  return (
    <form
      className="settings-block"
      aria-labelledby="settings-analytics-title"
      data-testid="settings-analytics"
      onSubmit={(e) => {
        e.preventDefault();
        action.run(async () => {
          await saveAnalyticsSettings({ desaturation_rule: rule, rii_divisor: divisor });
          await onSaved();
        });
      }}
    >
      <h3 id="settings-analytics-title">{t('practice.settings.analytics.title')}</h3>
      {!editable && <p className="muted" data-testid="settings-analytics-readonly">{t('practice.settings.analytics.readOnly')}</p>}
      <fieldset disabled={!editable || action.busy}>
        <legend>{t('practice.settings.analytics.rule')}</legend>
        {DESATURATION_RULES.map((r) => (
          <label key={r} className="inline-choice">
            <input type="radio" name="desaturation_rule" value={r} checked={rule === r} onChange={() => setRule(r)} data-testid={`settings-rule-${r}`} />
            {t('practice.settings.analytics.ruleValue', { percent: r })}
          </label>
        ))}
        <p className="muted">{t('practice.settings.analytics.ruleHint')}</p>
      </fieldset>
      <label className="field">
        <span>{t('practice.settings.analytics.divisor')}</span>
        <select value={divisor} disabled={!editable || action.busy} onChange={(e) => setDivisor(e.target.value as RiiDivisor)} data-testid="settings-divisor">
          {RII_DIVISORS.map((d) => (
            <option key={d} value={d}>
              {t(`profile.rii.${d}`)}
            </option>
          ))}
        </select>
      </label>
      {action.problem && <Alert tone="error" testId="settings-analytics-problem">{action.problem}</Alert>}
      {editable && (
        <button type="submit" className="button" disabled={!dirty || action.busy} data-testid="settings-analytics-save">
          {t('practice.settings.save')}
        </button>
      )}
    </form>
  );
}
