import { useTranslation } from 'react-i18next';

/** Catalogue entries under `static.` that are a document of headed sections. */
export type DocumentId = 'privacy' | 'terms' | 'deviceInstructions' | 'userManual' | 'patientSheet';

interface Section {
  heading: string;
  body: string;
}

/**
 * A policy or guide from the catalogue. Fields are read one by one so a partly
 * translated document falls back to English field by field, not as a whole.
 */
export function DocumentPage({ id }: { id: DocumentId }) {
  const { t, i18n } = useTranslation();
  const sections = t(`static.${id}.sections`, { returnObjects: true }) as unknown as Section[];
  const updatedKey = `static.${id}.updated`;
  const updated = i18n.exists(updatedKey) ? t(updatedKey as 'static.privacy.updated') : null;
  return (
    <article className="document" data-testid={`document-${id}`}>
      <h2 className="document-title">{t(`static.${id}.title`)}</h2>
      {updated && <p className="document-meta">{t('common.lastUpdated', { date: updated })}</p>}
      <p className="document-intro">{t(`static.${id}.intro`)}</p>
      {Array.isArray(sections) &&
        sections.map((s, i) => (
          <section key={i} className="document-section">
            <h3>{s.heading}</h3>
            <p>{s.body}</p>
          </section>
        ))}
    </article>
  );
}
