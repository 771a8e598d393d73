import { useTranslation } from 'react-i18next';

export type PlaceholderId = 'realtime' | 'deviceConfig' | 'dataCenter' | 'addPatient';

const HEADINGS = {
  realtime: 'nav.realtime',
  deviceConfig: 'nav.deviceConfig',
  dataCenter: 'nav.dataCenter',
  addPatient: 'placeholder.addPatientTitle',
} as const;

/** An honest stand-in for a screen built in a later issue: what it will do, and that it is not here yet. */
export function PlaceholderPage({ id }: { id: PlaceholderId }) {
  const { t } = useTranslation();
  return (
    <section className="card placeholder" data-testid={`placeholder-${id}`} aria-labelledby={`placeholder-${id}-title`}>
      <h2 id={`placeholder-${id}-title`} className="placeholder-title">
        {t(HEADINGS[id])}
      </h2>
      <p>{t(`placeholder.${id}`)}</p>
      <p className="muted">{t('placeholder.later')}</p>
    </section>
  );
}
