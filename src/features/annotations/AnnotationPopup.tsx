import { useMutation } from '@tanstack/react-query';
import { memo, useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../api/errors';
import { ConfirmDialog } from '../../ui/ConfirmDialog';
import type { AnnotationDraft } from './api';
import { CategoryPanel } from './CategoryPanel';
import { annotationErrors, DEFAULT_COLOR, DEFAULT_DURATION_S, DEFAULT_LABEL, escapeText, splitSeconds, type Annotation, type Category } from './model';
import { FORGET_AT_ONCE } from './queries';
import { TimeFields, type HMS } from './TimeFields';
import { clockSeconds, instantOfClock, zoneLabel } from './time';
import { channelName, commentText } from '../../builtInNames';

export type PopupMode = 'add' | 'edit' | 'view';

interface PopupNight {
  startMs: number;
  stopMs: number;
  timezone: string;
}

interface Props {
  mode: PopupMode;
  night: PopupNight;
  channels: string[];
  categories: Category[];
  /** The annotation viewed or edited; absent when adding. */
  annotation?: Annotation;
  /** Prefill of a new annotation (a selection on a chart, the current window). */
  prefill?: { startMs: number; durationS?: number; kpis?: string[]; label?: number };
  readOnly: boolean;
  onSave(draft: AnnotationDraft): Promise<unknown>;
  onDelete?(): Promise<unknown>;
  onMode(mode: PopupMode): void;
  onClose(): void;
  categoryActions: Pick<Parameters<typeof CategoryPanel>[0], 'onCreate' | 'onUpdate' | 'onDelete'>;
}

const toSeconds = (v: HMS) => Number(v.h || 0) * 3600 + Number(v.m || 0) * 60 + Number(v.s || 0);
const validHms = (v: HMS) => Number(v.h || 0) <= 23 && Number(v.m || 0) <= 59 && Number(v.s || 0) <= 59;

/** The popup's fields, seeded from the annotation or the prefill, and the save that checks them first. */
function useAnnotationForm(p: Props) {
  const a = p.annotation;
  const zone = p.night.timezone;
  const startMs = a?.start_ms ?? p.prefill?.startMs ?? p.night.startMs;
  const durationMs = a ? a.end_ms - a.start_ms : (p.prefill?.durationS ?? DEFAULT_DURATION_S) * 1000;
  // What the fields showed first: a field left as it was keeps the mark's own time, to the millisecond.
  const [seeded] = useState(() => ({ start: splitSeconds(clockSeconds(startMs, zone)), duration: splitSeconds(durationMs / 1000) }));
  const [start, setStart] = useState<HMS>(seeded.start);
  const [duration, setDuration] = useState<HMS>(seeded.duration);
  const [kpis, setKpis] = useState<string[]>(a?.kpiList ?? p.prefill?.kpis ?? []);
  const [label, setLabel] = useState<number | null>(a?.label ?? p.prefill?.label ?? DEFAULT_LABEL);
  const [color, setColor] = useState<string>(a?.color_code ?? p.categories.find((c) => c.label_id === (p.prefill?.label ?? DEFAULT_LABEL))?.color_code ?? DEFAULT_COLOR);
  const [comment, setComment] = useState(a?.comment ?? '');
  const [errors, setErrors] = useState<string[]>([]);
  const [serverError, setServerError] = useState<string | null>(null);

  const write = useMutation({
    gcTime: FORGET_AT_ONCE,
    mutationFn: (draft: AnnotationDraft) => p.onSave(draft),
    onMutate: () => setServerError(null),
    onSuccess: () => p.onClose(),
    onError: (err) => setServerError(err instanceof ApiError ? err.message : String(err)),
  });

  const save = () => {
    const durationS = validHms(duration) ? toSeconds(duration) : null;
    const found = annotationErrors(kpis, durationS, label);
    if (!validHms(start)) found.push('annotations.errors.start');
    setErrors(found);
    if (found.length) return;
    // Of a mark being edited only what was changed is taken from the fields (whole seconds):
    // editing a comment does not move an imported mark that starts at 100.5 s and lasts 10.25 s.
    // A new mark is the fields' whole seconds (a drag's prefill is no finer than its pixels).
    const from = a && toSeconds(start) === toSeconds(seeded.start) ? a.start_ms : instantOfClock(toSeconds(start), p.night.startMs, zone);
    const length = a && toSeconds(duration) === toSeconds(seeded.duration) ? a.end_ms - a.start_ms : toSeconds(duration) * 1000;
    write.mutate({
      kpi: kpis,
      start_time: from,
      end_time: from + length,
      label: label!,
      color_code: color,
      comment: escapeText(comment),
    });
  };
  const pickCategory = useCallback((c: Category) => {
    setLabel(c.label_id);
    setColor(c.color_code);
  }, []);
  const fields = { start, setStart, duration, setDuration, kpis, setKpis, label, pickCategory, comment, setComment };
  return { zone, startMs, fields, errors, serverError, setServerError, busy: write.isPending, save };
}

/** One checkbox a channel: the channels the annotation is on (not drawn again while a save is on its way). */
const KpiChoices = memo(function KpiChoices({ channels, kpis, disabled, onChange }: { channels: string[]; kpis: string[]; disabled: boolean; onChange(kpis: string[]): void }) {
  const { t, i18n } = useTranslation();
  return (
    <div className="kpi-choices">
      {channels.map((c) => (
        <label key={c} className="check">
          <input type="checkbox" disabled={disabled} checked={kpis.includes(c)} onChange={(e) => onChange(e.target.checked ? [...kpis, c] : kpis.filter((k) => k !== c))} data-testid={`annotation-kpi-${c}`} />
          {channelName(t, i18n.language, c)}
        </label>
      ))}
    </div>
  );
});

interface ActionsProps {
  mode: PopupMode;
  readOnly: boolean;
  canDelete: boolean;
  busy: boolean;
  onEdit(): void;
  onDelete(): void;
  onClose(): void;
  onSave(): void;
}

/** The popup's buttons: to edit (from view), delete, close and save (not when viewing). */
function PopupActions(p: ActionsProps) {
  const { t } = useTranslation();
  const viewing = p.mode === 'view' || p.readOnly;
  return (
    <footer className="popup-actions">
      {p.mode === 'view' && !p.readOnly && (
        <button type="button" className="button" onClick={p.onEdit} data-testid="annotation-edit">{t('annotations.popup.toEdit')}</button>
      )}
      {p.canDelete && !p.readOnly && (
        <button type="button" className="button button-danger" onClick={p.onDelete} data-testid="annotation-delete">{t('annotations.delete')}</button>
      )}
      <button type="button" className="button" onClick={p.onClose}>{t('annotations.close')}</button>
      {!viewing && (
        <button type="button" className="button button-primary" disabled={p.busy} onClick={p.onSave} data-testid="annotation-save">{t('annotations.save')}</button>
      )}
    </footer>
  );
}

/**
 * The Add / Edit / View annotation popup (spec 2 §2, §4, §5); view and edit are exclusive.
 * Not drawn again when the night's list changes under it (a save shows in the list at once).
 */
export const AnnotationPopup = memo(function AnnotationPopup(p: Props) {
  const { t, i18n } = useTranslation();
  const { zone, startMs, fields: f, errors, serverError, setServerError, busy, save } = useAnnotationForm(p);
  const [confirming, setConfirming] = useState(false);
  const dialog = useRef<HTMLDialogElement>(null);
  const viewing = p.mode === 'view' || p.readOnly;

  useEffect(() => {
    const d = dialog.current;
    if (d && !d.open) d.showModal();
  }, []);

  const title = t(p.mode === 'add' ? 'annotations.popup.add' : p.mode === 'edit' ? 'annotations.popup.edit' : 'annotations.popup.view');
  return (
    <dialog ref={dialog} className="annotation-popup" aria-label={title} onClose={p.onClose} data-testid="annotation-popup" data-mode={p.mode}>
      <header className="popup-head">
        <h3>{title}</h3>
        <span className="muted" data-testid="annotation-zone">{zone} ({zoneLabel(startMs, zone)})</span>
      </header>
      <div className="popup-grid">
        <label>{t('annotations.popup.start')}</label>
        <TimeFields value={f.start} onChange={f.setStart} disabled={viewing} label={t('annotations.popup.start')} testId="annotation-start" />
        <label>{t('annotations.popup.duration')}</label>
        <TimeFields value={f.duration} onChange={f.setDuration} disabled={viewing} label={t('annotations.popup.duration')} testId="annotation-duration" />
        <label>{t('annotations.popup.channels')}</label>
        <KpiChoices channels={p.channels} kpis={f.kpis} disabled={viewing} onChange={f.setKpis} />
        <label>{t('annotations.popup.category')}</label>
        <CategoryPanel categories={p.categories} selected={f.label} readOnly={viewing} onSelect={f.pickCategory} {...p.categoryActions} />
        <label htmlFor="annotation-comment">{t('annotations.popup.comment')}</label>
        <textarea id="annotation-comment" value={viewing ? commentText(t, i18n.language, f.comment) : f.comment} maxLength={10240} disabled={viewing} onChange={(e) => f.setComment(e.target.value)} data-testid="annotation-comment" />
      </div>
      {errors.map((e) => (
        <p key={e} className="field-error" role="alert">{t(e as 'annotations.errors.kpi')}</p>
      ))}
      {serverError && <p className="field-error" role="alert" data-testid="annotation-error">{serverError}</p>}
      <PopupActions mode={p.mode} readOnly={p.readOnly} canDelete={!!(p.annotation && p.onDelete)} busy={busy} onEdit={() => p.onMode('edit')} onDelete={() => setConfirming(true)} onClose={p.onClose} onSave={save} />
      <ConfirmDialog
        open={confirming}
        message={t('annotations.confirmDelete')}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          void p.onDelete!().then(p.onClose, (err: unknown) => setServerError(err instanceof ApiError ? err.message : String(err)));
        }}
      />
    </dialog>
  );
});
