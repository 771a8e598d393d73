import { useRef } from 'react';
import '../../styles/annotations.css';
import { useSnapshot } from 'valtio';
import { session } from '../../state/session';
import type { ViewController } from '../../state/view';
import { AnnotationPopup } from './AnnotationPopup';
import { AnnotationSidebar } from './AnnotationSidebar';
import { downloadAnnotationsCsv, type NightRef } from './api';
import { isReadOnly, type Annotation } from './model';
import { useAnnotationMutations, useAnnotations, useCategories } from './queries';
import { ScoringPanel } from './ScoringPanel';
import { ScoringFiles } from './ScoringFiles';
import { useNightKeys, type LastMark } from './useNightKeys';
import { useUndoableEdits } from './useUndoableEdits';
import { useAnnotationPopup } from './useAnnotationPopup';
import { useGenerate, useShownAnnotations } from './useShownAnnotations';
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

/** The annotation sidebar, popup and keys of the single-night view (issue 6). */
export function NightAnnotations({ night, channels, view, onVisible, shownCharts = [], readOnly: sample = false }: Props) {
  const user = useSnapshot(session).user_details;
  const readOnly = user?.is_admin === true || sample;
  const canGenerate = membershipIncludes(user?.membership_type ?? 'non-paid', 'generateSystemAnnotations');
  const list = useAnnotations(night);
  const categories = useCategories(night.patientId);
  const m = useAnnotationMutations(night);
  const { notice, setNotice, generate } = useGenerate(m);
  const last = useRef<LastMark | null>(null);
  const categoryName = (label: number) => categories.data?.find((c) => c.label_id === label)?.label ?? String(label);
  const undoable = useUndoableEdits(night, m, list.data ?? [], categoryName);
  const { popup, setPopup, save } = useAnnotationPopup(undoable, last, categoryName);
  const { shown, visibility, setVisibility } = useShownAnnotations(list.data, channels, onVisible);
  const { bindings, bind, status } = useNightKeys({
    night, channels, view, shownCharts, categories: categories.data, annotations: shown, enabled: !readOnly && !popup, last, undoable, categoryName,
    open: (startMs, endMs) => setPopup({ mode: 'add', prefill: { startMs, durationS: Math.round((endMs - startMs) / 1000) } }),
  });

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
          onBind={bind}
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
        onDeleteMany={undoable.removeUndoable}
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
          onDelete={popup.annotation ? () => undoable.removeUndoable([popup.annotation!.annotation_map_id]) : undefined}
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
