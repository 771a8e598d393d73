import { useEffect, useMemo, useRef, useState } from 'react';
import '../../styles/annotations.css';
import { useSnapshot } from 'valtio';
import { ApiError } from '../../api/errors';
import { session } from '../../state/session';
import type { ViewController } from '../../state/view';
import { AnnotationPopup, type PopupMode } from './AnnotationPopup';
import { AnnotationSidebar } from './AnnotationSidebar';
import { downloadAnnotationsCsv, type AnnotationDraft, type NightRef } from './api';
import { onAnnotationRequest } from '../night/intents';
import { displayable, isReadOnly, isVisible, type Annotation, type Visibility } from './model';
import { useAnnotationMutations, useAnnotations, useCategories } from './queries';
import { useAnnotationKeys } from './useAnnotationKeys';
import { EditHistory } from './editHistory';
import { AnnotationEdits } from './editCommands';
import { ScoringPanel } from './ScoringPanel';
import { ScoringFiles } from './ScoringFiles';
import { annotationChannels, loadBindings, saveBindings, scoredWindow, scoringDraft, type Bindings } from './scoringKeys';
import { useScoringKeys } from './useScoringKeys';
import { useTranslation } from 'react-i18next';
import { chartFocus } from '../night/focus';
import { membershipIncludes } from '../../state/membership';

interface AnnotatedNight extends NightRef {
  startMs: number;
  stopMs: number;
  timezone: string;
}

interface Props {
  night: AnnotatedNight;
  /** Channel codes of the night, for the popup and the display filter. */
  channels: string[];
  view: ViewController;
  /** Hands the visible annotations to the renderer, to draw as bands on their channels. */
  onVisible?(annotations: Annotation[]): void;
  /** Codes of the charts shown, in order: what a scoring key marks when no chart is in focus. */
  shownCharts?: readonly string[];
  /** A sample patient's night (spec 2 §2): annotations are shown, never changed. */
  readOnly?: boolean;
}

type Popup = { mode: PopupMode; annotation?: Annotation; prefill?: { startMs: number; durationS?: number; kpis?: string[]; label?: number } } | null;

