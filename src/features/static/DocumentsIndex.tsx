import { useTranslation } from 'react-i18next';
import { Link } from 'wouter';
import { MORE_MENU } from '../shell/nav';

/** The 'document link' of the More menu: every reference document in one list. */
export function DocumentsIndex() {
  const { t } = useTranslation();
  const documents = MORE_MENU.filter((e) => e.id !== 'documents' && !e.external);
  return (
    <article className="document" data-testid="document-index">
      <h2 className="document-title">{t('static.documents.title')}</h2>
      <p className="document-intro">{t('static.documents.intro')}</p>
      <ul className="document-list">
        {documents.map((d) => (
          <li key={d.id}>
            <Link href={d.href}>{t(d.labelKey)}</Link>
          </li>
        ))}
      </ul>
    </article>
  );
}
