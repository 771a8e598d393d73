import { memo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { useVirtualizer } from '@tanstack/react-virtual';
import { isReadOnly, vendorName, type Annotation, type Category } from './model';
import { formatTime } from '../../format';
import { categoryName, commentText } from '../../builtInNames';

/** A row's height before it is measured (one line of label, one of time and channels). */
const ROW_ESTIMATE = 52;

interface RowProps {
  a: Annotation;
  category: Category | undefined;
  timezone: string;
  readOnly: boolean;
  picked: boolean;
  onPick(id: number, on: boolean): void;
  onView(a: Annotation): void;
  onEdit(a: Annotation): void;
}

/** Labels are cut at 20 characters with an ellipsis (spec 2 §9). */
const truncate = (s: string) => (s.length > 20 ? `${s.slice(0, 20)}…` : s);

/** One annotation of the list; drawn again only when it (or its selection) changed. */
const Row = memo(function Row({ a, category, timezone, readOnly, picked, onPick, onView, onEdit }: RowProps) {
  const { t, i18n } = useTranslation();
  const time = formatTime(a.start_ms, timezone, i18n.language);
  if (isReadOnly(a))
    return (
      <div className="annotation-row annotation-device" data-testid="annotation-row-device">
        <button type="button" className="annotation-open" onClick={() => onView(a)} title={a.file_name}>
          <span className="swatch swatch-device" style={{ background: a.color_code }} aria-hidden="true" />
          <span className="annotation-label" title={a.comment}>{truncate(a.comment)}</span>
          <span className="muted">{time} · {t('annotations.deviceOrigin', { vendor: vendorName(a.vendor) })}</span>
        </button>
      </div>
    );
  const name = categoryName(t, category);
  return (
    <div className="annotation-row" data-testid="annotation-row" data-id={a.annotation_map_id}>
      {!readOnly && <input type="checkbox" aria-label={t('annotations.select')} checked={picked} onChange={(e) => onPick(a.annotation_map_id, e.target.checked)} />}
      <button type="button" className="annotation-open" onClick={() => onView(a)}>
        <span className="swatch" style={{ background: a.color_code }} aria-hidden="true" />
        <span className="annotation-label" title={name}>{truncate(name ?? String(a.label))}</span>
        <span className="muted">
          {time} · <span data-testid="annotation-row-duration">{a.duration}</span> · {a.kpiList.map((c) => t(`night.channels.${c}` as 'night.channels.BR', { defaultValue: c })).join(', ')}
        </span>
        {a.comment && <span className="annotation-comment muted" data-testid="annotation-row-comment">{commentText(t, i18n.language, a.comment)}</span>}
      </button>
      {!readOnly && <button type="button" className="icon-button" aria-label={t('annotations.popup.toEdit')} onClick={() => onEdit(a)} data-testid="annotation-row-edit">✎</button>}
    </div>
  );
});

interface ListProps extends Omit<RowProps, 'a' | 'category' | 'picked'> {
  annotations: readonly Annotation[];
  categories: ReadonlyMap<number, Category>;
  picked: ReadonlySet<number>;
}

/**
 * The annotation list, windowed (issue 36 point 1): only the rows in its scroll box (and a few
 * either side) are in the page, so a night of 10,000 annotations costs what one of 30 does.
 */
export function AnnotationRows({ annotations, categories, picked, ...rest }: ListProps) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const rows = useVirtualizer({
    count: annotations.length,
    getScrollElement: () => box.current,
    estimateSize: () => ROW_ESTIMATE,
    overscan: 6,
    getItemKey: (i) => annotations[i].annotation_map_id,
  });
  return (
    <div ref={box} className="annotation-list" data-testid="annotation-list" data-count={annotations.length} role="list" aria-label={t('annotations.listLabel', { count: annotations.length })}>
      <div className="annotation-list-inner" style={{ height: rows.getTotalSize() }}>
        {rows.getVirtualItems().map((v) => {
          const a = annotations[v.index];
          return (
            <div key={v.key} role="listitem" data-index={v.index} ref={rows.measureElement} className="annotation-list-item" style={{ transform: `translateY(${v.start}px)` }}>
              <Row a={a} category={categories.get(a.label)} picked={picked.has(a.annotation_map_id)} {...rest} />
            </div>
          );
        })}
      </div>
    </div>
  );
}