/** The annotation sidebar, popup and keys of the single-night view (issue 6). */
export function NightAnnotations({ night, channels, view, onVisible, shownCharts = [], readOnly: sample = false }: Props) {
  const { t } = useTranslation();
  const user = useSnapshot(session).user_details;
  const readOnly = user?.is_admin === true || sample;
  const canGenerate = membershipIncludes(user?.membership_type ?? 'non-paid', 'generateSystemAnnotations');
  const list = useAnnotations(night);
  const categories = useCategories(night.patientId);
  const m = useAnnotationMutations(night);
  const [visibility, setVisibility] = useState<Visibility>({ system: true, custom: true, desaturation: true, device: true });
  const [popup, setPopup] = useState<Popup>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const last = useRef<{ label: number; color: string; kpis: string[] } | null>(null);
  // Undo/redo of this night's edits; a new night starts a new history.
  const history = useMemo(() => new EditHistory(), [night.patientId, night.night]);
  const writes = useRef(m);
  writes.current = m;
  const edits = useMemo(
    () =>
      new AnnotationEdits({
        add: (d) => writes.current.add.mutateAsync(d),
        update: (a, changes) => writes.current.update.mutateAsync({ a: a as Annotation, changes }),
        remove: (ids) => writes.current.remove.mutateAsync(ids),
      }),
    [history],
  );
  const [bindings, setBindings] = useState<Bindings | null>(null);
  const [status, setStatus] = useState<string | null>(null);
  useEffect(() => {
    if (categories.data) setBindings(loadBindings(night.patientId, categories.data));
  }, [categories.data, night.patientId]);
  const shownRef = useRef(shownCharts);
  shownRef.current = shownCharts;

  const categoryName = (label: number) => categories.data?.find((c) => c.label_id === label)?.label ?? String(label);
  /** Saves a new annotation as an undoable edit (the undo deletes exactly what was created). */
  const addUndoable = async (draft: AnnotationDraft, label: string) => history.push(await edits.add(draft, label));
  /** Deletes annotations as one undoable edit (the undo makes them again as they were). */
  const removeUndoable = async (ids: number[]) => {
    const gone = (list.data ?? []).filter((a) => ids.includes(a.annotation_map_id));
    history.push(await edits.remove(gone, gone.length === 1 ? categoryName(gone[0].label) : String(gone.length)));
  };

  useScoringKeys({
    enabled: !readOnly && !popup,
    score: (digit) => {
      const id = bindings?.[digit];
      const category = categories.data?.find((c) => c.label_id === id);
      if (!category) return false;
      const focused = chartFocus.codes.length > 0 ? chartFocus.codes : shownRef.current;
      const kpis = annotationChannels(focused, channels);
      if (kpis.length === 0) return false;
      const w = scoredWindow(view.store.state.range, night.startMs);
      const draft = scoringDraft(category, w, kpis);
      last.current = { label: category.label_id, color: category.color_code, kpis };
      void addUndoable(draft, category.label).catch((err: Error) => setStatus(err instanceof ApiError ? err.message : String(err)));
      return true;
    },
    undo: () => {
      if (!history.canUndo) return false;
      void history.undo().then((c) => c && setStatus(t('night.scoring.undone', { what: c.label })), (err: Error) => setStatus(err.message));
      return true;
    },
    redo: () => {
      if (!history.canRedo) return false;
      void history.redo().then((c) => c && setStatus(t('night.scoring.redone', { what: c.label })), (err: Error) => setStatus(err.message));
      return true;
    },
    view,
  });

  const known = useMemo(() => new Set([...channels, 'AP_timing', 'DSAT', 'AHI', 'SQB', 'ODI']), [channels]);
  const shown = useMemo(() => (list.data ?? []).filter((a) => displayable(a, known)), [list.data, known]);
  useEffect(() => {
    onVisible?.(shown.filter((a) => isVisible(a, visibility)));
  }, [shown, visibility, onVisible]);

  useEffect(
    () =>
      onAnnotationRequest((r) => {
        setPopup({ mode: 'add', prefill: { startMs: r.startMs, durationS: Math.max(1, Math.round((r.endMs - r.startMs) / 1000)), kpis: r.channel ? [r.channel] : last.current?.kpis, label: last.current?.label } });
      }),
    [],
  );

  const save = async (draft: AnnotationDraft) => {
    if (popup?.annotation) history.push(await edits.edit(popup.annotation, draft, categoryName(draft.label)));
    else await addUndoable(draft, categoryName(draft.label));
    last.current = { label: draft.label, color: draft.color_code, kpis: draft.kpi };
  };

  useAnnotationKeys({
    view,
    annotations: shown,
    recordingStart: night.startMs,
    enabled: !readOnly && !popup,
    mark: (startMs, endMs) => {
      const l = last.current;
      if (!l) return false;
      const draft = { kpi: l.kpis, start_time: Math.round(startMs), duration: String(Math.round((endMs - startMs) / 1000)), label: l.label, color_code: l.color, comment: '' };
      void addUndoable(draft, categoryName(l.label)).catch((err: Error) => setStatus(err.message));
      return true;
    },
    open: (startMs, endMs) => setPopup({ mode: 'add', prefill: { startMs, durationS: Math.round((endMs - startMs) / 1000) } }),
  });

  const generate = (type: 'system' | 'desaturation') => {
    setNotice(null);
    m.generate.mutate(type, {
      onSuccess: (r) => setNotice(r.message),
      onError: (err) => setNotice(err instanceof ApiError ? err.message : String(err)),
    });
  };

  return (
    <div className="annotation-column">
      {!readOnly && bindings && (
        <ScoringPanel
          view={view}
          annotations={shown}
          categories={categories.data ?? []}
          bindings={bindings}
          timezone={night.timezone}
          status={status}
          onBind={(key, id) => {
            const next = { ...bindings, [key]: id ?? undefined };
            if (id === null) delete next[key];
            setBindings(next);
            saveBindings(night.patientId, next);
          }}
        />
      )}
      <AnnotationSidebar
        annotations={shown}
        categories={categories.data ?? []}
        visibility={visibility}
        timezone={night.timezone}
        readOnly={readOnly}
        canGenerate={canGenerate}
        generating={m.generate.isPending}
        notice={notice}
        onVisibility={setVisibility}
        onView={(a) => {
          view.dispatch({ type: 'moveTo', at: (a.start_ms + a.end_ms) / 2 });
          // Device events are read-only: the sidebar row says all there is; no popup to edit from.
          if (!isReadOnly(a)) setPopup({ mode: 'view', annotation: a });
        }}
        onEdit={(a) => setPopup({ mode: 'edit', annotation: a })}
        onDeleteMany={removeUndoable}
        onGenerate={generate}
        onExport={() => void downloadAnnotationsCsv(night).catch((err: Error) => setNotice(err.message))}
        onAdd={() => setPopup({ mode: 'add', prefill: { startMs: view.store.state.range.t0, kpis: last.current?.kpis, label: last.current?.label } })}
      />
      <ScoringFiles night={night} readOnly={!!readOnly} onNotice={setNotice} />
      {popup && (
        <AnnotationPopup
          key={`${popup.mode}-${popup.annotation?.annotation_map_id ?? 'new'}-${popup.annotation?.version ?? 0}`}
          mode={popup.mode}
          night={night}
          channels={channels}
          categories={categories.data ?? []}
          annotation={popup.annotation}
          prefill={popup.prefill}
          readOnly={readOnly}
          onSave={save}
          onDelete={popup.annotation ? () => removeUndoable([popup.annotation!.annotation_map_id]) : undefined}
          onMode={(mode) => setPopup({ ...popup, mode })}
          onClose={() => setPopup(null)}
          categoryActions={{
            onCreate: (label, color) => m.addCategory.mutateAsync({ label, color }),
            onUpdate: (c, label, color) => m.updateCategory.mutateAsync({ c, label, color }),
            onDelete: (c) => m.removeCategory.mutateAsync(c),
          }}
        />
      )}
    </div>
  );
}
