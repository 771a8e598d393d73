import { useTranslation } from 'react-i18next';

interface Item {
  q: string;
  a: string;
}

/** Frequently asked questions as native disclosures: keyboard and screen reader ready. */
export function FaqPage() {
  const { t } = useTranslation();
  const items = t('static.faq.items', { returnObjects: true }) as unknown as Item[];
  return (
    <article className="document" data-testid="document-faq">
      <h2 className="document-title">{t('static.faq.title')}</h2>
      <p className="document-intro">{t('static.faq.intro')}</p>
      <div className="faq">
        {Array.isArray(items) &&
          items.map((item, i) => (
            <details key={i} className="faq-item">
              <summary>{item.q}</summary>
              <p>{item.a}</p>
            </details>
          ))}
      </div>
    </article>
  );
}
