import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import { counts, isReadOnly, isVisible, vendorName, type Annotation, type Category, type Visibility } from './model';
import { formatTime } from '../../format';
import { categoryName, commentText } from '../../builtInNames';

interface Props {
  annotations: Annotation[];
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

/** The annotation list beside the charts: counts, show toggles, view/edit, bulk deletion, actions. */
export function AnnotationSidebar(p: Props) {
  const { t, i18n } = useTranslation();
  const [picked, setPicked] = useState<Set<number>>(new Set());
  const c = counts(p.annotations);
  const shown = useMemo(() => p.annotations.filter((a) => isVisible(a, p.visibility)).sort((a, b) => a.start_ms - b.start_ms), [p.annotations, p.visibility]);
  const byId = new Map(p.categories.map((x) => [x.label_id, x]));
  const time = (ms: number) => formatTime(ms, p.timezone, i18n.language);
  const toggle = (key: keyof Visibility) => p.onVisibility({ ...p.visibility, [key]: !p.visibility[key] });

  const [confirming, setConfirming] = useState(false);
  const deleteMany = async () => {
    setConfirming(false);
    await p.onDeleteMany([...picked]);
    setPicked(new Set());
  };

  return (
    <aside className="annotation-sidebar" data-testid="annotation-sidebar" aria-label={t('annotations.title')}>
      <div className="annotation-head">
        <h3>{t('annotations.title')}</h3>
        {!p.readOnly && (
          <button type="button" className="button button-primary" onClick={p.onAdd} data-testid="annotation-add">{t('annotations.add')}</button>
        )}
      </div>
      <div className="annotation-toggles">
        {(['system', 'custom', 'desaturation', 'device'] as const).map((k) => (
          <label key={k} className="check">
            <input type="checkbox" checked={p.visibility[k]} onChange={() => toggle(k)} data-testid={`annotations-show-${k}`} />
            {t(`annotations.show.${k}`)} <span className="count" data-testid={`annotations-count-${k}`}>{c[k]}</span>
          </label>
        ))}
      </div>
      {!p.readOnly && p.canGenerate && (
        <div className="annotation-actions">
          <button type="button" className="button" disabled={p.generating} onClick={() => p.onGenerate('system')} data-testid="generate-system">{t('annotations.generate.system')}</button>
          <button type="button" className="button" disabled={p.generating} onClick={() => p.onGenerate('desaturation')} data-testid="generate-desaturation">{t('annotations.generate.desaturation')}</button>
        </div>
      )}
      {p.notice && <p className="muted" role="status" data-testid="annotations-notice">{p.notice}</p>}
      {shown.length === 0 ? (
        <p className="muted" data-testid="annotations-empty">{t('annotations.empty')}</p>
      ) : (
        <ul className="annotation-list">
          {shown.map((a) =>
            isReadOnly(a) ? (
              <li key={a.annotation_map_id} className="annotation-row annotation-device" data-testid="annotation-row-device">
                <button type="button" className="annotation-open" onClick={() => p.onView(a)} title={a.file_name}>
                  <span className="swatch swatch-device" style={{ background: a.color_code }} aria-hidden="true" />
                  <span className="annotation-label" title={a.comment}>{truncate(a.comment)}</span>
                  <span className="muted">{time(a.start_ms)} · {t('annotations.deviceOrigin', { vendor: vendorName(a.vendor) })}</span>
                </button>
              </li>
            ) : (
            <li key={a.annotation_map_id} className="annotation-row" data-testid="annotation-row" data-id={a.annotation_map_id}>
              {!p.readOnly && (
                <input
                  type="checkbox"
                  aria-label={t('annotations.select')}
                  checked={picked.has(a.annotation_map_id)}
                  onChange={(e) => {
                    const next = new Set(picked);
                    if (e.target.checked) next.add(a.annotation_map_id);
                    else next.delete(a.annotation_map_id);
                    setPicked(next);
                  }}
                />
              )}
              <button type="button" className="annotation-open" onClick={() => p.onView(a)}>
                <span className="swatch" style={{ background: a.color_code }} aria-hidden="true" />
                <span className="annotation-label" title={categoryName(t, byId.get(a.label))}>{truncate(categoryName(t, byId.get(a.label)) ?? String(a.label))}</span>
                <span className="muted">
                  {time(a.start_ms)} · <span data-testid="annotation-row-duration">{a.duration}</span> · {a.kpiList.map((c) => t(`night.channels.${c}` as 'night.channels.BR', { defaultValue: c })).join(', ')}
                </span>
                {a.comment && <span className="annotation-comment muted" data-testid="annotation-row-comment">{commentText(t, i18n.language, a.comment)}</span>}
              </button>
              {!p.readOnly && (
                <button type="button" className="icon-button" aria-label={t('annotations.popup.toEdit')} onClick={() => p.onEdit(a)} data-testid="annotation-row-edit">✎</button>
              )}
            </li>
            ),
          )}
        </ul>
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
}

/** Labels are cut at 20 characters with an ellipsis (spec 2 §9). */
const truncate = (s: string) => (s.length > 20 ? `${s.slice(0, 20)}…` : s);
