import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { errorText } from '../../api/messages';
import { patientDetailPath } from '../../routes';
import { Alert } from '../../ui/Alert';
import { fetchSettings } from './api';
import { AnalyticsSettingsForm } from './settings/AnalyticsSettingsForm';
import { CategoryRowForm } from './settings/CategoryRowForm';
import { LabelMapForm } from './settings/LabelMapForm';
import '../../styles/practice.css';
import { categoryName } from '../../builtInNames';

const SETTINGS_KEY = ['practice', 'settings'] as const;

/**
 * /app/settings: the practice's settings in one place (issue 17 point 5): the desaturation
 * rule and RII divisor every index is computed with, the import label map and the
 * annotation categories. Each part is saved through its own route; what the caller may
 * not change is shown read-only (the server decides, GET /practice/settings says).
 */
export function SettingsPage() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const settings = useQuery({ queryKey: SETTINGS_KEY, queryFn: fetchSettings });
  const saved = async () => {
    await queryClient.invalidateQueries({ queryKey: SETTINGS_KEY });
    // Indices, summaries and the night screens' preferences follow the new settings.
    await queryClient.invalidateQueries({ predicate: (q) => q.queryKey[0] !== 'practice' });
  };
  const s = settings.data;
  const custom = s?.categories.filter((c) => c.type === 'custom') ?? [];
  const builtIn = s?.categories.filter((c) => c.type === 'built-in') ?? [];
  return (
    <section className="card practice-settings" data-testid="settings-page" aria-labelledby="settings-title">
      <h2 id="settings-title">{t('practice.settings.title')}</h2>
      <p className="muted">{t('practice.settings.intro')}</p>
      {settings.isError && <Alert tone="error">{errorText(t, settings.error)}</Alert>}
      {settings.isPending && <p className="muted loading" role="status">{t('common.loading')}</p>}
      {s && (
        <>
          <AnalyticsSettingsForm key={`${s.desaturation_rule}-${s.rii_divisor}`} settings={s} onSaved={saved} />

          <LabelMapForm key={JSON.stringify(s.label_map)} labelMap={s.label_map} editable={s.editable.label_map} onSaved={saved} />

          <section className="settings-block" aria-labelledby="settings-categories-title" data-testid="settings-categories">
            <h3 id="settings-categories-title">{t('practice.settings.categories.title')}</h3>
            <p className="muted">{t('practice.settings.categories.intro')}</p>
            <h4>{t('practice.settings.categories.builtIn')}</h4>
            <ul className="category-chips">
              {builtIn.map((c) => (
                <li key={c.label_id}>
                  <span className="swatch" style={{ background: c.color_code }} aria-hidden="true" /> {categoryName(t, c)}
                </li>
              ))}
            </ul>
            <h4>{t('practice.settings.categories.custom')}</h4>
            {custom.length === 0 && <p className="muted" data-testid="settings-categories-empty">{t('practice.settings.categories.empty')}</p>}
            {custom.length > 0 && (
              <table className="practice-table">
                <thead>
                  <tr>
                    <th scope="col">{t('practice.settings.categories.patient')}</th>
                    <th scope="col">{t('practice.settings.categories.label')}</th>
                    <th scope="col">{t('practice.settings.categories.color')}</th>
                    <th scope="col">{t('practice.settings.categories.actions')}</th>
                  </tr>
                </thead>
                <tbody>
                  {custom.map((c) => (
                    <CategoryRowForm
                      key={`${c.label_id}-${c.version}`}
                      category={c}
                      editable={s.editable.categories}
                      patientLink={<Link href={patientDetailPath(c.patient_id!)}>{c.patient_code}</Link>}
                      onSaved={saved}
                    />
                  ))}
                </tbody>
              </table>
            )}
          </section>
        </>
      )}
    </section>
  );
}
