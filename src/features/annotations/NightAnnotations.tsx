import { memo, useMemo, useRef } from 'react';
import '../../styles/annotations.css';
import { useSnapshot } from 'valtio';
import { session } from '../../state/session';
import type { ViewController } from '../../state/view';
import { AnnotationPopup, type PopupMode } from './AnnotationPopup';
import { AnnotationSidebar } from './AnnotationSidebar';
import { downloadAnnotationsCsv, type NightRef } from './api';
import { isReadOnly, type Annotation, type Category } from './model';
import { useAnnotationMutations, useAnnotations, useCategories } from './queries';
import { ScoringPanel } from './ScoringPanel';
import { ScoringFiles } from './ScoringFiles';
import { useNightKeys, type LastMark } from './useNightKeys';
import { useUndoableEdits } from './useUndoableEdits';
import { useAnnotationPopup } from './useAnnotationPopup';
import { useGenerate, useShownAnnotations } from './useShownAnnotations';
import { membershipIncludes } from '../../state/membership';
import { useStableCallback } from '../../ui/useStableCallback';

/** Nothing here changes when an annotation does: not drawn again for a write. */
const QuietScoringFiles = memo(ScoringFiles);
const NO_CATEGORIES: Category[] = [];

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
  /** Hands the visible annotations to the renderer, to draw as bands on their channels (keep it one function: a new one hands them again). */
  onVisible?(annotations: readonly Annotation[]): void;
  /** Codes of the charts shown, in order: what a scoring key marks when no chart is in focus. */
  shownCharts?: readonly string[];
  /** A sample patient's night (spec 2 §2): annotations are shown, never changed. */
  readOnly?: boolean;
}

/**
 * The sidebar's and the popup's handlers, each one function for the screen's life: the memoised
 * sidebar, scoring panel and popup are drawn again for a change of what they show, not of a closure.
 */
function useHandlers(o: {
  night: AnnotatedNight;
  view: ViewController;
  setPopup: ReturnType<typeof useAnnotationPopup>['setPopup'];
  popup: ReturnType<typeof useAnnotationPopup>['popup'];
  setNotice(text: string | null): void;
}) {
  const { night, view, setPopup, setNotice } = o;
  return {
    onView: useStableCallback((a: Annotation) => {
      view.dispatch({ type: 'moveTo', at: (a.start_ms + a.end_ms) / 2 });
      // Device events are read-only: the sidebar row says all there is; no popup to edit from.
      if (!isReadOnly(a)) setPopup({ mode: 'view', annotation: a });
    }),
    onEdit: useStableCallback((a: Annotation) => setPopup({ mode: 'edit', annotation: a })),
    onExport: useStableCallback(() => void downloadAnnotationsCsv(night).catch((err: Error) => setNotice(err.message))),
    // A fresh form at the window's start (spec 2 §4: closing resets all fields); the M key, not
    // Add, repeats the last mark's category and channels.
    onAdd: useStableCallback(() => setPopup({ mode: 'add', prefill: { startMs: view.store.state.range.t0 } })),
    onMode: useStableCallback((mode: PopupMode) => o.popup && setPopup({ ...o.popup, mode })),
    onClose: useStableCallback(() => setPopup(null)),
  };
}

/** The annotation sidebar, popup and keys of the single-night view (issue 6). */
export function NightAnnotations({ night, channels, view, onVisible, shownCharts = [], readOnly: sample = false }: Props) {
  const user = useSnapshot(session).user_details;
  const readOnly = user?.is_admin === true || sample;
  const canGenerate = membershipIncludes(user?.membership_type ?? 'non-paid', 'generateSystemAnnotations');
  const list = useAnnotations(night);
  const categories = useCategories(night.patientId);
  const m = useAnnotationMutations(night);
  const { notice, setNotice, generate } = useGenerate(m, night.recordingId);
  const last = useRef<LastMark | null>(null);
  const categoryName = (label: number) => categories.data?.find((c) => c.label_id === label)?.label ?? String(label);
  const undoable = useUndoableEdits(night, m, list.data ?? [], categoryName);
  const { popup, setPopup, save } = useAnnotationPopup(undoable, last, categoryName);
  const { shown, tally, visible, visibility, setVisibility } = useShownAnnotations(list.data, channels, onVisible);
  const { bindings, bind, status } = useNightKeys({
    night, channels, view, shownCharts, categories: categories.data, annotations: shown, enabled: !readOnly && !popup, last, undoable, categoryName,
    open: (startMs, endMs) => setPopup({ mode: 'add', prefill: { startMs, durationS: Math.round((endMs - startMs) / 1000) } }),
  });
  const h = useHandlers({ night, view, setPopup, popup, setNotice });
  const onBind = useStableCallback(bind);
  const onDeleteMany = useStableCallback(undoable.removeUndoable);
  const onGenerate = useStableCallback(generate);
  const onSave = useStableCallback(save);
  const onDeleteShown = useStableCallback(() => undoable.removeUndoable(popup?.annotation ? [popup.annotation.annotation_map_id] : []));
  const categoryActions = useCategoryActions(m);
  const allCategories = categories.data ?? NO_CATEGORIES;

  return (
    <div className="annotation-column">
      {!readOnly && bindings && (
        <ScoringPanel view={view} annotations={shown} longestMs={tally.longestMs} categories={allCategories} bindings={bindings} timezone={night.timezone} status={status} onBind={onBind} />
      )}
      <AnnotationSidebar
        annotations={visible}
        tally={tally}
        categories={allCategories}
        visibility={visibility}
        timezone={night.timezone}
        readOnly={readOnly}
        canGenerate={canGenerate}
        generating={m.generate.isPending}
        notice={notice}
        onVisibility={setVisibility}
        onView={h.onView}
        onEdit={h.onEdit}
        onDeleteMany={onDeleteMany}
        onGenerate={onGenerate}
        onExport={h.onExport}
        onAdd={h.onAdd}
      />
      <QuietScoringFiles night={night} readOnly={!!readOnly} onNotice={setNotice} />
      {popup && (
        <AnnotationPopup
          key={`${popup.mode}-${popup.annotation?.annotation_map_id ?? 'new'}-${popup.annotation?.version ?? 0}`}
          mode={popup.mode}
          night={night}
          channels={channels}
          categories={allCategories}
          annotation={popup.annotation}
          prefill={popup.prefill}
          readOnly={readOnly}
          onSave={onSave}
          onDelete={popup.annotation ? onDeleteShown : undefined}
          onMode={h.onMode}
          onClose={h.onClose}
          categoryActions={categoryActions}
        />
      )}
    </div>
  );
}

/** The popup's category writes, one object for the screen's life. */
function useCategoryActions(m: ReturnType<typeof useAnnotationMutations>) {
  const latest = useRef(m);
  latest.current = m;
  return useMemo(
    () => ({
      onCreate: (label: string, color: string) => latest.current.addCategory.mutateAsync({ label, color }),
      onUpdate: (c: Category, label: string, color: string) => latest.current.updateCategory.mutateAsync({ c, label, color }),
      onDelete: (c: Category) => latest.current.removeCategory.mutateAsync(c),
    }),
    [],
  );
}
