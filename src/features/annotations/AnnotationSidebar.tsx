import { memo, useCallback, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIsMutating } from '@tanstack/react-query';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { useStableCallback } from '../../ui/useStableCallback';
import type { Annotation, Category, Visibility } from './model';
import { AnnotationFilters } from './AnnotationFilters';
import { AnnotationRows } from './AnnotationRows';
import { incrementalFilter } from './incremental';
import { filtersNothing, NO_FILTER, passes, type ListFilter } from './listFilter';
import type { Tally } from './tally';

interface Props {
  /** The annotations the show toggles leave visible, in start order. */
  annotations: readonly Annotation[];
  /** Counts and filter choices of every annotation shown (toggled off or not). */
  tally: Tally;
  categories: Category[];
  visibility: Visibility;
  timezone: string;
  readOnly: boolean;
  /** Paid memberships have no generate actions (spec 2 §1). */
  canGenerate: boolean;
  generating: boolean;
  notice: string | null;
  onVisibility(v: Visibility): void;
  onView(a: Annotation): void;
  onEdit(a: Annotation): void;
  onDeleteMany(ids: number[]): Promise<unknown>;
  onGenerate(type: 'system' | 'desaturation'): void;
  onExport(): void;
  onAdd(): void;
}

/** One kind's show toggle and count; drawn again only when they change. */
const ShowToggle = memo(function ShowToggle({ kind, on, count, onToggle }: { kind: keyof Visibility; on: boolean; count: number; onToggle(kind: keyof Visibility): void }) {
  const { t } = useTranslation();
  return (
    <label className="check">
      <input type="checkbox" checked={on} onChange={() => onToggle(kind)} data-testid={`annotations-show-${kind}`} />
      {t(`annotations.show.${kind}`)} <span className="count" data-testid={`annotations-count-${kind}`}>{count}</span>
    </label>
  );
});

/**
 * The annotation list beside the charts: counts, show toggles, view/edit, bulk deletion, actions.
 * Drawn again only when one of its props changes (a write changes the list and the counts).
 */
export const AnnotationSidebar = memo(function AnnotationSidebar(p: Props) {
  const { t } = useTranslation();
  const [picked, setPicked] = useState<ReadonlySet<number>>(new Set());
  const [filter, setFilter] = useState<ListFilter>(NO_FILTER);
  // Writes still on their way to the server (shown at once, saved a moment later).
  const saving = useIsMutating();
  const c = p.tally.counts;
  // The list comes sorted by start (the server's order, kept by every change of the cache).
  const toList = useMemo(() => (filtersNothing(filter) ? null : incrementalFilter((a: Annotation) => passes(a, filter))), [filter]);
  const listed = useMemo(() => (toList ? toList(p.annotations) : p.annotations), [toList, p.annotations]);
  const byId = useMemo(() => new Map(p.categories.map((x) => [x.label_id, x])), [p.categories]);
  const pick = useCallback((id: number, on: boolean) => setPicked((now) => {
    const next = new Set(now);
    if (on) next.add(id);
    else next.delete(id);
    return next;
  }), []);
  const toggle = useStableCallback((key: keyof Visibility) => p.onVisibility({ ...p.visibility, [key]: !p.visibility[key] }));

  const [confirming, setConfirming] = useState(false);
  const deleteMany = async () => {
    setConfirming(false);
    await p.onDeleteMany([...picked]);
    setPicked(new Set());
  };

  return (
    <aside className="annotation-sidebar" data-testid="annotation-sidebar" data-saving={saving} aria-label={t('annotations.title')}>
      <div className="annotation-head">
        <h3>{t('annotations.title')}</h3>
        {!p.readOnly && (
          <button type="button" className="button button-primary" onClick={p.onAdd} data-testid="annotation-add">{t('annotations.add')}</button>
        )}
      </div>
      <div className="annotation-toggles">
        {(['system', 'custom', 'desaturation', 'device'] as const).map((k) => (
          <ShowToggle key={k} kind={k} on={p.visibility[k]} count={c[k]} onToggle={toggle} />
        ))}
      </div>
      {!p.readOnly && p.canGenerate && (
        <div className="annotation-actions">
          <button type="button" className="button" disabled={p.generating} onClick={() => p.onGenerate('system')} data-testid="generate-system">{t('annotations.generate.system')}</button>
          <button type="button" className="button" disabled={p.generating} onClick={() => p.onGenerate('desaturation')} data-testid="generate-desaturation">{t('annotations.generate.desaturation')}</button>
        </div>
      )}
      {p.notice && <p className="muted annotation-notice" role="status" data-testid="annotations-notice">{p.notice}</p>}
      <AnnotationFilters filter={filter} categories={p.categories} channels={p.tally.channels} authors={p.tally.authors} onChange={setFilter} />
      {listed.length === 0 ? (
        <p className="muted" data-testid="annotations-empty">{t('annotations.empty')}</p>
      ) : (
        <AnnotationRows annotations={listed} categories={byId} picked={picked} timezone={p.timezone} readOnly={p.readOnly} onPick={pick} onView={p.onView} onEdit={p.onEdit} />
      )}
      <div className="annotation-actions">
        {!p.readOnly && (
          <button type="button" className="button button-danger" disabled={!picked.size} onClick={() => setConfirming(true)} data-testid="annotations-delete-selected">
            {t('annotations.deleteSelected', { count: picked.size })}
          </button>
        )}
        <button type="button" className="button" onClick={p.onExport} data-testid="annotations-export">{t('annotations.export')}</button>
      </div>
      <p className="muted annotation-keys">{t('annotations.keysHelp')}</p>
      <ConfirmDialog open={confirming} message={t('annotations.confirmDeleteMany', { count: picked.size })} onCancel={() => setConfirming(false)} onConfirm={() => void deleteMany()} />
    </aside>
  );
});
