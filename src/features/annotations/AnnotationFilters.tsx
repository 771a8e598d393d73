import { memo } from 'react';
import { useTranslation } from 'react-i18next';
import { categoryName, channelName } from '../../builtInNames';
import type { Category } from './model';
import type { ListFilter, Source } from './listFilter';

interface Props {
  filter: ListFilter;
  categories: readonly Category[];
  channels: readonly string[];
  authors: ReadonlyArray<{ id: number; name: string }>;
  onChange(f: ListFilter): void;
}

/** The list's filters: category, channel, author and source; each "all" by default. Drawn again only when its props change. */
export const AnnotationFilters = memo(function AnnotationFilters({ filter, categories, channels, authors, onChange }: Props) {
  const { t, i18n } = useTranslation();
  const num = (v: string) => (v === '' ? null : Number(v));
  return (
    <div className="annotation-filters" role="group" aria-label={t('annotations.filter.title')}>
      <label>
        {t('annotations.filter.category')}
        <select value={filter.category ?? ''} onChange={(e) => onChange({ ...filter, category: num(e.target.value) })} data-testid="annotations-filter-category">
          <option value="">{t('annotations.filter.all')}</option>
          {categories.map((c) => (
            <option key={c.label_id} value={c.label_id}>{categoryName(t, c)}</option>
          ))}
        </select>
      </label>
      <label>
        {t('annotations.filter.channel')}
        <select value={filter.channel ?? ''} onChange={(e) => onChange({ ...filter, channel: e.target.value || null })} data-testid="annotations-filter-channel">
          <option value="">{t('annotations.filter.all')}</option>
          {channels.map((c) => (
            <option key={c} value={c}>{channelName(t, i18n.language, c)}</option>
          ))}
        </select>
      </label>
      <label>
        {t('annotations.filter.author')}
        <select value={filter.author ?? ''} onChange={(e) => onChange({ ...filter, author: num(e.target.value) })} data-testid="annotations-filter-author">
          <option value="">{t('annotations.filter.all')}</option>
          {authors.map((a) => (
            <option key={a.id} value={a.id}>{a.name || t('annotations.filter.unnamed', { id: a.id })}</option>
          ))}
        </select>
      </label>
      <label>
        {t('annotations.filter.source')}
        <select value={filter.source ?? ''} onChange={(e) => onChange({ ...filter, source: (e.target.value || null) as Source | null })} data-testid="annotations-filter-source">
          <option value="">{t('annotations.filter.all')}</option>
          <option value={'device' satisfies Source}>{t('annotations.filter.sources.device')}</option>
          <option value={'automatic' satisfies Source}>{t('annotations.filter.sources.automatic')}</option>
          <option value={'human' satisfies Source}>{t('annotations.filter.sources.human')}</option>
        </select>
      </label>
    </div>
  );
});
