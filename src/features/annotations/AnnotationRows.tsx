import { memo, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isReadOnly, vendorName, type Annotation, type Category } from './model';
import { formatTime } from '../../format';
import { ChannelsText } from './channelNames';
import { categoryName, commentText } from '../../builtInNames';

/** Every row's height (CSS px): label, time and channels, and one line of comment, cut with an ellipsis. */
const ROW_HEIGHT = 64;
/** Rows drawn beyond each edge of the scroll box, so a fast scroll shows no gap. */
const OVERSCAN = 6;
/** The least height of the list's box (CSS px) when it has that many rows. */
const MIN_BOX = 320;

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
          <span className="muted">{time} · {t(a.scored_by === 'scorer' ? 'annotations.scorerOrigin' : 'annotations.deviceOrigin', { vendor: vendorName(a.vendor) })}</span>
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
          {time} · <span data-testid="annotation-row-duration">{a.duration}</span> · <ChannelsText codes={a.kpiList} />
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

/** The scroll box's offset and height, followed as it scrolls and resizes. */
function useScrollWindow(box: React.RefObject<HTMLDivElement | null>): { top: number; height: number } {
  const [view, setView] = useState({ top: 0, height: 0 });
  useLayoutEffect(() => {
    const el = box.current;
    if (!el) return;
    const update = () => setView((v) => (v.top === el.scrollTop && v.height === el.clientHeight ? v : { top: el.scrollTop, height: el.clientHeight }));
    update();
    el.addEventListener('scroll', update, { passive: true });
    const resize = new ResizeObserver(update);
    resize.observe(el);
    return () => {
      el.removeEventListener('scroll', update);
      resize.disconnect();
    };
  }, [box]);
  return view;
}

/**
 * The annotation list, windowed (issue 36 point 1): rows of one height, and only those in the
 * scroll box (and OVERSCAN either side) in the page, so a night of 10,000 annotations costs
 * what one of 30 does. Decision 0972 says why not a library.
 */
export function AnnotationRows({ annotations, categories, picked, ...rest }: ListProps) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const view = useScrollWindow(box);
  // Before the box is measured, a screenful.
  const height = view.height || 600;
  const first = Math.max(0, Math.floor(view.top / ROW_HEIGHT) - OVERSCAN);
  const last = Math.min(annotations.length, Math.ceil((view.top + height) / ROW_HEIGHT) + OVERSCAN);
  return (
    // A scroll box in the sidebar's grid would be squeezed to nothing (the sidebar has a maximum
    // height): its floor is its rows' height, up to MIN_BOX.
    <div ref={box} className="annotation-list" style={{ minBlockSize: Math.min(annotations.length * ROW_HEIGHT, MIN_BOX) }} data-testid="annotation-list" data-count={annotations.length} role="list" aria-label={t('annotations.listLabel', { count: annotations.length })}>
      <div className="annotation-list-inner" style={{ height: annotations.length * ROW_HEIGHT }}>
        {annotations.slice(first, last).map((a, k) => (
          <div key={a.annotation_map_id} role="listitem" className="annotation-list-item" style={{ transform: `translateY(${(first + k) * ROW_HEIGHT}px)`, height: ROW_HEIGHT }}>
            <Row a={a} category={categories.get(a.label)} picked={picked.has(a.annotation_map_id)} {...rest} />
          </div>
        ))}
      </div>
    </div>
  );
}
